import GestureCore
import GestureScript
import Testing

/// A host that records exec and key requests too.
final class ActionHost: ScriptHost {
    var lines: [String] = []
    var messages: [String] = []
    var execs: [ExecRequest] = []
    var keys: [String] = []
    /// Why every exec() fails, when they should.
    var execFailure: HostRefusal?

    func emit(line: String) { lines.append(line) }
    func log(_ message: String) { messages.append(message) }
    func exec(_ request: ExecRequest) throws(HostActionError) {
        execs.append(request)
        if let execFailure { throw .failed(execFailure) }
    }
    func key(_ combo: String, origin: String) throws(HostActionError) {
        if combo == "nosuchkey" { throw .failed(HostRefusal(description: "unknown key \"nosuchkey\"")) }
        keys.append(combo)
    }
}

/// A host's own error, as the actions module's are to the rules.
struct HostRefusal: Error, CustomStringConvertible, Sendable {
    var description: String
}

func loadWithHost(_ source: String, host: ActionHost = ActionHost()) throws -> (ScriptRuntime, ActionHost) {
    guard let runtime = ScriptRuntime(host: host) else { throw RuleLoadError(problems: ["no Lua state"]) }
    try runtime.load(source: source, chunkName: "@rules.lua")
    return (runtime, host)
}

func tap(at t: Double, fingers: Int = 1, taps: Int = 1, device: Int = 0) -> GestureEvent {
    GestureEvent(kind: .tap, phase: .ended, fingers: fingers, time: t, taps: taps, device: device)
}

@Suite("The rule API")
struct RuleAPITests {
    @Test("after() runs on the input's clock; every() repeats; :cancel() stops")
    func timers() throws {
        let (runtime, host) = try loadWithHost("""
        local ticker
        on("tap", function(g)
          after(1.5, function() emit("later") end)
          ticker = every(0.5, function() emit("tick") end)
        end)
        on("double tap", function(g) ticker:cancel() end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 10)))
        #expect(runtime.nextTimerDeadline == 10.5)
        runtime.fireTimers(upTo: 11.2)
        #expect(host.lines == [#"{"action":"tick","t":10.5}"#, #"{"action":"tick","t":11}"#])
        runtime.fireTimers(upTo: 11.6)
        // Due together: the one scheduled first (at 10, for 11.5) runs first.
        #expect(host.lines.suffix(2) == [#"{"action":"later","t":11.5}"#, #"{"action":"tick","t":11.5}"#])
        runtime.dispatch(Delivery(rule: 1, event: tap(at: 11.7, taps: 2)))
        runtime.fireTimers(upTo: 20)
        #expect(host.lines.count == 4)
        #expect(runtime.nextTimerDeadline == nil)
    }

    @Test("timers made while loading count from the first input time")
    func timersAtLoad() throws {
        let (runtime, host) = try loadWithHost("after(2, function() emit(\"warm\") end)")
        #expect(runtime.nextTimerDeadline == nil)
        runtime.advanceClock(to: 500)
        #expect(runtime.nextTimerDeadline == 502)
        runtime.fireTimers(upTo: 502)
        #expect(host.lines == [#"{"action":"warm","t":502}"#])
    }

    @Test("at the end of input pending after() timers run in order; every() timers stop")
    func finishTimers() throws {
        let (runtime, host) = try loadWithHost("""
        on("tap", function(g)
          every(1, function() emit("tick") end)
          after(5, function() emit("b") end)
          after(3, function() emit("a") end)
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        runtime.finishTimers()
        #expect(host.lines == [#"{"action":"a","t":4}"#, #"{"action":"b","t":6}"#])
    }

    @Test("mode(): rules with mode= are live only in their mode, rules without in every mode")
    func modes() throws {
        let (runtime, _) = try loadWithHost("""
        on("tap", function(g) mode("admin") end)
        on("double tap", function(g) mode("default") end, { mode = "admin" })
        on("2-finger tap", function(g) emit(mode()) end)
        """)
        #expect(runtime.coreRules.map(\.isActive) == [true, false, true])
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(runtime.mode == "admin")
        #expect(runtime.coreRules.map(\.isActive) == [true, true, true])
        runtime.dispatch(Delivery(rule: 1, event: tap(at: 2, taps: 2)))
        #expect(runtime.coreRules.map(\.isActive) == [true, false, true])
    }

    @Test("cooldown: a rule rests for its cooldown on the input's clock")
    func cooldown() throws {
        let (runtime, host) = try loadWithHost("on(\"tap\", function(g) emit(\"tap\") end, { cooldown = 1 })")
        for t in [1.0, 1.5, 2.1, 2.5, 3.2] { runtime.dispatch(Delivery(rule: 0, event: tap(at: t))) }
        #expect(host.lines == [#"{"action":"tap","t":1}"#, #"{"action":"tap","t":2.1}"#, #"{"action":"tap","t":3.2}"#])
    }

    @Test("device: a rule matches only devices whose name matches its pattern")
    func devicePattern() throws {
        let (runtime, _) = try loadWithHost("""
        on("tap", function(g) end, { device = "Touchscreen" })
        on("tap", function(g) end, { device = "^Wacom" })
        on("2-finger tap", function(g) end)
        """)
        #expect(runtime.coreRules(forDevice: "ELAN Touchscreen").map(\.isActive) == [true, false, true])
        #expect(runtime.coreRules(forDevice: "Wacom ISDv4 E6 Finger").map(\.isActive) == [false, true, true])
        #expect(runtime.coreRules(forDevice: nil).map(\.isActive) == [false, false, true])
    }

    @Test("repeat: a plain pan handler runs at the start, then once per step of travel, either way")
    func repeatSteps() throws {
        let (runtime, host) = try loadWithHost(#"on("pan", function(g) emit(g.phase, { step = g.step }) end, { ["repeat"] = 15 })"#)
        var e = GestureEvent(kind: .pan, phase: .began, fingers: 1, direction: .right, time: 1, delta: Vector(5, 0))
        runtime.dispatch(Delivery(rule: 0, event: e))
        // Right to 47 mm (steps at 15, 30, 45), then back to 10 (steps back at 30 and 15).
        for (i, x) in [10.0, 16, 20, 31, 47, 40, 29, 10].enumerated() {
            e.phase = .changed
            e.time = 1.1 + Double(i) / 10
            e.delta = Vector(x, 2)
            runtime.dispatch(Delivery(rule: 0, event: e))
        }
        #expect(host.lines == [
            #"{"action":"began","t":1}"#,
            #"{"action":"changed","t":1.2,"step":1}"#, #"{"action":"changed","t":1.4,"step":1}"#,
            #"{"action":"changed","t":1.5,"step":1}"#, #"{"action":"changed","t":1.7,"step":-1}"#,
            #"{"action":"changed","t":1.8,"step":-1}"#,
        ])
    }

    @Test("exec and shell reach the host with the argv untouched and the gesture attached")
    func execRequests() throws {
        let (runtime, host) = try loadWithHost("""
        on("tap", function(g)
          exec({ "printf", "%s", "a b; $HOME" }, { timeout = 2, env = { PAGE = "3" }, cwd = "/tmp" })
          shell("echo hi | wc -c")
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1, fingers: 2)))
        #expect(host.execs.map(\.argv) == [["printf", "%s", "a b; $HOME"], ["/bin/sh", "-c", "echo hi | wc -c"]])
        #expect(host.execs.first?.timeout == 2)
        #expect(host.execs.first?.environment == ["PAGE": "3"])
        #expect(host.execs.first?.directory == "/tmp")
        #expect(host.execs.first?.gesture?.fingers == 2)
        #expect(host.execs.first?.origin == "rules.lua:2")
    }

    @Test("a program that cannot run is reported by name and the handler goes on")
    func execFailure() throws {
        let host = ActionHost()
        host.execFailure = HostRefusal(description: "cannot run \"nosuchprogram\": no such program on PATH")
        let (runtime, _) = try loadWithHost("""
        on("tap", function(g)
          local ok, err = exec({ "nosuchprogram" })
          emit("after", { ok = ok, err = err })
        end)
        """, host: host)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(host.messages == ["rules.lua:2: cannot run \"nosuchprogram\": no such program on PATH"])
        #expect(host.lines == [#"{"action":"after","t":1,"err":"cannot run \"nosuchprogram\": no such program on PATH","ok":false}"#])
    }

    @Test("exec with a string is an error that points at shell()")
    func execString() throws {
        let (runtime, host) = try loadWithHost("on(\"tap\", function(g) exec(\"ls -l\") end)")
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(host.messages.first?.hasPrefix("rules.lua:1: exec() takes a list of program and arguments, as in exec{\"xdotool\", \"key\", \"Next\"}; exec never uses a shell: give exec{\"program\", \"arg\"} or use shell(\"...\")") == true)
    }

    @Test("key() reaches the host; an unknown key is an error at the handler's line")
    func keys() throws {
        let (runtime, host) = try loadWithHost("""
        on("tap", function(g) key("ctrl+alt+Right") end)
        on("double tap", function(g)
          key("nosuchkey")
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        runtime.dispatch(Delivery(rule: 1, event: tap(at: 2, taps: 2)))
        #expect(host.keys == ["ctrl+alt+Right"])
        #expect(host.messages.first?.hasPrefix("rules.lua:3: unknown key \"nosuchkey\"") == true)
    }

    @Test("unknown and mistyped options are load errors naming the line")
    func optionErrors() {
        #expect(loadProblems("""
        on("tap", function() end, { modes = "x" })
        on("tap", function() end, { cooldown = -1 })
        on("swipe left", function() end, { ["repeat"] = 10 })
        on("pan", function() end, { device = "[" })
        on("pan", function() end, { requires_failure_of = "nobody" })
        """) == [
            "rules.lua:1: unknown option \"modes\"; known options: name, description, mode, cooldown, device, repeat, simultaneous_with, requires_failure_of, exclusive, app, modifiers, claim",
            "rules.lua:2: option \"cooldown\" must be a number of seconds, 0 or more",
            "rules.lua:3: option \"repeat\" belongs to pans and long presses, which travel, not \"swipe left\"",
            "rules.lua:4: option \"device\" is not a valid Lua pattern: \"[\" (malformed pattern (missing ']'))",
            "rules.lua:5: requires_failure_of names \"nobody\", but no rule has that name; no rule has a name; give one with { name = \"...\" }",
        ])
    }

    @Test("two rules for the same gesture in one mode: a warning that the first never runs")
    func shadowed() throws {
        let (runtime, _) = try loadWithHost("""
        on("tap", function() end)
        on("tap", function() end, { mode = "admin" })
        on("tap", function() end)
        """)
        #expect(runtime.warnings == ["rules.lua:1: warning: this rule for \"tap\" never runs: the rule at rules.lua:3 is for the same gesture and, defined later, wins; remove one or give them different modes"])
    }

    @Test("state carries over to another runtime; functions in it do not")
    func stateTransfer() throws {
        let (old, _) = try loadWithHost("state.page = 7; state.history = { 1, 2, { deep = true } }; state.f = print")
        let host = ActionHost()
        let fresh = try #require(ScriptRuntime(host: host))
        try fresh.adoptState(from: old)
        try fresh.load(source: "on(\"tap\", function() emit(\"s\", { page = state.page, deep = state.history[3].deep, f = type(state.f) }) end)", chunkName: "@new.lua")
        fresh.dispatch(Delivery(rule: 0, event: tap(at: 1)))
        #expect(host.lines == [#"{"action":"s","t":1,"deep":true,"f":"nil","page":7}"#])
        #expect(host.messages == ["gesturemap: 1 functions or other values in state could not be carried over the reload"])
    }
}
