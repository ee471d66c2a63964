import Foundation
import GestureCore
import GestureScript
import Testing

/// Rules written to escape the budget, the memory limit or the host's checks.
/// Each ends with a clear message, and the rules after it still run.
@Suite("Hostile rules: the budget")
struct BudgetTests {
    /// Loads `source` with a small budget, taps rule 0, then swipes rule 1 and
    /// returns what both did.
    static func stopped(_ source: String, budget: Int = 200_000, timeLimit: Double = 60) throws -> RecordingHost {
        let (runtime, host) = try loadRules(source + "\non(\"swipe right\", function(g) emit(\"still here\") end)\n",
                                            options: ScriptOptions(instructionBudget: budget, timeLimit: timeLimit))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: RuleID(runtime.ruleCount - 1), event: swipe(.right)))
        return host
    }

    @Test("pcall inside the rule cannot catch the budget's stop", arguments: [
        "on('swipe left', function(g)\n  while true do pcall(function() while true do end end) end\nend)",
        "on('swipe left', function(g)\n  while true do xpcall(function() while true do end end, function(e) while true do end end) end\nend)",
        "on('swipe left', function(g)\n  while true do coroutine.resume(coroutine.create(function() while true do end end)) end\nend)",
        "on('swipe left', function(g)\n  while true do pcall(coroutine.wrap(function() while true do end end)) end\nend)",
        "on('swipe left', function(g)\n  while true do pcall(function() local x <close> = setmetatable({}, { __close = function() while true do end end }); while true do end end) end\nend)",
        "on('swipe left', function(g)\n  local co = coroutine.wrap(function() while true do pcall(function() while true do end end) end end)\n  co()\nend)",
    ])
    func uncatchable(source: String) throws {
        let host = try Self.stopped(source)
        #expect(host.messages.first.map { $0.hasPrefix("rules.lua:2: instruction limit exceeded") || $0.hasPrefix("rules.lua:1: instruction limit exceeded") } == true, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("an error object whose __tostring loops is stopped too")
    func loopingToString() throws {
        let host = try Self.stopped("""
        on("swipe left", function(g)
          error(setmetatable({}, { __tostring = function() while true do end end }))
        end)
        """)
        #expect(host.messages.first?.hasPrefix("rules.lua:2: instruction limit exceeded") == true, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("exponential pattern backtracking is charged to the budget and stopped at its line")
    func exponentialPattern() throws {
        let host = try Self.stopped("""
        on("swipe left", function(g)
          emit("found", { at = ("a"):rep(40):find(("a*"):rep(40) .. "b") })
        end)
        """)
        #expect(host.messages.first?.hasPrefix("rules.lua:2: instruction limit exceeded") == true, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("patterns within the budget still work, plain searches of long strings included")
    func patternsWithinBudget() throws {
        let (runtime, host) = try loadRules(#"""
        on("swipe left", function(g)
          local long = ("x"):rep(1000000) .. "needle"
          local a, b = long:find("needle", 1, true)
          local key, value = ("speed = 12"):match("^(%w+)%s*=%s*(%d+)$")
          local words = {}
          for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
          emit("ok", { a = a, b = b, key = key, value = value, words = table.concat(words, ","),
                       sub = (("hello world"):gsub("o", "0")), bal = ("f(a(b)c)d"):match("%b()") })
        end)
        """#)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.lines == [#"{"action":"ok","t":1.5,"a":1000001,"b":1000006,"bal":"(a(b)c)","key":"speed","sub":"hell0 w0rld","value":"12","words":"one,two,three"}"#])
        #expect(host.messages.isEmpty)
    }

    @Test("a repeat handler that fails ends that event's steps: a jump of 100 steps costs one budget, not 100")
    func failingRepeat() throws {
        let (runtime, host) = try loadRules("""
        local calls = 0
        on("pan", function(g) if g.step then calls = calls + 1; while true do end end end, { ["repeat"] = 0.1 })
        on("tap", function(g) emit("calls", { n = calls }) end)
        """, options: ScriptOptions(instructionBudget: 100_000))
        var began = GestureEvent(kind: .pan, phase: .began, fingers: 1, direction: .right, time: 1, delta: Vector(0, 0))
        runtime.dispatch(Delivery(rule: 0, event: began))
        began.phase = .changed
        began.delta = Vector(50, 0)
        runtime.dispatch(Delivery(rule: 0, event: began))
        runtime.dispatch(Delivery(rule: 1, event: tap(at: 2)))
        #expect(host.lines == [#"{"action":"calls","t":2,"n":1}"#])
        #expect(host.messages.count == 1)
    }

    @Test("a device pattern too slow for a device's name does not match it, with one warning")
    func slowDevicePattern() throws {
        let (runtime, host) = try loadRules("""
        on("tap", function(g) end, { device = ("a*"):rep(30) .. "b" })
        on("swipe left", function(g) end, { device = "^Touch" })
        """)
        let name = String(repeating: "a", count: 40)
        #expect(runtime.coreRules(forDevice: name).map(\.isActive) == [false, false])
        #expect(runtime.coreRules(forDevice: name).map(\.isActive) == [false, false])
        #expect(runtime.coreRules(forDevice: "Touchpad").map(\.isActive) == [false, true])
        #expect(host.messages == ["rules.lua:1: warning: the device pattern \"\(String(repeating: "a*", count: 30))b\" took more than 100000 steps to match \"\(name)\"; the rule does not match that device; simplify the pattern"])
    }

    @Test("C loops that Lua would run without a budget are charged to it", arguments: [
        "table.move({}, 1, 1e15, 2)",
        "table.insert(setmetatable({}, { __len = function() return 1e15 end }), 1, 5)",
        "table.remove(setmetatable({}, { __len = function() return 1e15 end }), 1)",
        "local t = {} for i = 1, 200000 do t[i] = -i end while true do table.sort(t) end",
        "local t = {} for i = 1, 100000 do t[i] = '' end while true do table.concat(t) end",
        "local keep = {} for i = 1, 50000 do keep[i] = {} end while true do collectgarbage() end",
        "local s = ('x'):rep(1000000) while true do utf8.len(s) end",
    ])
    func chargedLoops(code: String) throws {
        let host = try Self.stopped("on('swipe left', function(g)\n  \(code)\nend)", budget: 2_000_000)
        #expect(host.messages.first?.hasPrefix("rules.lua:2: instruction limit exceeded") == true, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("the guarded table functions still do what Lua's do, long moves in slices included")
    func guardedTables() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local t = {} for i = 1, 200000 do t[i] = i end
          table.move(t, 1, 150000, 50001)
          local up = t[50000] == 50000 and t[50001] == 1 and t[200000] == 150000
          table.move(t, 50001, 200000, 1)
          local down = t[1] == 1 and t[150000] == 150000 and t[150001] == 100001
          local other = table.move(t, 1, 100000, 3, {})
          local into = other[3] == 1 and other[100002] == 100000 and other[1] == nil
          local l = { 1, 2, 3 }
          table.insert(l, 2, "x") table.insert(l, "y")
          local removed = table.remove(l, 1) .. table.remove(l)
          table.sort(l, function(a, b) return tostring(a) > tostring(b) end)
          emit("tables", { up = up, down = down, into = into, list = table.concat(l, ","), removed = removed,
                           empty = table.remove({}) == nil })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.lines == [#"{"action":"tables","t":1.5,"down":true,"empty":true,"into":true,"list":"x,3,2","removed":"1y","up":true}"#])
        #expect(host.messages.isEmpty)
    }

    @Test("string.rep of an empty string returns at once, however many times")
    func emptyRep() throws {
        let (runtime, host) = try loadRules("on('swipe left', function(g) emit('rep', { n = #string.rep('', 1e18), m = #('ab'):rep(3, ',') }) end)")
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.lines == [#"{"action":"rep","t":1.5,"m":8,"n":0}"#])
    }

    @Test("the CPU time limit stops what instruction counting cannot see: comparing long strings")
    func cpuTimeLimit() throws {
        let host = try Self.stopped("""
        on("swipe left", function(g)
          local a, b = ("x"):rep(4000000), ("x"):rep(4000000)
          while true do local _ = a < b end
        end)
        """, budget: 0, timeLimit: 1)
        #expect(host.messages.first?.hasPrefix("rules.lua:3: time limit exceeded") == true, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("finalizers are refused where they are set: they would run outside any budget")
    func noFinalizers() throws {
        #expect(loadProblems("local x = setmetatable({}, { __gc = function() while true do end end })") == [
            "rules.lua:1: setmetatable: metatables with __gc are not allowed: finalizers would run outside any budget, whenever the collector gets to them; release things explicitly instead",
        ])
        let (runtime, host) = try loadRules("""
        local mt = {}
        local t = setmetatable({}, mt)
        mt.__gc = function() while true do end end
        on("swipe left", function(g) t = nil; collectgarbage(); collectgarbage(); emit("collected") end)
        on("swipe right", function(g) setmetatable({}, { __gc = print }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.lines == [#"{"action":"collected","t":1.5}"#])
        #expect(host.messages.first?.hasPrefix("rules.lua:5: setmetatable: metatables with __gc are not allowed") == true, "\(host.messages)")
    }

    @Test("the host's objects keep their metatables to themselves: no finalizer can be slipped into bindings, timers or log")
    func sealedMetatables() throws {
        let (runtime, host) = try loadRules("""
        local binding = on("swipe left", function(g)
          local timer = after(10, function() end)
          local slipped = pcall(function() getmetatable(timer).__gc = function() while true do end end end)
          emit("timer", { name = getmetatable(timer), slipped = slipped })
          -- Objects the host makes after the attempts: nothing runs when they are collected.
          for i = 1, 100 do after(1000, function() end):cancel() end
          collectgarbage(); collectgarbage()
          emit("after")
        end)
        local slipped = pcall(function() getmetatable(binding).__gc = function() while true do end end end)
        local replaced = pcall(setmetatable, log, {})
        on("swipe right", function(g)
          emit("binding", { name = getmetatable(binding), slipped = slipped, log = getmetatable(log), replaced = replaced })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.lines == [
            #"{"action":"timer","t":1.5,"name":"gesturemap.timer","slipped":false}"#,
            #"{"action":"after","t":1.5}"#,
            #"{"action":"binding","t":1.5,"log":"gesturemap.log","name":"gesturemap.binding","replaced":false,"slipped":false}"#,
        ], "\(host.messages)")
    }

    @Test("rule API functions work from coroutines, on the coroutine's own stack")
    func coroutines() throws {
        let (runtime, host) = try loadRules("""
        local later
        on("swipe left", function(g)
          coroutine.wrap(function() for i = 1, 100000 do mode() end end)()
          later = coroutine.wrap(function(x)
            emit("first", { x = x, mode = mode() })
            local y = coroutine.yield()
            emit("second", { y = y })
          end)
          later(g.kind)
        end)
        on("swipe right", function(g) later(g.direction) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 2)))
        #expect(host.lines == [#"{"action":"first","t":1.5,"mode":"default","x":"swipe"}"#, #"{"action":"second","t":2,"y":"right"}"#])
        #expect(host.messages.isEmpty)
    }

    @Test("a host function passed to pcall, or given as the handler, still names a line")
    func positionsWithoutLuaCaller() throws {
        let (runtime, host) = try loadWithHost("""
        on("tap", function(g)
          local ok, err = pcall(key, "nosuchkey")
          emit("err", { err = err })
        end)
        on("double tap", emit)
        """)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        runtime.dispatch(Delivery(rule: 1, event: tap(at: 2, taps: 2)))
        #expect(host.lines == [#"{"action":"err","t":1,"err":"rules.lua:2: unknown key \"nosuchkey\""}"#])
        #expect(host.messages.first?.hasPrefix("rules.lua:5: emit() needs an action name first") == true, "\(host.messages)")
    }

    @Test("a module that requires itself is stopped at its own line, not inside require")
    func requireLoop() throws {
        let dir = try temporaryDirectory()
        try write("require('again')\n", to: dir + "/again.lua")
        try write("local m = require('again')\n", to: dir + "/rules.lua")
        let runtime = try #require(ScriptRuntime(host: RecordingHost(), options: ScriptOptions(instructionBudget: 1_000_000)))
        do {
            try runtime.load(path: dir + "/rules.lua")
            Issue.record("a module requiring itself loaded")
        } catch {
            #expect(error.problems.first?.hasPrefix("\(dir)/again.lua:1: ") == true, "\(error.problems)")
        }
    }

    @Test("yielding across a C call is an error like any other")
    func yieldAcrossC() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local co = coroutine.wrap(function() table.sort({ 3, 2, 1 }, function(a, b) coroutine.yield() return a < b end) end)
          co()
        end)
        on("swipe right", function(g) coroutine.yield() end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.messages.count == 2)
        #expect(host.messages.first?.contains("attempt to yield across a C-call boundary") == true, "\(host.messages)")
        #expect(host.messages.last?.contains("attempt to yield from outside a coroutine") == true, "\(host.messages)")
    }

    @Test("metatables on the gesture table or on _G do not reach the host", arguments: [
        "setmetatable(g, { __index = function() while true do end end, __newindex = function() while true do end end })",
        "setmetatable(_G, { __index = function() while true do end end, __newindex = function() while true do end end })",
    ])
    func hostileMetatables(code: String) throws {
        let (runtime, host) = try loadRules("""
        state.n = 1
        on("swipe left", function(g) \(code); rawset(state, "n", 2) end)
        on("swipe right", function(g) emit("right", { n = rawget(state, "n") }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.lines == [#"{"action":"right","t":1.5,"n":2}"#])
        let fresh = try #require(ScriptRuntime(host: host))
        #expect(throws: Never.self) { try fresh.adoptState(from: runtime) }
    }

    @Test("errors Lua raises itself end the handler with their message", arguments: [
        ("local function f() return f() + 1 end f()", "stack overflow|ran out of Lua memory"),
        ("string.format('%99999d', 1)", "invalid conversion"),
        ("os.date('%Ez')", "invalid conversion specifier"),
        ("os.date('*t', 1 << 62)", "cannot be represented"),
        ("local co co = coroutine.wrap(function() co() end) co()", "cannot resume non-suspended coroutine"),
    ])
    func luaErrors(code: String, message: String) throws {
        let host = try Self.stopped("on('swipe left', function(g)\n  \(code)\nend)", budget: 10_000_000)
        let said = host.messages.first ?? ""
        #expect(message.split(separator: "|").contains { said.contains($0) }, "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }
}

@Suite("Hostile rules: memory")
struct MemoryTests {
    static let limit = 8 << 20

    static func hog(_ code: String) throws -> RecordingHost {
        let (runtime, host) = try loadRules("on('swipe left', function(g)\n  \(code)\nend)\non('swipe right', function(g) emit('still here') end)",
                                            options: ScriptOptions(memoryLimit: limit, timeLimit: 60))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(runtime.memoryPeak <= limit)
        return host
    }

    @Test("a handler's memory stays under the limit whatever it allocates with", arguments: [
        "local t = {} while true do t[#t + 1] = {} end",
        "local s = 'x' while true do s = s .. s end",
        "local t = {} for i = 1, 1e7 do t[i] = utf8.char(i % 0x10FFFF) end",
        "load('return ' .. ('x'):rep(20000000))",
        "string.rep('x', 1e9)",
        "local t = {} for i = 1, 1e6 do t[i] = ('%d'):format(i) end table.concat(t):rep(100)",
        "local parts = {} while true do parts[#parts + 1] = coroutine.create(function() end) end",
    ])
    func hogs(code: String) throws {
        let host = try Self.hog(code)
        #expect(host.messages.first == "rules.lua:1: the handler for \"swipe left\" ran out of Lua memory (limit 8 MiB) and was stopped; raise the limit with --lua-memory MiB", "\(host.messages)")
        #expect(host.lines == [#"{"action":"still here","t":1.5}"#])
    }

    @Test("the gesture table pushed when memory is full is a handler failure, not an abort")
    func gestureNearTheCap() throws {
        // Filled one small table at a time, so not even a small allocation fits.
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g) emit("never") end)
        pcall(function() while true do keep = { keep } end end)
        """, options: ScriptOptions(memoryLimit: Self.limit))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.messages == ["rules.lua:1: the handler for \"swipe left\" ran out of Lua memory (limit 8 MiB) and was stopped; raise the limit with --lua-memory MiB"])
        #expect(host.lines.isEmpty)
    }

    @Test("a rules file too big for the memory limit is refused before it is read")
    func hugeFile() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/big.lua"
        try write(String(repeating: "-- comment\n", count: 900_000), to: path)
        let runtime = try #require(ScriptRuntime(host: RecordingHost(), options: ScriptOptions(memoryLimit: Self.limit)))
        #expect(throws: RuleLoadError(problems: ["\(path) is 9900000 bytes, more than the Lua memory limit (8388608 bytes) could ever hold; a rules file is a few kilobytes of Lua"])) {
            try runtime.load(path: path)
        }
    }

    @Test("rules whose code does not fit fail to load with the file's name")
    func codeTooBig() throws {
        let source = "local t = {" + String(repeating: "1,", count: 2_000_000) + "}"
        let runtime = try #require(ScriptRuntime(host: RecordingHost(), options: ScriptOptions(memoryLimit: Self.limit)))
        #expect(throws: RuleLoadError(problems: ["rules.lua: the rules ran out of Lua memory while loading (limit 8 MiB); raise it with --lua-memory MiB"])) {
            try runtime.load(source: source, chunkName: "@rules.lua")
        }
    }

    @Test("a state that does not fit next to the running rules is not carried over")
    func stateTooBig() throws {
        let (old, _) = try loadRules("state.big = {} for i = 1, 60000 do state.big[i] = { i } end", options: ScriptOptions(memoryLimit: Self.limit))
        let host = RecordingHost()
        let fresh = try #require(ScriptRuntime(host: host, options: ScriptOptions(memoryLimit: Self.limit), sharingLimitsOf: old))
        let error = #expect(throws: StateAdoptionError.noRoom(memoryLimit: Self.limit)) { try fresh.adoptState(from: old) }
        #expect(error?.description == "the state table does not fit in Lua's memory next to the running rules (limit 8 MiB for both)")
        // The old rules' state is untouched and still works.
        let again = try #require(ScriptRuntime(host: host))
        #expect(throws: Never.self) { try again.adoptState(from: old) }
        try again.load(source: "on('tap', function() emit('n', { n = #state.big }) end)", chunkName: "@new.lua")
        again.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(host.lines == [#"{"action":"n","t":1,"n":60000}"#])
    }

    @Test("rules and timers count against the memory limit, and have caps of their own")
    func hostStructures() throws {
        let problems = loadProblems("for i = 1, 1001 do on('tap', function() end, { mode = 'm' .. i }) end")
        #expect(problems == ["rules.lua:1: on(): this rules file has defined 1000 rules, the most one may (removed ones count); define rules once and turn them on and off with :enable() and :disable()"])
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g) for i = 1, 20000 do after(i, function() end) end end)
        on("swipe right", function(g) local s = ("d"):rep(4000) for i = 1, 1000 do on("tap", function() end, { description = s }) end end)
        """, options: ScriptOptions(memoryLimit: 4 << 20))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.messages.first?.hasPrefix("rules.lua:1: after(): 10000 timers are pending already, the most one rules file may have") == true, "\(host.messages)")
        #expect(runtime.nextTimerDeadline == 2.5)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.messages.last?.hasPrefix("rules.lua:2: on(): no Lua memory left for another rule (limit 4 MiB)") == true, "\(host.messages)")
        #expect(runtime.memoryPeak <= 4 << 20)
    }

    @Test("host functions that fail leave the memory limit in force")
    func limitAfterHostErrors() throws {
        let host = try Self.hog("""
        for i = 1, 1000 do pcall(emit, {}) pcall(emit, 'x', { f = print }) pcall(exec, 'x') pcall(key, 5) pcall(after, -1) end
          local t = {} while true do t[#t + 1] = ('x'):rep(100) .. #t end
        """)
        #expect(host.messages.first == "rules.lua:1: the handler for \"swipe left\" ran out of Lua memory (limit 8 MiB) and was stopped; raise the limit with --lua-memory MiB", "\(host.messages)")
    }
}

@Suite("Hostile rules: timers")
struct TimerLimitTests {
    @Test("after(0, f) that re-arms itself runs a bounded number of times per input instant")
    func rearming() throws {
        let (runtime, host) = try loadRules("""
        local n = 0
        local function again() n = n + 1; after(0, again) end
        on("swipe left", function(g) after(0, again) end)
        on("swipe right", function(g) emit("runs", { n = n }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        runtime.beginInstant(at: 1)
        runtime.fireTimers(upTo: 1)
        #expect(runtime.nextTimerDeadline == nil)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 1)))
        runtime.beginInstant(at: 2)
        #expect(runtime.nextTimerDeadline == 1)
        runtime.fireTimers(upTo: 2)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 2)))
        // At the next instant the timer held back runs, then 1000 more made there.
        #expect(host.lines == [#"{"action":"runs","t":1,"n":1000}"#, #"{"action":"runs","t":2,"n":2001}"#])
        #expect(host.messages == ["rules.lua:2: warning: timers made at one input instant ran 1000 times in it (the most is 1000; does a timer re-arm itself with after(0, ...)?); the timers still due wait for the next input"])
    }

    @Test("thousands of timers made earlier all run when a gap in the input brings them due at once")
    func burstAfterGap() throws {
        let (runtime, host) = try loadRules("""
        local n = 0
        on("swipe left", function(g) for i = 1, 9999 do after((i * 7919) % 9999 / 100, function() n = n + 1 end) end end)
        on("swipe right", function(g) emit("ran", { n = n }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        runtime.beginInstant(at: 200)
        runtime.fireTimers(upTo: 200)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 200)))
        #expect(host.lines == [#"{"action":"ran","t":200,"n":9999}"#])
        #expect(host.messages.isEmpty)
    }

    @Test("every() catches up at most 100 missed runs when the clock jumps, and never spins")
    func clockJumps() throws {
        let (runtime, host) = try loadRules("""
        local n = 0
        on("swipe left", function(g) every(1, function() n = n + 1 end) end)
        on("swipe right", function(g) emit("ticks", { n = n }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 0)))
        runtime.beginInstant(at: 3600)
        runtime.fireTimers(upTo: 3600)
        #expect(runtime.nextTimerDeadline == 3601)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 3600)))
        runtime.beginInstant(at: 1e300)
        runtime.fireTimers(upTo: 1e300)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 1e300)))
        #expect(runtime.nextTimerDeadline == nil)
        #expect(host.lines == [#"{"action":"ticks","t":3600,"n":100}"#, #"{"action":"ticks","t":1e+300,"n":200}"#])
        #expect(host.messages == [
            "rules.lua:2: warning: every(1) fell 3600 runs behind the input's clock (it jumped to 3600 s); it ran 100 of them and skips the other 3500",
            "rules.lua:2: warning: every(1) stopped: at input time 1e+300 s, adding 1 s no longer changes the time",
        ])
    }

    @Test("many timers fire in order, earliest first, ties in the order they were made")
    func heapOrder() throws {
        let (runtime, host) = try loadRules("""
        local order = {}
        on("swipe left", function(g)
          for i = 1, 5000 do after((i * 7919) % 5000 / 1000, function() order[#order + 1] = i end) end
          after(0.5, function() order[#order + 1] = -1 end)
        end)
        on("swipe right", function(g)
          local ok = #order == 5001
          local function due(i) return i == -1 and 0.5 or (i * 7919) % 5000 / 1000 end
          local function made(i) return i == -1 and 5001 or i end
          for k = 2, #order do
            local a, b = order[k - 1], order[k]
            if due(a) > due(b) or (due(a) == due(b) and made(a) > made(b)) then ok = false end
          end
          emit("ordered", { ok = ok, n = #order })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 0)))
        for t in stride(from: 0.0, through: 5.0, by: 0.25) {
            runtime.beginInstant(at: t)
            runtime.fireTimers(upTo: t)
        }
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right, at: 6)))
        #expect(host.lines == [#"{"action":"ordered","t":6,"n":5001,"ok":true}"#])
    }
}

@Suite("Hostile rules: what reaches the outside")
struct OutputTests {
    static func emitted(_ fields: String) throws -> RecordingHost {
        let (runtime, host) = try loadRules("on('swipe left', function(g)\n  \(fields)\nend)")
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        return host
    }

    @Test("emit of deeply nested tables is an error, however deep", arguments: [28, 30, 33, 200])
    func deep(depth: Int) throws {
        let host = try Self.emitted("local t = {} local c = t for i = 1, \(depth) do c.x = {} c = c.x end emit('deep', t)")
        let deeper = depth + 1 > LuaJSONLimits.depth
        #expect(host.lines.count == (deeper ? 0 : 1))
        if deeper {
            #expect(host.messages.first?.hasPrefix("rules.lua:2: emit(\"deep\", ...): field" + String(repeating: ".x", count: 32) + " is nested more than 32 tables deep") == true, "\(host.messages)")
        }
    }

    @Test("emit keys: float keys in decimal, NUL escaped, invalid UTF-8 as U+FFFD, as in values")
    func keys() throws {
        let host = try Self.emitted(#"emit("k", { [1e300] = 1, [2.5] = 2, ["a\0b"] = 3, ["c\255"] = 4, [-7] = 5 })"#)
        #expect(host.lines == ["{\"action\":\"k\",\"t\":1.5,\"-7\":5,\"1e+300\":1,\"2.5\":2,\"a\\u0000b\":3,\"c\u{FFFD}\":4}"])
    }

    @Test("emit keys at the edges of the integers, which the fuzzer found trapping (Fixtures/fuzz/emit), are written as text")
    func integerEdgeKeys() throws {
        let host = try Self.emitted(#"emit("k", { [2^63] = 6, [math.maxinteger] = 7, [math.mininteger] = 9 })"#)
        #expect(host.lines == [#"{"action":"k","t":1.5,"-9223372036854775808":9,"9.223372036854776e+18":6,"9223372036854775807":7}"#])
        #expect(host.messages.isEmpty, "\(host.messages)")
    }

    @Test("emit keys that would come out the same in JSON are an error", arguments: [
        (#"emit("d", { [1] = "a", ["1"] = "b", x = 1 })"#, #"rules.lua:2: emit("d", ...): the fields table has two keys that both become "1" in JSON (1 and "1"); keep one"#),
        (#"emit("d", { sub = { ["a\254"] = 1, ["a\255"] = 2 } })"#, #"rules.lua:2: emit("d", ...): field.sub has two keys that both become "a\#u{FFFD}" in JSON ("a\254" and "a\255"); keep one"#),
        (#"emit("d", { t = 1 })"#, #"rules.lua:2: emit("d", ...): the fields table has a field "t", which emit writes itself; rename yours"#),
        (#"emit("d", { 1, 2 })"#, #"rules.lua:2: emit("d", ...): the fields table is a list; fields must be names with values, such as { page = 2 }"#),
        (#"emit("d", { big = ("x"):rep(2000000) })"#, #"rules.lua:2: emit("d", ...): field.big makes the line longer than 1 MiB, the most one emit may write"#),
    ])
    func refused(code: String, message: String) throws {
        let host = try Self.emitted(code)
        #expect(host.lines.isEmpty)
        #expect(host.messages.first.map(firstLine) == message, "\(host.messages)")
    }

    @Test("exec and shell refuse what cannot reach a program unchanged", arguments: [
        (#"exec({ "echo", "a\0b" })"#, "rules.lua:2: exec(): argument 2 contains a NUL byte (\\0), which no program can receive"),
        (#"exec({ "echo", "a\255" })"#, "rules.lua:2: exec(): argument 2 is not valid UTF-8"),
        (#"shell("echo a\0; rm -rf /")"#, "rules.lua:2: shell(): the command line contains a NUL byte (\\0), which no program can receive"),
        (#"exec({ "env" }, { env = { ["A=B"] = "1" } })"#, "rules.lua:2: exec option \"env\": \"A=B\" is not a variable name: names are not empty and have no \"=\""),
        (#"exec({ "env" }, { env = { [""] = "1" } })"#, "rules.lua:2: exec option \"env\": \"\" is not a variable name: names are not empty and have no \"=\""),
        (#"exec({ "env" }, { env = { ["A\0B"] = "1" } })"#, "rules.lua:2: exec option \"env\": the environment variable name contains a NUL byte (\\0), which no program can receive"),
        (#"exec({ "env" }, { env = { A = "1\0" } })"#, "rules.lua:2: exec option \"env\": the value of A contains a NUL byte (\\0), which no program can receive"),
        (#"exec({ "echo", ("x"):rep(70000) })"#, "rules.lua:2: exec(): argument 2 is 70000 bytes long, more than the 65536 bytes one exec may pass"),
        (#"exec({ "echo", ("x"):rep(40000), ("y"):rep(40000) })"#, "rules.lua:2: exec(): the program's arguments come to more than 65536 bytes, the most one exec may pass"),
    ])
    func execRefused(code: String, message: String) throws {
        let (runtime, host) = try loadWithHost("on('tap', function(g)\n  \(code)\nend)")
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(host.execs.isEmpty)
        #expect(host.messages.first.map(firstLine) == message, "\(host.messages)")
    }

    @Test("megabyte strings where the host expects a name are refused without being copied", arguments: [
        ("mode(big)", "rules.lua:3: mode(): a mode's name is at most 1024 bytes, not 4000000"),
        ("on(big, function() end)", "rules.lua:3: a gesture phrase is at most 256 bytes, such as \"two-finger swipe left\"; this one is 4000000"),
        ("on('tap', function() end, { name = big })", "rules.lua:3: option \"name\" is 4000000 bytes long; the most is 1024"),
        ("on('tap', function() end, { [big] = 1 })", "rules.lua:3: unknown option \"\(String(repeating: "x", count: 64))... (3999936 more bytes)\"; known options: name, description, mode, cooldown, device, repeat, simultaneous_with, requires_failure_of, exclusive, app, modifiers, claim"),
        ("config{ [big] = 1 }", "rules.lua:3: unknown threshold \"\(String(repeating: "x", count: 64))... (3999936 more bytes)\""),
        ("emit('k', { [big] = 1, [big .. 'y'] = 2 })", "rules.lua:3: emit(\"k\", ...): the fields table makes the line longer than 1 MiB, the most one emit may write"),
        ("key(big)", "rules.lua:3: key() takes a key or combination, as in key(\"ctrl+alt+Right\") or key(\"PageDown\")"),
    ])
    func hugeNames(code: String, message: String) throws {
        let (runtime, host) = try loadRules("local big = ('x'):rep(4000000)\non('swipe left', function(g)\n  \(code)\nend)")
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.messages.first.map(firstLine) == message, "\(host.messages.first?.prefix(300) ?? "")")
    }

    @Test("long log lines and error messages are cut, with how much was left out")
    func longMessages() throws {
        let host = try Self.emitted("log(('x'):rep(100000)) error(('y'):rep(100000))")
        #expect(host.messages.count == 2)
        #expect(host.messages.allSatisfy { $0.utf8.count < 8300 })
        #expect(host.messages.first?.hasSuffix("... (91808 more bytes)") == true, "\(host.messages.first?.suffix(40) ?? "")")
    }
}

func temporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-confinement-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The deepest emit writes, as the docs state it.
enum LuaJSONLimits {
    static let depth = 32
}

func firstLine(_ text: String) -> String {
    String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
}
