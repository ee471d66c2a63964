import CLuaShim
import GestureCore

/// `after(sec, fn)` and `every(sec, fn)`: functions run when the input's clock
/// passes their time. Replay never waits; a live input's loop sleeps until them.
extension ScriptRuntime {
    static let timerMetatable = "gesturemap.timer"

    /// The latest input time the rules have seen.
    public var clock: Double { currentTime }

    /// Takes over another runtime's `state` table (a reload): a deep copy, since
    /// the two Lua states share nothing. Functions in it cannot cross and are dropped.
    public func adoptState(from other: ScriptRuntime) {
        lua_getglobal(other.lua.L, "state")
        let dropped = gm_copy_value(other.lua.L, -1, lua.L)
        other.lua.pop()
        if lua.type(at: -1) == .table {
            lua_setglobal(lua.L, "state")
        } else {
            lua.pop()
        }
        if dropped > 0 { log("gesturemap: \(dropped) functions or other values in state could not be carried over the reload") }
    }

    /// The earliest timer, on the input's clock.
    public var nextTimerDeadline: Double? {
        guard !timers.isEmpty else { return nil }
        var earliest: Double?
        for t in timers where t.anchored && earliest.map({ t.due < $0 }) ?? true { earliest = t.due }
        return earliest
    }

    /// The input's clock has reached `time`; timers made before the first input
    /// now count from it.
    public func advanceClock(to time: Double) {
        if !clockStarted {
            clockStarted = true
            for i in timers.indices where !timers[i].anchored {
                timers[i].due += time
                timers[i].anchored = true
            }
        }
        if time > currentTime { currentTime = time }
    }

    /// Runs every timer due at or before `time`, earliest first (an `every` timer
    /// may run several times).
    public func fireTimers(upTo time: Double) {
        advanceClock(to: time)
        while let i = timers.indices.filter({ timers[$0].anchored && timers[$0].due <= time }).min(by: { timers[$0].due < timers[$1].due }) {
            var timer = timers[i]
            if let interval = timer.interval {
                timers[i].due += interval
            } else {
                timers.remove(at: i)
            }
            currentTime = timer.due
            run(&timer)
            if timer.interval == nil { gm_unref(lua.L, timer.function) }
        }
    }

    /// End of input: `after` timers still pending run, in order; `every` timers stop.
    public func finishTimers() {
        timers.removeAll { timer in
            if timer.interval != nil { gm_unref(lua.L, timer.function) }
            return timer.interval != nil
        }
        if let last = timers.map(\.due).max() { fireTimers(upTo: last) }
    }

    /// Cancels every timer (a reload drops the old rules' timers).
    public func cancelTimers() {
        for t in timers { gm_unref(lua.L, t.function) }
        timers.removeAll()
    }

    private func run(_ timer: inout LuaTimer) {
        let base = lua.top
        gm_getref(lua.L, timer.function)
        let status = gm_pcall_limited(lua.L, 0, 0, lua.limits)
        if status != LUA_OK {
            if status == LUA_ERRMEM {
                gm_collect(lua.L)
                log("\(timer.origin): a timer ran out of Lua memory (limit \(mebibytes(options.memoryLimit))) and was stopped")
            } else {
                log(chunkNames.restore(lua.errorMessage()))
            }
            // A repeating timer that fails is stopped, or it would fail forever.
            if timer.interval != nil {
                timers.removeAll { $0.id == timer.id }
                gm_unref(lua.L, timer.function)
                timer.interval = nil
                log("\(timer.origin): warning: the every() timer failed and is stopped")
            }
        }
        lua.top = base
    }

    // MARK: Lua functions

    func schedule(repeating: Bool) -> Int32 {
        let name = repeating ? "every" : "after"
        guard let seconds = lua.number(at: 1), seconds.isFinite, seconds >= 0 else {
            return raise("\(name)() needs a number of seconds first, as in \(name)(2, function() ... end)")
        }
        if repeating && seconds < 0.001 { return raise("every() needs at least 0.001 seconds between runs") }
        guard lua.type(at: 2) == .function else {
            return raise("\(name)(\(seconds), ...) needs a function to run")
        }
        lua_pushvalue(lua.L, 2)
        let ref = gm_ref(lua.L)
        let id = nextTimerID
        nextTimerID += 1
        timers.append(LuaTimer(id: id, due: (clockStarted ? currentTime : 0) + seconds, interval: repeating ? seconds : nil,
                               function: ref, origin: position(level: 1), anchored: clockStarted))
        pushHandle(id)
        return 1
    }

    private func pushHandle(_ id: Int) {
        lua_createtable(lua.L, 0, 1)
        lua_pushinteger(lua.L, lua_Integer(id))
        lua_setfield(lua.L, -2, "id")
        luaL_setmetatable(lua.L, ScriptRuntime.timerMetatable)
    }

    func cancelTimer() -> Int32 {
        guard lua.type(at: 1) == .table, lua.rawField(1, "id") == .number, let id = lua.integer(at: -1) else {
            lua.pop()
            return raise("cancel() belongs to a timer: t = after(1, f); t:cancel()")
        }
        lua.pop()
        if let i = timers.firstIndex(where: { $0.id == id }) {
            gm_unref(lua.L, timers[i].function)
            timers.remove(at: i)
        }
        return 0
    }
}
