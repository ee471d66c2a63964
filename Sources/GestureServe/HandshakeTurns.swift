/// Turns for TLS handshakes' costly part: the private key's signature (4 ms
/// for RSA-4096 on a laptop) runs on the engine's thread, so a crowd of
/// clients must not get it all at once. One turn at a time, at most `rate`
/// a second; a turn goes to the waiting client whose address had one least
/// recently, the longest waiting among equals. A stranger opening handshakes
/// without end then delays the phone by one turn per other address waiting,
/// not by its whole crowd.
public struct HandshakeTurns: Sendable {
    private var bucket: RateBucket
    /// When each address waiting or in progress last had a turn; only those, so it stays small.
    private var lastTurn: [UInt32: Double] = [:]

    /// A client whose hello is in, waiting for its turn.
    public struct Waiting: Equatable, Sendable {
        public var id: Int
        public var peer: UInt32
        public var since: Double

        public init(id: Int, peer: UInt32, since: Double) {
            self.id = id
            self.peer = peer
            self.since = since
        }
    }

    public init(rate: Double, now: Double) {
        bucket = RateBucket(rate: rate, burst: 1, now: now)
    }

    /// The id to give a turn to now, if any; `present` are the addresses with a connection still open.
    public mutating func next(among waiting: [Waiting], present: Set<UInt32>, now: Double) -> Int? {
        lastTurn = lastTurn.filter { present.contains($0.key) }
        guard !waiting.isEmpty else { return nil }
        let chosen = waiting.min { a, b in
            (lastTurn[a.peer] ?? -.infinity, a.since, a.id) < (lastTurn[b.peer] ?? -.infinity, b.since, b.id)
        }
        guard let chosen, bucket.take(now: now) else { return nil }
        lastTurn[chosen.peer] = now
        return chosen.id
    }

    /// Seconds until the next turn may be given.
    public func wait(now: Double) -> Double {
        bucket.wait(now: now)
    }
}
