import GestureCore
import GestureScript
import Testing

@Suite("Rules in Lua")
struct ScriptRuntimeTests {
    @Test("on() with phrases and tables registers rules the core can match")
    func registersRules() throws {
        let (runtime, _) = try loadRules("""
        on("two-finger swipe left", function(g) end)
        on({ kind = "swipe", fingers = 3, direction = "up" }, function(g) end)
        on("swipe down-right", function(g) end)
        """)
        let specs = runtime.coreRules.map(\.spec)
        #expect(specs == [
            GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .left),
            GestureSpec(kind: .swipe, fingers: .exactly(3), direction: .up),
            GestureSpec(kind: .swipe, fingers: .exactly(1), direction: .downRight),
        ])
    }

    @Test("a handler gets the gesture table and emit writes the contract's line")
    func emitLine() throws {
        let (runtime, host) = try loadRules("""
        local page = 1
        on("swipe left", function(g)
          page = page + 1
          emit("next_page", { page = page, kind = g.kind, fingers = g.fingers, direction = g.direction, phase = g.phase })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1.234)))
        #expect(host.lines == [#"{"action":"next_page","t":1.234,"direction":"left","fingers":1,"kind":"swipe","page":2,"phase":"ended"}"#])
    }

    @Test("the gesture table carries every documented field")
    func gestureFields() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local names = {}
          for k in pairs(g) do names[#names + 1] = k end
          table.sort(names)
          emit("fields", { names = table.concat(names, ","), dx = g.dx, distance = math.floor(g.distance), t = nil })
        end)
        """)
        var event = swipe(.left)
        event.normalized = Vector(0.5, 0.25)
        runtime.deviceNames = ["Panel"]
        runtime.dispatch(Delivery(rule: 0, event: event))
        #expect(host.lines == [#"{"action":"fields","t":1.5,"distance":30,"dx":-30,"names":"device,direction,distance,duration,dx,dy,fingers,kind,modifiers,nx,ny,phase,resting,rotation,scale,t,taps,velocity,x,y"}"#])
    }

    @Test("emit: nested tables become JSON, keys sorted, strings escaped")
    func emitNested() throws {
        let (runtime, host) = try loadRules(#"""
        on("swipe left", function(g)
          emit("nested", { list = { 1, 2.5, "three" }, obj = { b = true, a = false }, text = "tab\there \"quoted\" \1", empty = {} })
        end)
        """#)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 2)))
        #expect(host.lines == [#"{"action":"nested","t":2,"empty":{},"list":[1,2.5,"three"],"obj":{"a":false,"b":true},"text":"tab\there \"quoted\" \u0001"}"#])
    }

    @Test("emit: invalid UTF-8 becomes U+FFFD")
    func emitInvalidUTF8() throws {
        let (runtime, host) = try loadRules(#"on("swipe left", function(g) emit("bytes", { s = "a\255b" }) end)"#)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 2)))
        #expect(host.lines == ["{\"action\":\"bytes\",\"t\":2,\"s\":\"a\u{FFFD}b\"}"])
    }

    @Test("emit: a function field is an error at the handler's line, and the engine goes on")
    func emitFunctionField() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          emit("bad", { f = print })
        end)
        on("swipe right", function(g) emit("good") end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.lines == [#"{"action":"good","t":1.5}"#])
        #expect(host.messages.first?.hasPrefix("rules.lua:2: emit(\"bad\", ...): field.f is a function; only strings, numbers, booleans and tables become JSON") == true)
    }

    @Test("error() in a handler is logged with file:line and a traceback; other rules still run")
    func handlerError() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          error("boom")
        end)
        on("swipe right", function(g) emit("right") end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        let message = try #require(host.messages.first)
        #expect(message.hasPrefix("rules.lua:2: boom\nstack traceback:"))
        #expect(host.lines == [#"{"action":"right","t":1.5}"#])
    }

    @Test("a rule that fails ten times in a row is disabled with a warning")
    func disabledAfterFailures() throws {
        let (runtime, host) = try loadRules("on(\"swipe left\", function(g) error(\"boom\") end)")
        for _ in 0..<10 { runtime.dispatch(Delivery(rule: 0, event: swipe(.left))) }
        #expect(host.messages.last == "rules.lua:1: warning: the rule \"swipe left\" failed 10 times in a row and is now disabled; fix it and reload")
        #expect(runtime.coreRules.first?.isActive == false)
        let before = host.messages.count
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.messages.count == before)
    }

    @Test("the sandbox: no io, os.execute, dofile, loadfile, package or debug")
    func sandbox() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          emit("sandbox", {
            io = type(io), os_execute = type(os.execute), dofile = type(dofile), loadfile = type(loadfile),
            package = type(package), debug = type(debug), require_loadlib = type(package and package.loadlib),
            os_time = type(os.time), os_getenv = type(os.getenv), string = type(string), utf8 = type(utf8),
            coroutine = type(coroutine), load = type(load),
          })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        #expect(host.lines == [#"{"action":"sandbox","t":1,"coroutine":"table","debug":"nil","dofile":"nil","io":"nil","load":"function","loadfile":"nil","os_execute":"nil","os_getenv":"function","os_time":"function","package":"nil","require_loadlib":"nil","string":"table","utf8":"table"}"#])
    }

    @Test("load() accepts text but refuses precompiled chunks")
    func textOnlyLoad() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local f = load("return 40 + 2")
          local bytecode = string.dump(function() return 1 end)
          local g2, err = load(bytecode)
          emit("load", { text = f(), binary = g2 == nil, err = err })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        #expect(host.lines == [#"{"action":"load","t":1,"binary":true,"err":"attempt to load a binary chunk (mode is 't')","text":42}"#])
    }

    @Test("log and print write to stderr with the rule file's position")
    func logging() throws {
        let (runtime, host) = try loadRules("""
        log("loaded", 3, true)
        on("swipe left", function(g)
          print("page", 2)
          log.warn("careful")
          log.error("bad")
          log.info("fyi")
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.messages == [
            "rules.lua:1: loaded 3 true",
            "rules.lua:3: page 2",
            "rules.lua:4: warning: careful",
            "rules.lua:5: error: bad",
            "rules.lua:6: fyi",
        ])
    }

    @Test("load errors give file:line and every problem at once")
    func loadErrors() {
        #expect(loadProblems("""
        on("swipe left", function() end)
        on("two-finger sideways", function() end)
        on({ kind = "swipe", finger = 2 }, function() end)
        on({ kind = "wave" }, function() end)
        on("tap", 42)
        config{ swipe_min_distance = 500, swipe_speed = 3 }
        """) == [
            "rules.lua:2: cannot read gesture phrase \"two-finger sideways\": unknown word \"sideways\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"",
            "rules.lua:3: unknown key \"finger\" in gesture table; known keys: kind, fingers, direction, taps, edge, resting, name, min_score, button, where, press, wheel",
            "rules.lua:4: unknown kind \"wave\"; use one of swipe, tap, long_press, pan, pinch, rotate, edge_swipe, shape, stroke, chord, click",
            "rules.lua:5: on(\"tap\", ...) needs a handler function or a table of phase handlers { began = f, changed = f, ended = f, cancelled = f }, not a number",
            "rules.lua:6: config key \"swipe_min_distance\" must be between 1 and 200 mm, not 500",
            "rules.lua:6: unknown config key \"swipe_speed\"; known keys: \(Threshold.allCases.map(\.rawValue).joined(separator: ", "))",
        ])
    }

    @Test("a syntax error names its line")
    func syntaxError() {
        #expect(loadProblems("on(\"swipe left\", function()\n  emit(\"x\"\nend)\n") == ["rules.lua:3: ')' expected (to close '(' at line 2) near 'end'"])
    }

    @Test("a runtime error while loading names its line")
    func loadRuntimeError() {
        #expect(loadProblems("local x = nil\nx.y = 1\n") == ["rules.lua:2: attempt to index a nil value (local 'x')"])
    }

    @Test("config sets thresholds by name")
    func config() throws {
        let (runtime, _) = try loadRules("config{ swipe_min_distance = 14, finger_settle = 0.1 }")
        #expect(runtime.thresholds[.swipeMinDistance] == 14)
        #expect(runtime.thresholds[.fingerSettle] == 0.1)
    }

    @Test("binding:disable(), :enable() and :remove() change what the core matches")
    func bindings() throws {
        let (runtime, host) = try loadRules("""
        local left = on("swipe left", function(g) emit("left") end)
        on("swipe right", function(g)
          if left_enabled then left:enable() else left:disable() end
          left_enabled = not left_enabled
        end)
        on("swipe up", function(g) left:remove() end)
        """)
        #expect(runtime.coreRules[0].isActive)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(!runtime.coreRules[0].isActive)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        #expect(host.lines.isEmpty)
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(runtime.coreRules[0].isActive)
        runtime.dispatch(Delivery(rule: 2, event: swipe(.up)))
        #expect(!runtime.coreRules[0].isActive)
    }

    @Test("a runaway handler is stopped at its line and later rules still run")
    func instructionLimit() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          while true do end
        end)
        on("swipe right", function(g) emit("right") end)
        """, options: ScriptOptions(instructionBudget: 1_000_000))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.messages.first?.hasPrefix("rules.lua:2: instruction limit exceeded") == true)
        #expect(host.lines == [#"{"action":"right","t":1.5}"#])
    }

    @Test("a handler that exhausts Lua's memory is stopped and later rules still run")
    func memoryLimit() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local t = {}
          local s = "x"
          while true do s = s .. s; t[#t + 1] = s end
        end)
        on("swipe right", function(g) emit("right") end)
        """, options: ScriptOptions(memoryLimit: 8 << 20))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left)))
        runtime.dispatch(Delivery(rule: 1, event: swipe(.right)))
        #expect(host.messages.first == "rules.lua:1: the handler for \"swipe left\" ran out of Lua memory (limit 8 MiB) and was stopped; raise the limit with --lua-memory MiB")
        #expect(host.lines == [#"{"action":"right","t":1.5}"#])
    }

    @Test("the default rules turn one- and two-finger swipes into page turns")
    func defaultRules() throws {
        let host = RecordingHost()
        let runtime = try #require(ScriptRuntime(host: host))
        try runtime.loadDefaultRules()
        #expect(runtime.coreRules.count == 4)
        for (i, rule) in runtime.coreRules.enumerated() {
            runtime.dispatch(Delivery(rule: RuleID(i), event: swipe(rule.spec.direction ?? .left, fingers: rule.spec.fingers == .exactly(2) ? 2 : 1, at: 1)))
        }
        #expect(host.lines == [
            #"{"action":"next_page","t":1,"fingers":1}"#, #"{"action":"next_page","t":1,"fingers":2}"#,
            #"{"action":"prev_page","t":1,"fingers":1}"#, #"{"action":"prev_page","t":1,"fingers":2}"#,
        ])
    }
}
