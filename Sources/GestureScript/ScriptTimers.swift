import Glibc
import CLuaShim
import GestureCore
import GestureSystem

/// `after(sec, fn)` and `every(sec, fn)`: functions run when the input's clock
/// passes their time. Replay never waits; a live input's loop sleeps until them.
///
/// Timers are bounded three ways. At most `maxPendingTimers` wait at once. In
/// one input instant (from one input to the next) timers made in that instant
/// run at most `maxTimerRunsPerInstant` times, and all of them for at most the
/// CPU time of one call; past that the rest wait for the next input, so a
/// timer that re-arms itself with `after(0, ...)` cannot hold the engine. And an `every` timer catches
/// up on at most `maxCatchUp` missed runs when the input's clock jumps; the
/// rest are skipped.
extension ScriptRuntime {
    static let timerMetatable = "gesturemap.timer"
    public static let maxPendingTimers = 10_000
    public static let maxTimerRunsPerInstant = 1000
    public static let maxCatchUp = 100
    /// What one pending timer costs the host, charged to the memory limit.
    static let timerFootprint = 160

    /// The latest input time the rules have seen.
    public var clock: Double { now.time }

    /// Takes over another runtime's `state` table (a reload): a deep copy, since
    /// the two Lua states share nothing. Functions in it cannot cross and are
    /// dropped.
    public func adoptState(from other: ScriptRuntime) throws(StateAdoptionError) {
        gm_collect(other.lua.L)
        let otherTop = lua_gettop(other.lua.L)
        var request = gm_request()
        request.kind = GM_ADOPT_STATE
        request.from = other.lua.L
        let outcome = enter(&request)
        lua_settop(other.lua.L, otherTop)
        if case .failure(let failure) = outcome {
            throw failure.kind == .memory ? .noRoom(memoryLimit: options.memoryLimit) : .failed(failure.message)
        }
        if request.dropped > 0 { host?.note("\(request.dropped) functions or other values in state could not be carried over the reload") }
    }

    /// The earliest timer, on the input's clock; nil while none is due before
    /// the next input.
    public var nextTimerDeadline: Double? {
        guard now.clockStarted, !timers.instant.holding else { return nil }
        return timers.queue.firstDue
    }

    /// The engine is about to bring every clock up to `time`: one input
    /// instant, for the limits on timer runs.
    public func beginInstant(at time: Double) {
        guard time > timers.instant.time else { return }
        timers.instant = TimerInstant(time: time, serial: timers.instant.serial + 1)
    }

    /// The input's clock has reached `time`; timers made before the first input
    /// now count from it.
    public func advanceClock(to time: Double) {
        if !now.clockStarted {
            now.clockStarted = true
            timers.queue.shiftAll(by: time)
        }
        beginInstant(at: time)
        if time > now.time { now.time = time }
    }

    /// Runs every timer due at or before `time`, earliest first (an `every` timer
    /// may run several times), within the limits of the instant.
    public func fireTimers(upTo time: Double) {
        advanceClock(to: time)
        while !timers.instant.holding, let next = timers.queue.first, next.due <= time {
            let chained = next.madeIn == timers.instant.serial
            if chained && timers.instant.runs >= Self.maxTimerRunsPerInstant || timers.instant.elapsed >= options.timeLimit && options.timeLimit > 0 {
                hold(before: next)
                break
            }
            guard var timer = timers.queue.removeFirst() else { break }
            now.time = timer.due
            if let interval = timer.interval {
                if let due = nextRun(of: &timer, interval: interval) {
                    var again = timer
                    again.due = due
                    timers.queue.insert(again)
                } else {
                    // Its last run: it cannot be scheduled again.
                    timer.interval = nil
                }
            }
            let started = Self.cpuSeconds()
            run(timer)
            if chained { timers.instant.runs += 1 }
            timers.instant.elapsed += Self.cpuSeconds() - started
            if timer.interval == nil { release(timer) }
        }
    }

    /// When an `every` timer runs next: one interval on, or past the instant
    /// when it has caught up `maxCatchUp` times already. Nil when the clock is
    /// so large that adding the interval no longer changes it.
    private func nextRun(of timer: inout LuaTimer, interval: Double) -> Double? {
        var due = timer.due + interval
        if timer.catchUpInstant == timers.instant.time {
            timer.catchUps += 1
        } else {
            timer.catchUpInstant = timers.instant.time
            timer.catchUps = 1
        }
        if timer.catchUps >= Self.maxCatchUp && due <= timers.instant.time {
            let skipped = ((timers.instant.time - timer.due) / interval).rounded(.down)
            due = timer.due + (skipped + 1) * interval
            if !(due > timers.instant.time) { due = timers.instant.time + interval }
            guard due > timers.instant.time, due.isFinite else {
                log("\(timer.origin): warning: every(\(number(interval))) stopped: at input time \(number(timers.instant.time)) s, adding \(number(interval)) s no longer changes the time")
                return nil
            }
            log("\(timer.origin): warning: every(\(number(interval))) fell \(number(skipped + Double(timer.catchUps))) runs behind the input's clock (it jumped to \(number(timers.instant.time)) s); it ran \(timer.catchUps) of them and skips the other \(number(skipped))")
        }
        guard due > timer.due, due.isFinite else {
            log("\(timer.origin): warning: every(\(number(interval))) stopped: at input time \(number(timer.due)) s, adding \(number(interval)) s no longer changes the time")
            return nil
        }
        return due
    }

    private func hold(before timer: LuaTimer) {
        timers.instant.holding = true
        guard !timers.holdReported else { return }
        timers.holdReported = true
        let why = timers.instant.runs >= Self.maxTimerRunsPerInstant
            ? "timers made at one input instant ran \(timers.instant.runs) times in it (the most is \(Self.maxTimerRunsPerInstant); does a timer re-arm itself with after(0, ...)?)"
            : "timers used \(number(options.timeLimit)) s of CPU time at one input instant (the most one call may)"
        log("\(timer.origin): warning: \(why); the timers still due wait for the next input")
    }

    /// End of input: `after` timers still pending run, in order; `every` timers stop.
    public func finishTimers() {
        for timer in timers.queue.all where timer.interval != nil { discard(timer) }
        guard let last = timers.queue.all.map(\.due).max() else { return }
        timers.instant = TimerInstant(time: max(last, timers.instant.time), serial: timers.instant.serial + 1)
        fireTimers(upTo: last)
    }

    /// Cancels every timer (a reload drops the old rules' timers).
    public func cancelTimers() {
        for timer in timers.queue.all { discard(timer) }
    }

    private func run(_ timer: LuaTimer) {
        now.origin = timer.origin
        var request = gm_request()
        request.kind = GM_CALL_REF
        request.ref = timer.function
        let outcome = enter(&request)
        now.origin = nil
        guard case .failure(let failure) = outcome else { return }
        if failure.kind == .memory {
            log("\(timer.origin): a timer ran out of Lua memory (limit \(mebibytes(options.memoryLimit))) and was stopped")
        } else {
            log(failure.message)
        }
        // A repeating timer that fails is stopped, or it would fail forever.
        if timer.interval != nil, let pending = timers.queue.remove(id: timer.id) {
            release(pending)
            log("\(timer.origin): warning: the every() timer failed and is stopped")
        }
    }

    private func discard(_ timer: LuaTimer) {
        if let pending = timers.queue.remove(id: timer.id) { release(pending) } else { release(timer) }
    }

    /// A timer that will not run again: its function and its charge go.
    private func release(_ timer: LuaTimer) {
        gm_unref(lua.L, timer.function)
        lua.limits.release(Self.timerFootprint)
        load.charged -= Self.timerFootprint
    }

    /// CPU time of this thread: what the timers' time limit counts, as a call's does.
    static func cpuSeconds() -> Double { MonotonicClock.threadCPUTime() }

    // MARK: Lua functions

    func schedule(_ stack: LuaView, repeating: Bool) -> Int32 {
        let name = repeating ? "every" : "after"
        guard let seconds = stack.number(at: 1), seconds.isFinite, seconds >= 0 else {
            return raise(stack, "\(name)() needs a number of seconds first, as in \(name)(2, function() ... end)")
        }
        if repeating && seconds < 0.001 { return raise(stack, "every() needs at least 0.001 seconds between runs") }
        guard stack.type(at: 2) == .function else {
            return raise(stack, "\(name)(\(number(seconds)), ...) needs a function to run")
        }
        guard timers.queue.count < Self.maxPendingTimers else {
            return raise(stack, "\(name)(): \(Self.maxPendingTimers) timers are pending already, the most one rules file may have; keep the handles and :cancel() the timers you no longer need")
        }
        guard lua.limits.charge(Self.timerFootprint) else {
            return raise(stack, "\(name)(): no Lua memory left for another timer (limit \(mebibytes(options.memoryLimit)))")
        }
        load.charged += Self.timerFootprint
        lua_pushvalue(stack.L, 2)
        let ref = gm_ref(stack.L)
        let id = timers.nextID
        timers.nextID += 1
        let origin = internedOrigin(position(stack, level: 1))
        timers.queue.insert(LuaTimer(id: id, due: (now.clockStarted ? now.time : 0) + seconds, interval: repeating ? seconds : nil,
                               function: ref, origin: origin, madeIn: timers.instant.serial))
        pushHandle(stack, id)
        return 1
    }

    /// One copy of each "file:line", however many timers come from it.
    private func internedOrigin(_ origin: String) -> String {
        if let known = timers.origins.firstIndex(of: origin) { return timers.origins[known] }
        if timers.origins.count < 4096 { timers.origins.insert(origin) }
        return origin
    }

    private func pushHandle(_ stack: LuaView, _ id: Int) {
        lua_createtable(stack.L, 0, 1)
        lua_pushinteger(stack.L, lua_Integer(id))
        lua_setfield(stack.L, -2, "id")
        luaL_setmetatable(stack.L, ScriptRuntime.timerMetatable)
    }

    func cancelTimer(_ stack: LuaView) -> Int32 {
        guard stack.type(at: 1) == .table, stack.rawField(1, "id") == .number, let id = stack.integer(at: -1) else {
            stack.pop()
            return raise(stack, "cancel() belongs to a timer: t = after(1, f); t:cancel()")
        }
        stack.pop()
        if let timer = timers.queue.remove(id: id) { release(timer) }
        return 0
    }
}

/// What the limits on timers and programs count in one input instant.
struct TimerInstant {
    var time = -Double.infinity
    /// Counts instants, so a timer knows whether it was made in this one.
    var serial = 0
    /// Runs of timers made in this instant: a timer re-arming itself.
    var runs = 0
    /// Seconds of CPU time the timers took.
    var elapsed = 0.0
    /// A limit was reached: the timers still due wait for the next input.
    var holding = false
    /// exec() and shell() calls.
    var execs = 0
    /// pointer.* and touchpad.* calls that send a packet.
    var pointerPackets = 0
}

/// Pending timers in a binary heap by (due, id): the earliest first, and among
/// timers due together the one made first. Cancelled timers leave their heap
/// entries behind, dropped as they surface or when they outnumber the rest.
struct TimerQueue {
    private var live: [Int: LuaTimer] = [:]
    private var heap: [(due: Double, id: Int)] = []

    var count: Int { live.count }
    var all: [LuaTimer] { Array(live.values) }

    mutating func insert(_ timer: LuaTimer) {
        live[timer.id] = timer
        push((timer.due, timer.id))
    }

    @discardableResult
    mutating func remove(id: Int) -> LuaTimer? {
        let timer = live.removeValue(forKey: id)
        if heap.count > 2 * live.count + 64 { rebuild() }
        return timer
    }

    /// The earliest pending timer.
    var first: LuaTimer? {
        mutating get {
            dropStale()
            return heap.first.flatMap { live[$0.id] }
        }
    }

    /// When the earliest pending timer is due: asked every frame, so with no
    /// copy of the timer and no lookup once the stale entries are gone (the
    /// top's time is then its timer's).
    var firstDue: Double? {
        mutating get {
            if live.isEmpty { return nil }
            dropStale()
            return heap.first?.due
        }
    }

    mutating func removeFirst() -> LuaTimer? {
        dropStale()
        guard let top = heap.first else { return nil }
        popTop()
        return live.removeValue(forKey: top.id)
    }

    /// Timers made before the first input count from it.
    mutating func shiftAll(by offset: Double) {
        for id in live.keys { live[id]?.due += offset }
        rebuild()
    }

    private mutating func dropStale() {
        while let top = heap.first, live[top.id]?.due != top.due { popTop() }
    }

    private mutating func rebuild() {
        heap = live.values.map { ($0.due, $0.id) }
        guard heap.count > 1 else { return }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    private static func before(_ a: (due: Double, id: Int), _ b: (due: Double, id: Int)) -> Bool {
        a.due < b.due || a.due == b.due && a.id < b.id
    }

    private mutating func push(_ entry: (due: Double, id: Int)) {
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let left = 2 * i + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, Self.before(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.before(heap[smallest], heap[i]) else { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}

/// A number for a message: whole numbers without ".0".
func number(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
}
