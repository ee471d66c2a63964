import Glibc

/// Standard output's reader: a pipe whose reader left says so when polled
/// (POLLERR), so a run that is not emitting anything still stops.
final class OutputReaderSource: LoopSource {
    private unowned let engine: Engine

    init(engine: Engine) {
        self.engine = engine
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        if let fd = engine.output.hangupDescriptor { list.append(PollRequest(fd: fd, events: 0)) }
    }

    func serve(_ round: LoopRound) {
        if !round.ready.isEmpty { engine.checkOutputReader() }
    }
}
