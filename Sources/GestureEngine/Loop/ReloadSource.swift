import Glibc
import GestureCore
import GestureSystem

/// When the rules reload: on SIGHUP, and when their files change (watched
/// with inotify, `--no-watch` aside), as `ReloadSettle` paces it.
final class ReloadSource: LoopSource {
    private unowned let engine: Engine
    private let hangup: Int32
    private let watcher: RuleWatcher?
    private var settle: ReloadSettle
    /// A reload slow enough to hold the next one back was said.
    private var slowReloadSaid = false
    /// An empty read was said; again only after rules load.
    private var emptySaid = false

    /// Nil when the run has no rules file to reload.
    init?(engine: Engine) {
        guard engine.options.rulesPath != nil else { return nil }
        self.engine = engine
        settle = ReloadSettle(runningNothing: engine.runtime.ruleCount == 0)
        hangup = HangupSignal.install()
        watcher = engine.options.watchRules ? RuleWatcher() : nil
        watcher?.watch(engine.runtime.sourceFiles)
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        if hangup >= 0 { list.append(PollRequest(fd: hangup, events: Int16(POLLIN))) }
        if let watcher { list.append(PollRequest(fd: watcher.fd, events: Int16(POLLIN))) }
    }

    func deadline(now: Double) -> Double? { settle.due }

    func serve(_ round: LoopRound) {
        if round.isReady(hangup), HangupSignal.drain() { settle.signalled() }
        if let watcher, round.isReady(watcher.fd), watcher.changed() { settle.changed(at: MonotonicClock.now()) }
        let now = MonotonicClock.now()
        guard let reason = settle.takeDue(at: now) else { return }
        let outcome = engine.reloadRules(because: reason.description)
        if outcome == .readEmpty {
            settle.readEmpty()
            if !emptySaid, let path = engine.options.rulesPath {
                emptySaid = true
                engine.console.say(Engine.reloadRefusal(path: path, reason: reason.description,
                                                        why: "the file is empty (still being written?); to run no rules, leave a comment in it"))
            }
            return
        }
        if outcome == .reloaded { emptySaid = false }
        let end = MonotonicClock.now()
        settle.reloaded(from: now, to: end)
        watcher?.watch(engine.runtime.sourceFiles)
        if settle.notBefore - end >= 1, !slowReloadSaid {
            slowReloadSaid = true
            engine.console.note("reloading took \(TraceRecord.oneDecimal(end - now)) s; the next reload waits \(TraceRecord.oneDecimal(settle.notBefore - end)) s, so that reloads take at most a tenth of the time (said once)")
        }
    }
}
