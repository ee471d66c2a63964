/// How far a run has come, and whether it must stop.
struct RunState {
    var framesProcessed = 0
    var gesturesDelivered = 0
    /// `--timing`: per-frame processing time.
    var timer = FrameTimer()
    /// Set when the run cannot go on (no uinput for key(), stdout gone, an
    /// author tool's reader gone): the run stops with it.
    var fatal: ExitCode?
    /// A stop signal ended the run.
    var stopAsked = false
    /// The escape chord suspended sharing: every device is the desktop's until it is pressed again.
    var sharingSuspended = false
}
