/// One thing the engine's loop serves, in the spirit of sd-event's sources:
/// the descriptors it waits on, when it must be served with nothing to read,
/// and what it does then. Each is registered once with the `EventLoop`.
/// Times are seconds on the monotonic clock.
protocol LoopSource: AnyObject {
    /// Its descriptors this round, with the poll events it wants (0: only
    /// the other side's end is news).
    func descriptors(into list: inout [PollRequest])
    /// When it must be served even with nothing to read; nil for never.
    func deadline(now: Double) -> Double?
    /// Served every round, in the order the sources were registered.
    func serve(_ round: LoopRound)
    /// Served while a `--realtime` replay waits between frames: what a run
    /// listens to besides its touch input (focus, keys, reloads, children, stdout).
    var servesWhilePacing: Bool { get }
    /// The loop goes on while any source keeps it.
    var keepsLoopRunning: Bool { get }
}

extension LoopSource {
    func deadline(now: Double) -> Double? { nil }
    var servesWhilePacing: Bool { false }
    var keepsLoopRunning: Bool { false }
}

struct PollRequest {
    var fd: Int32
    var events: Int16
}

/// What one round of the loop found for a source: which of its descriptors
/// poll() reported, and when.
struct LoopRound {
    /// When poll() returned.
    let now: Double
    /// This source's descriptors that are ready.
    let ready: [(fd: Int32, events: Int16)]
    /// No descriptor of any source was ready: the round ended at a deadline.
    let isIdle: Bool

    func isReady(_ fd: Int32) -> Bool {
        fd >= 0 && ready.contains { $0.fd == fd }
    }
}
