/// Steps of `app` pattern matching that focus changes may cost. A window that
/// changes its id every few milliseconds, or a rules file full of slow
/// patterns, would otherwise take the loop from the touch input: the limit is
/// per second of the monotonic clock, not per change, so no rate of changes
/// can buy more. A bucket: it holds at most `capacity` steps and fills at
/// `perSecond`; what a change cannot pay waits until the bucket has filled.
///
/// A step costs some 5 ns. Real rules on real ids take tens of steps a
/// pattern: a file of a few hundred app rules is decided in one go well
/// within `capacity`.
struct AppMatchBudget: Equatable, Sendable {
    /// About 10 ms of matching at once: the most one focus change delays a gesture.
    static let capacity = 2_000_000
    /// About half a percent of one core, however often the focus changes.
    static let perSecond = 1_000_000
    /// Matching that waits starts again once this much has come back: enough
    /// for a slow pattern's whole allowance (`maxDeviceMatchSteps`), rather
    /// than a few steps at every turn of the loop.
    static let resumeAt = 200_000

    /// May fall below zero by what the last find took past its share.
    private(set) var available: Int
    /// The clock reading the bucket is filled up to; nil until first read.
    private var filledAt: Double?

    init(available: Int = AppMatchBudget.capacity) {
        self.available = available
    }

    /// Adds what the time since the last fill earned. A clock that goes back
    /// earns nothing; the fraction of a step not yet earned is kept for later.
    mutating func fill(at now: Double) {
        guard let last = filledAt else {
            filledAt = now
            return
        }
        guard now > last else { return }
        guard available < Self.capacity else {
            filledAt = now
            return
        }
        // A millionth of a step of slack: 0.1 s times the rate is 99999.99999… in binary.
        let earned = min(Double(Self.capacity - available), ((now - last) * Double(Self.perSecond) + 1e-6).rounded(.down))
        available += Int(earned)
        filledAt = available >= Self.capacity ? now : last + earned / Double(Self.perSecond)
    }

    mutating func spend(_ steps: Int) {
        available -= max(0, steps)
    }

    /// When the bucket will hold `steps`, on the clock `fill` is given.
    func due(toHold steps: Int) -> Double? {
        guard let filledAt else { return nil }
        let missing = min(steps, Self.capacity) - available
        // Half a step more, so that `fill` at that time, rounding down, finds them all.
        return missing <= 0 ? filledAt : filledAt + (Double(missing) + 0.5) / Double(Self.perSecond)
    }
}
