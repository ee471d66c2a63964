/// Fingers that tap one after the other, a drumroll, are each a one-finger tap,
/// although the second lands before the first lifts and so shares its touch
/// sequence. A two-finger tap's fingers land and lift nearly
/// together and are down together for most of their contact; a roll's take
/// turns. So a press of several fingers is a roll when they lifted in the
/// order they landed, and were all down together for less than
/// `overlapShare` of the longest finger's press. Nested presses (the first
/// lands first and lifts last) are one press of them all.
///
/// A pure judgement of landing and lift times: the tap recognizer asks it
/// while the fingers are down (`mayRoll`) and when they have lifted (`isRoll`).
/// docs/state-machine.md ("Taps and rolls") gives the rule, docs/defaults.md
/// its number.
public struct TapRoll: Equatable, Sendable {
    /// One finger's press.
    public struct Press: Equatable, Sendable {
        public var start: Double
        /// Nil while the finger is down.
        public var lift: Double?
        /// Where the finger is (where it lifted, once it has).
        public var position: Vector

        public init(start: Double, lift: Double?, position: Vector) {
            self.start = start
            self.lift = lift
            self.position = position
        }
    }

    /// How much of the longest finger's press the fingers may be down together
    /// and still take turns. A drumroll's fingers 10–80 ms apart overlap for a
    /// fraction of their contact; a two-finger tap's (spreads of 0–20 ms on
    /// presses of 60–120 ms) for two thirds of it or more.
    public static let overlapShare = 0.5

    /// The presses, in the order the fingers landed.
    public let presses: [Press]

    public init(_ presses: [Press]) {
        self.presses = presses.sorted { $0.start < $1.start }
    }

    /// The hand's contacts in the tracker's current sequence. None when the
    /// hardware counts more fingers than it tracks contacts: which contact is
    /// which finger, and when each landed, is then unknown.
    public init(tracker: TouchTracker) {
        guard tracker.fingers <= tracker.maxConcurrent else {
            self.init([])
            return
        }
        self.init(tracker.touches.map { Press(start: $0.startTime, lift: $0.liftTime, position: $0.position) })
    }

    /// Every finger has lifted, and they rolled.
    public var isRoll: Bool {
        guard presses.allSatisfy({ $0.lift != nil }) else { return false }
        // With every lift known, neither bound is read.
        return mayRoll(latestLift: 0, now: 0)
    }

    /// Whether the presses so far may still turn out a roll, if every finger
    /// still down lifts by `latestLift` (a tap's presses end within
    /// `tap_max_duration` of the sequence's start). Judged on the fingers
    /// landed so far: one landing later could lower the overlap again, but
    /// the tap recognizer has given up by then, as it would have without
    /// rolls; that keeps a press that cannot roll from holding anything.
    public func mayRoll(latestLift: Double, now: Double) -> Bool {
        guard presses.count >= 2, let last = presses.last else { return false }
        var firstLift: Double?
        var previousLift: Double?
        var anyDown = false
        var longest = 0.0
        for k in presses.indices {
            let press = presses[k]
            // Fingers that land in the same frame land together: no turns taken.
            if k > 0, press.start <= presses[k - 1].start { return false }
            if let lift = press.lift {
                // A finger lifted while one that landed before it is down, or
                // with the one before it: nested or together, not in turn.
                if anyDown { return false }
                if let previousLift, lift <= previousLift { return false }
                previousLift = lift
                if firstLift == nil { firstLift = lift }
                longest = max(longest, lift - press.start)
            } else {
                anyDown = true
                longest = max(longest, latestLift - press.start)
            }
        }
        // All were down together from the last landing to the first lift
        // (negative when the first lifted before the last landed).
        let overlap = (firstLift ?? now) - last.start
        return overlap < Self.overlapShare * longest
    }
}
