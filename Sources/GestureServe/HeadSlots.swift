/// Who gives way when a connection arrives and the request heads in
/// progress fill their slots. The listener is always accepted from, so the
/// phone's connection always reaches this choice; the choice then never
/// drops a head that showed the token, and drops a stranger's before the
/// phone's: first the newcomer's own address's oldest when that address is
/// at its cap, else the oldest head of the address holding the most heads.
/// A stranger on one address can only displace its own connections; to
/// displace the phone's, it would need more addresses than there are slots,
/// all arriving between the phone's connection and its first bytes.
public struct HeadSlots: Sendable {
    public let total: Int
    public let perPeer: Int

    /// A connection still sending its head.
    public struct Head: Equatable, Sendable {
        public var id: Int
        /// Its IPv4 address (the port left out: one machine, one peer).
        public var peer: UInt32
        /// When it was accepted, on the engine's clock.
        public var since: Double
        /// Its request line carried the token.
        public var proven: Bool

        public init(id: Int, peer: UInt32, since: Double, proven: Bool) {
            self.id = id
            self.peer = peer
            self.since = since
            self.proven = proven
        }
    }

    public enum Choice: Equatable, Sendable {
        /// A slot is free.
        case room
        /// This head gives way to the newcomer.
        case evict(id: Int)
        /// Every slot holds a head that showed the token: the newcomer goes.
        case refuse
    }

    public init(total: Int, perPeer: Int) {
        self.total = max(1, total)
        self.perPeer = max(1, perPeer)
    }

    /// Where a newcomer from `peer` goes, among `heads`.
    public func place(_ peer: UInt32, among heads: [Head]) -> Choice {
        let strangers = heads.filter { !$0.proven }
        let own = strangers.filter { $0.peer == peer }
        if own.count >= perPeer, let oldest = Self.oldest(own) { return .evict(id: oldest.id) }
        if heads.count < total { return .room }
        return victim(among: heads).map { .evict(id: $0) } ?? .refuse
    }

    /// The head that gives way when room must be made (for a newcomer, or
    /// for a descriptor when the process has none left): the oldest of the
    /// address holding the most heads without the token; nil when every head showed it.
    public func victim(among heads: [Head]) -> Int? {
        let strangers = heads.filter { !$0.proven }
        var counts: [UInt32: Int] = [:]
        for head in strangers { counts[head.peer, default: 0] += 1 }
        guard let most = counts.values.max() else { return nil }
        return Self.oldest(strangers.filter { counts[$0.peer] == most })?.id
    }

    /// The head that has waited longest (the lowest id among equals: the first accepted).
    private static func oldest(_ heads: [Head]) -> Head? {
        heads.min { ($0.since, $0.id) < ($1.since, $1.id) }
    }
}
