import CLuaShim
import GestureScript

extension Engine {
    /// Loads the rules file again. The new rules take over only if they load;
    /// otherwise the old ones keep running. The `state` table carries over, the
    /// old rules' timers are cancelled.
    func reloadRules(because reason: String) {
        guard let old = runtime, let path = options.rulesPath else { return }
        guard let fresh = ScriptRuntime(host: self, options: scriptOptions) else { return }
        fresh.adoptState(from: old)
        do {
            try fresh.load(path: path)
        } catch {
            for problem in error.problems { console.say(problem) }
            console.say("gesturemap: reloading \(path) failed (\(reason)); the rules that were running go on")
            return
        }
        for warning in fresh.warnings { console.say(warning) }
        old.cancelTimers()
        fresh.advanceClock(to: old.clock)
        runtime = fresh
        seenGeneration = -1
        syncRules()
        console.say("gesturemap: reloaded \(path) (\(reason)): \(fresh.ruleCount) rules")
    }

    var scriptOptions: ScriptOptions {
        ScriptOptions(memoryLimit: options.luaMemory, allowInsecureRules: options.allowInsecureRules)
    }
}
