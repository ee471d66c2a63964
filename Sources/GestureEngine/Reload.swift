import Glibc
import GestureScript

extension Engine {
    /// Loads the rules file again. The new rules take over only if they load;
    /// otherwise the old ones keep running. The `state` table carries over, the
    /// old rules' timers are cancelled. The new rules' Lua state shares the
    /// memory limit with the old one while both exist.
    func reloadRules(because reason: String) {
        let old = runtime
        guard let path = options.rulesPath else { return }
        func refuse(_ why: String) {
            console.say("gesturemap: reloading \(path) failed (\(reason)): \(why); the rules that were running go on")
        }
        // A file rewritten in place is empty between its truncation and the
        // first write: that is a file being written, not a wish to run nothing.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0, old.ruleCount > 0 {
            return refuse("the file is empty (still being written?); to run no rules, leave a comment in it")
        }
        guard let fresh = ScriptRuntime(host: self, options: scriptOptions, sharingLimitsOf: old) else {
            return refuse("no Lua memory left for a second set of rules next to the running ones (limit \(options.luaMemory >> 20) MiB for both)")
        }
        do {
            try fresh.adoptState(from: old)
        } catch {
            return refuse(error.description)
        }
        fresh.shapeNames = old.shapeNames
        // The focused application and the keys held are the new rules' too,
        // from the start; what the old rules left of the budget for matching
        // the application, too, or rewriting the file would refill it.
        fresh.takeAppMatchBudget(from: old)
        fresh.setContext(old.context)
        do {
            try fresh.load(path: path, regularFileOnly: true)
        } catch {
            for problem in error.problems { console.say(problem) }
            console.say("gesturemap: reloading \(path) failed (\(reason)); the rules that were running go on")
            return
        }
        for warning in fresh.warnings { console.say(warning) }
        old.cancelTimers()
        fresh.advanceClock(to: old.clock)
        // The old rules' presses and landings end with them.
        releaseEverything()
        runtime = fresh
        cores.rulesStale = true
        syncRules()
        console.say("gesturemap: reloaded \(path) (\(reason)): \(fresh.ruleCount) rules")
        _ = makeKeyboardIfCalled(atStart: false)
        _ = makePointerDevicesIfUsed(atStart: false)
    }

    var scriptOptions: ScriptOptions { Self.scriptOptions(options) }

    static func scriptOptions(_ options: RunOptions) -> ScriptOptions {
        ScriptOptions(memoryLimit: options.luaMemory, allowInsecureRules: options.allowInsecureRules)
    }
}
