import Glibc

/// The programs the rules started: reaped as their exits wake the loop (each
/// child's pidfd is polled), and stopped at their timeouts. Only on a kernel
/// without pidfds does the loop look every tenth of a second while one runs.
final class ChildProcessSource: LoopSource {
    private unowned let engine: Engine

    init(engine: Engine) {
        self.engine = engine
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        for fd in engine.launcher.exitDescriptors { list.append(PollRequest(fd: fd, events: Int16(POLLIN))) }
    }

    func deadline(now: Double) -> Double? {
        let launcher = engine.launcher
        guard launcher.runningCount > 0 else { return nil }
        let timeout = launcher.nextDeadline
        guard launcher.needsLooking else { return timeout }
        return min(timeout ?? now + 0.1, now + 0.1)
    }

    func serve(_ round: LoopRound) {
        if engine.launcher.runningCount > 0 { engine.launcher.enforceTimeouts() }
    }
}
