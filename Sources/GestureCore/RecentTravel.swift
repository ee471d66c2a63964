/// The last few positions of something that moves, with their times: enough to
/// tell its velocity over a recent window without keeping its whole history.
/// A fixed ring, so a frame costs no allocation.
struct RecentTravel: Sendable {
    /// 16 reports span 64 ms at 250 Hz and 0.25 s at 60 Hz: every window asked
    /// for here (50–100 ms) on the sensors in docs/defaults.md.
    static let capacity = 16

    private var samples = [(time: Double, position: Vector)](repeating: (0, .zero), count: RecentTravel.capacity)
    private var end = 0
    private var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func removeAll() { count = 0 }

    mutating func append(_ position: Vector, at time: Double) {
        samples[end] = (time, position)
        end = (end + 1) % RecentTravel.capacity
        count = min(count + 1, RecentTravel.capacity)
    }

    /// The mean velocity from the newest sample back to the latest one at least
    /// `window` seconds older (or the oldest kept), and the time that spans.
    // Inlined: read from the tracker's mutating update, which a call would copy.
    @inline(__always)
    func motion(over window: Double) -> (velocity: Vector, span: Double) {
        guard count > 0 else { return (.zero, 0) }
        let size = RecentTravel.capacity
        let last = (end + size - 1) % size
        var first = last
        for k in 0..<count {
            first = (last + size - k) % size
            if samples[last].time - samples[first].time >= window { break }
        }
        let dt = samples[last].time - samples[first].time
        return (dt > 0 ? (samples[last].position - samples[first].position) / dt : .zero, dt)
    }
}
