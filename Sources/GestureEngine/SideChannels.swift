#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore
import GestureInput
import GestureSystem

/// Everything the loop serves besides touch input: SIGHUP and the rules
/// file's changes (reloads), the focused application, the keyboards, the
/// programs the rules started, and the reader of the output. The same for a
/// live loop and a `--realtime` replay's pauses, so neither stops serving
/// them while it waits.
final class SideChannels {
    let hangup: Int32
    let ruleWatcher: RuleWatcher?
    var settle = ReloadSettle()
    /// A reload slow enough to hold the next one back was said.
    var slowReloadSaid = false

    init(watchingRules rulesPath: String?, watch: Bool) {
        hangup = rulesPath == nil ? -1 : HangupSignal.install()
        ruleWatcher = rulesPath != nil && watch ? RuleWatcher() : nil
    }
}

extension Engine {
    /// Starts serving reloads (SIGHUP, and the rules file's changes).
    func openSideChannels() -> SideChannels {
        let channels = SideChannels(watchingRules: options.rulesPath, watch: options.watchRules)
        channels.ruleWatcher?.watch(runtime.sourceFiles)
        return channels
    }

    /// Adds the side channels' descriptors: the app source and the keyboards
    /// first, as a gesture usually follows a focus change or a key.
    func addSideChannels(_ channels: SideChannels, to set: inout PollSet<LoopToken>) {
        for fd in appTracker?.descriptors ?? [] { set.add(fd, .appSource) }
        for (i, keyboard) in (keyInputs?.pollable ?? []).enumerated() { set.add(keyboard.reader.fd, .keyboard(i)) }
        set.add(channels.hangup, .hangup)
        set.add(channels.ruleWatcher?.fd ?? -1, .rulesFile)
        set.add(output.hangupDescriptor ?? -1, .outputReader, events: 0)
    }

    /// How long the side channels let the loop sleep, in ms (-1: for ever).
    func sideTimeout(_ channels: SideChannels, now: Double) -> Int32 {
        var wait: Double?
        if let due = channels.settle.due { wait = due - now }
        // Children are reaped, and stopped at their timeouts, as the loop comes round.
        if launcher.runningCount > 0 {
            let child = launcher.nextDeadline.map { $0 - now } ?? 0.1
            wait = min(wait ?? 0.1, min(child, 0.1))
        }
        // The app source's reconnection, a cleared focus to confirm, an answer overdue.
        if let due = appTracker?.timeout(now: now) { wait = min(wait ?? Double(due) / 1000, Double(due) / 1000) }
        // App rules that wait for the budget of matching to fill.
        if let due = runtime.appMatchingDue { wait = min(wait ?? due - now, due - now) }
        guard let wait else { return -1 }
        return PollTimeout.milliseconds(wait)
    }

    /// Serves what the side channels brought (`ready`), then what is due by
    /// the clock, whichever woke the loop.
    func serveSideChannels(_ channels: SideChannels, ready: [LoopToken]) {
        if ready.contains(.outputReader) {
            checkOutputReader()
            if fatal != nil { return }
        }
        if let appTracker {
            if ready.contains(.appSource) { appTracker.handleReadable() }
            appTracker.tick()
        }
        runtime.resumeAppMatching(now: MonotonicClock.now())
        if let keyInputs {
            let keyboards = keyInputs.pollable
            for case .keyboard(let i) in ready where i < keyboards.count { keyInputs.read(keyboards[i]) }
            noteModifiers(at: nil)
        }
        if ready.contains(.hangup), HangupSignal.drain() { channels.settle.signalled() }
        if let ruleWatcher = channels.ruleWatcher, ready.contains(.rulesFile), ruleWatcher.changed() {
            channels.settle.changed(at: MonotonicClock.now())
        }
        let now = MonotonicClock.now()
        if let reason = channels.settle.takeDue(at: now) {
            reloadRules(because: reason.description)
            let end = MonotonicClock.now()
            channels.settle.reloaded(from: now, to: end)
            channels.ruleWatcher?.watch(runtime.sourceFiles)
            if channels.settle.notBefore - end >= 1, !channels.slowReloadSaid {
                channels.slowReloadSaid = true
                console.say("gesturemap: reloading took \(TraceRecord.oneDecimal(end - now)) s; the next reload waits \(TraceRecord.oneDecimal(channels.settle.notBefore - end)) s, so that reloads take at most a tenth of the time (said once)")
            }
        }
        if launcher.runningCount > 0 { launcher.enforceTimeouts() }
    }

    /// Waits until `wall` on the monotonic clock, serving the side channels
    /// meanwhile: a `--realtime` replay's pace.
    func wait(until wall: Double, serving channels: SideChannels) {
        while fatal == nil {
            let now = MonotonicClock.now()
            guard now < wall else { return }
            var set = PollSet<LoopToken>()
            addSideChannels(channels, to: &set)
            let left = PollTimeout.milliseconds(wall - now)
            let side = sideTimeout(channels, now: now)
            switch set.wait(timeout: side < 0 ? left : min(left, side)) {
            case .ready(let tokens): serveSideChannels(channels, ready: tokens)
            case .timedOut: serveSideChannels(channels, ready: [])
            case .interrupted: continue
            case .failed: return MonotonicClock.sleep(until: wall)
            }
        }
    }
}
