import Glibc

/// SIGTERM or SIGINT asked the run to stop: it ends as at its input's end,
/// served whether the loop waits for input or for a `--realtime` frame.
final class StopSignalSource: LoopSource {
    private unowned let engine: Engine

    init(engine: Engine) {
        self.engine = engine
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        if let wakeup = StopSignals.wakeup { list.append(PollRequest(fd: wakeup.fd, events: Int16(POLLIN))) }
    }

    func serve(_ round: LoopRound) {
        if StopSignals.requested { engine.stopAsked() }
    }
}
