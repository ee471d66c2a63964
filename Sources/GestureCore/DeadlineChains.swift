/// Deadlines each recognizer has fired since the arena last took an input
/// frame. A timeout that re-arms at every deadline (`r:deadline(t + 1e-6)`)
/// would be followed a million times to cross a quiet second, or for ever at
/// the end of the input. The count spans every call that passes input time,
/// since a caller may pass it one deadline at a time; only input starts a
/// new chain, so the work a chain costs is bounded per frame of input.
struct DeadlineChains: Sendable {
    /// By slot index; empty when no deadline fired since the last frame.
    private var counts: [Int] = []

    /// Counts one more deadline of `slot`'s chain, and returns the chain's length.
    mutating func fired(_ slot: Int) -> Int {
        if slot >= counts.count { counts.append(contentsOf: repeatElement(0, count: slot - counts.count + 1)) }
        counts[slot] += 1
        return counts[slot]
    }

    /// Input came: every chain starts again.
    @inline(__always)
    mutating func inputArrived() {
        if !counts.isEmpty { counts.removeAll(keepingCapacity: true) }
    }
}
