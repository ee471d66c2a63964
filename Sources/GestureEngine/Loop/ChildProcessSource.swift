/// The programs the rules started: reaped, and stopped at their timeouts, as
/// the loop comes round (every tenth of a second while any runs).
final class ChildProcessSource: LoopSource {
    private unowned let engine: Engine

    init(engine: Engine) {
        self.engine = engine
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {}

    func deadline(now: Double) -> Double? {
        let launcher = engine.launcher
        guard launcher.runningCount > 0 else { return nil }
        return min(launcher.nextDeadline ?? now + 0.1, now + 0.1)
    }

    func serve(_ round: LoopRound) {
        if engine.launcher.runningCount > 0 { engine.launcher.enforceTimeouts() }
    }
}
