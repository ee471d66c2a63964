import GestureSystem
import GestureScript

extension Engine {
    /// What a reload came to.
    enum ReloadOutcome: Equatable {
        case reloaded
        /// The new rules did not load (said why); the old ones go on.
        case refused
        /// The file read empty: a file rewritten in place is empty between its
        /// truncation and the first write, which is a file being written, not
        /// a wish to run nothing. Nothing was said: the caller says it once.
        case readEmpty
    }

    /// Loads the rules file again. The new rules take over only if they load;
    /// otherwise the old ones keep running. The `state` table carries over, the
    /// old rules' timers are cancelled. The new rules' Lua state shares the
    /// memory limit with the old one while both exist.
    func reloadRules(because reason: String) -> ReloadOutcome {
        let old = runtime
        guard let path = options.rulesPath else { return .refused }
        func refuse(_ why: String) -> ReloadOutcome {
            console.say(Self.reloadRefusal(path: path, reason: reason, why: why))
            return .refused
        }
        // Read once, and judged as read: a stat before the read would not see
        // a truncation between the two (a storm of saves on a busy machine).
        // Only a regular file is read again: a FIFO in its place has no one to feed it.
        let contents: [UInt8]
        switch BoundedFile.read(path, limit: options.luaMemory) {
        case .success(let bytes): contents = bytes
        case .failure(let error):
            console.say(Self.unreadable(error, path: path, limit: options.luaMemory))
            console.note("reloading \(path) failed (\(reason)); the rules that were running go on")
            return .refused
        }
        if contents.isEmpty { return .readEmpty }
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
            try fresh.load(path: path, contents: contents)
        } catch {
            for problem in error.problems { console.say(problem) }
            console.note("reloading \(path) failed (\(reason)); the rules that were running go on")
            return .refused
        }
        for warning in fresh.warnings { console.say(warning) }
        old.cancelTimers()
        fresh.advanceClock(to: old.clock)
        // The old rules' presses and landings end with them.
        releaseEverything()
        runtime = fresh
        cores.rulesStale = true
        syncRules()
        console.note("reloaded \(path) (\(reason)): \(fresh.ruleCount) rules")
        _ = makeKeyboardIfCalled(atStart: false)
        _ = makePointerDevicesIfUsed(atStart: false)
        return .reloaded
    }

    /// Why the file could not be read again, in the words a load gives.
    private static func unreadable(_ error: FileError, path: String, limit: Int) -> String {
        switch error.reason {
        case .notRegular:
            return "cannot read \(path): it is no longer a regular file (a FIFO, a socket or a device); rules are reloaded only from regular files"
        case .tooLarge:
            return "\(path) is more than the Lua memory limit (\(limit) bytes) could ever hold; a rules file is a few kilobytes of Lua"
        case .system:
            return "cannot read \(error.message)"
        }
    }

    static func reloadRefusal(path: String, reason: String, why: String) -> String {
        "gesturemap: reloading \(path) failed (\(reason)): \(why); the rules that were running go on"
    }

    var scriptOptions: ScriptOptions { Self.scriptOptions(options) }

    static func scriptOptions(_ options: RunOptions) -> ScriptOptions {
        ScriptOptions(memoryLimit: options.luaMemory, allowInsecureRules: options.allowInsecureRules)
    }
}
