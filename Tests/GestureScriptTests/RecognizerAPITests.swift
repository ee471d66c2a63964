import Foundation
import GestureCore
import Testing
@testable import GestureScript

@Suite("recognizer(): loading, limits and misuse")
struct RecognizerAPITests {
    static let liftEnds = """
    recognizer("lifter", { frame = function(r, f) if f.touches[1].phase == "ended" then r:ended() end end })
    """

    static func tap(at t: Double = 1, device: Int = 0) -> [TouchFrame] {
        Strokes.frames([Strokes.tap(at: Vector(100, 60), t)]).map { var f = $0; f.device = device; return f }
    }

    @Test("load problems name the line and say what to write instead", arguments: [
        ("recognizer(\"Zig Zag\", { frame = function() end })",
         "rules.lua:1: recognizer \"Zig Zag\": a name is a lowercase word of letters, digits, - and _, starting with a letter, such as \"zigzag\" or \"tap-tap-hold\""),
        ("recognizer(\"tap\", { frame = function() end })", "rules.lua:1: recognizer \"tap\": \"tap\" is a built-in kind; choose another name"),
        ("recognizer(\"left\", { frame = function() end })", "rules.lua:1: recognizer \"left\": \"left\" already reads as a gesture phrase; choose another name"),
        ("recognizer(\"z\", { frame = function() end })\nrecognizer(\"z\", { frame = function() end })",
         "rules.lua:2: recognizer \"z\" is already defined at rules.lua:1; give this one another name"),
        ("recognizer(\"z\", { timeout = function() end })", "rules.lua:1: recognizer \"z\" needs a frame function: { frame = function(r, f) ... end }"),
        ("recognizer(\"z\", { frame = function() end, fram = 1 })", "rules.lua:1: unknown key \"fram\" in recognizer \"z\"; known keys: frame, timeout, reset, description"),
        ("recognizer(\"z\", { frame = 3 })", "rules.lua:1: recognizer \"z\": \"frame\" must be a function, not a number"),
        ("recognizer(\"z\")", "rules.lua:1: recognizer(\"z\", ...) needs a table of functions, as in { frame = function(r, f) ... end }, not a nil"),
        ("on({ kind = \"zz\" }, function() end)", "rules.lua:1: unknown kind \"zz\"; use one of swipe, tap, long_press, pan, pinch, rotate, edge_swipe, shape, stroke, chord, click"),
        ("recognizer(\"z\", { frame = function() end })\non({ kind = \"zz\" }, function() end)",
         "rules.lua:2: unknown kind \"zz\"; use one of swipe, tap, long_press, pan, pinch, rotate, edge_swipe, shape, stroke, chord, click, z (recognizers the rules define above)"),
        ("on({ kind = \"swipe\", name = \"next\" }, function() end)",
         "rules.lua:1: \"name\" in the gesture table names a shape; a rule's own name goes in on()'s options: on(spec, handler, { name = \"...\" })"),
        ("on({ kind = \"tap\", min_score = 0.5 }, function() end)", "rules.lua:1: \"min_score\" belongs to kind \"shape\", not \"tap\""),
        ("on({ kind = \"shape\", min_score = 2 }, function() end)", "rules.lua:1: \"min_score\" must be a number from 0 to 1, such as 0.85"),
        ("on(\"shape cirle\", function() end)",
         "rules.lua:1: unknown shape \"cirle\"; known shapes: arrow, caret, check, circle, delete_mark, left_curly_brace, left_sq_bracket, pigtail, question_mark, rectangle, right_curly_brace, right_sq_bracket, star, triangle, v, x (teach one with gesturemap shape add cirle RECORDING)"),
    ])
    func loadProblems(_ source: String, _ message: String) {
        #expect(GestureScriptTests.loadProblems(source) == [message])
    }

    @Test("a recognizer's name is its phrase, and a table with its kind is the same rule")
    func phrase() throws {
        let (runtime, _) = try loadRules(Self.liftEnds + "\non(\"lifter\", function(g) end)\non({ kind = \"lifter\", fingers = 2 }, function(g) end)")
        #expect(runtime.coreRules.map(\.spec.phrase) == ["lifter", "2-finger lifter"])
        #expect(runtime.coreRules.map(\.spec.kind) == [.custom, .custom])
    }

    @Test("an error in a recognizer is logged at its line and disables it; the other rules go on, and it is not called again")
    func errorDisables() throws {
        let s = try UserGestureScenario("""
        calls = 0
        recognizer("broken", { frame = function(r, f)
          calls = calls + 1
          local x = nil
          return x.y
        end })
        on("broken", function(g) emit("broken") end)
        on("tap", function(g) emit("tap", { calls = calls }) end)
        """)
        #expect(s.run(Self.tap(at: 1) + Self.tap(at: 2)) == ["tap", "tap"])
        #expect(s.emitted.map { $0["calls"] as? Int } == [1, 1])
        #expect(s.host.messages.first?.hasPrefix("rules.lua:5: attempt to index a nil value (local 'x')") == true, "\(s.host.messages)")
        #expect(s.host.messages.last == "rules.lua:2: warning: the recognizer \"broken\" is disabled after that error; the rest of the rules go on; fix it and reload")
    }

    @Test("a recognizer that loops is stopped by the instruction budget at its line, and disabled")
    func budget() throws {
        let s = try UserGestureScenario("""
        recognizer("spin", { frame = function(r, f)
          while true do end
        end })
        on("spin", function(g) emit("spin") end)
        on("tap", function(g) emit("tap") end)
        """)
        #expect(s.run(Self.tap()) == ["tap"])
        #expect(s.host.messages.first?.hasPrefix("rules.lua:2: instruction limit exceeded") == true, "\(s.host.messages)")
    }

    @Test("a timeout that always re-arms its deadline ends: at the end of the input, and when a later frame comes", arguments: ["1", "0.000001"])
    func endlessDeadlines(_ step: String) throws {
        // t + 1 for ever: the end of the input used to follow it for ever.
        // t + 1 µs: a frame 2 s later used to follow two million deadlines.
        let s = try UserGestureScenario("""
        local armed = false
        recognizer("waiter", {
          frame = function(r, f) if not armed then armed = true; r:deadline(f.t + 0.01) end end,
          timeout = function(r, t) r:deadline(t + \(step)) end,
        })
        on("waiter", function(g) emit("waiter") end)
        on("long press", function(g) emit("held") end)
        """, tracing: true)
        let started = Date()
        let actions = s.run(Self.tap(at: 1) + Self.tap(at: 3))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(actions.isEmpty, "\(s.host.messages)")
        let failed = s.arena.traceRecords.map(\.text).filter { $0.contains("bug: waiter: ") && $0.hasSuffix("failing it") }
        #expect(failed.count == 1, "\(s.arena.traceRecords.map(\.text).suffix(6))")
    }

    @Test("a chain passed one deadline per call, as the engine's loop passes it, is capped all the same")
    func chainAcrossCalls() throws {
        let s = try UserGestureScenario("""
        recognizer("chain", {
          frame = function(r, f) r:deadline(f.t + 0.000001) end,
          timeout = function(r, t) r:deadline(t + 0.000001) end,
        })
        on("chain", function(g) emit("chain") end)
        """, tracing: true)
        var out: [Delivery] = []
        let frames = Self.tap(at: 1)
        s.handle(frames[0], into: &out)
        // 100 s of quiet would be 100 million deadlines; the cap ends the chain at 1000.
        let calls = s.advanceOneDeadlineAtATime(to: 101, into: &out, atMost: 5000)
        #expect(calls == GestureArena.maxDeadlineChain)
        #expect(s.arena.nextDeadline == nil)
        let failed = s.arena.traceRecords.map(\.text).filter { $0.contains("chain: its timeout set 1000 deadlines in a row") }
        #expect(failed.count == 1, "\(s.arena.traceRecords.map(\.text).suffix(4))")
        // A frame of input starts a new chain, capped again.
        s.arena.traceRecords.removeAll()
        for frame in Self.tap(at: 200) { s.handle(frame, into: &out) }
        #expect(s.advanceOneDeadlineAtATime(to: 300, into: &out, atMost: 5000) <= GestureArena.maxDeadlineChain)
        #expect(s.arena.nextDeadline == nil)
    }

    @Test("out-of-order calls are errors that say what to call instead", arguments: [
        ("r:changed()", "rules.lua:1: changed(): the recognizer has not begun; call began() first, or ended() for a gesture recognized at once"),
        ("r:began(); r:began()", "rules.lua:1: began(): the recognizer has already begun; call changed() or ended()"),
        ("r:ended(); r:fail()", "rules.lua:1: fail(): the recognizer has already ended; it is done until its reset, when the touch sequence is over"),
        ("r:deadline(f.t)", "rules.lua:1: deadline(t) takes an input time later than now (1 s), such as f.t + 0.3, or nil to clear it"),
        ("r:ended({ kind = 'x' })", "rules.lua:1: ended(): g.kind is set by gesturemap; name the field otherwise"),
        ("r:ended({ list = {} })", "rules.lua:1: ended(): field list is a table; fields are numbers, strings or booleans"),
        ("r:ended(3)", "rules.lua:1: ended() takes a table of fields for the handlers' g, such as { count = 3 }, not a number"),
        ("r.ended({})", "rules.lua:1: ended() belongs to the recognizer being run, called on its own object, as in r:ended()"),
    ])
    func misuse(_ body: String, _ message: String) throws {
        let s = try UserGestureScenario("recognizer(\"m\", { frame = function(r, f) \(body) end })\non(\"m\", function(g) end)")
        s.run(Self.tap())
        #expect(s.host.messages.first.map { String($0.prefix { $0 != "\n" }) } == message, "\(s.host.messages)")
    }

    @Test("recognizer() and r's methods outside their place are errors")
    func outOfPlace() throws {
        let s = try UserGestureScenario("""
        local kept
        recognizer("keeper", { frame = function(r, f) kept = r end })
        on("keeper", function(g) end)
        on("tap", function(g)
          local ok, err = pcall(function() kept:ended() end)
          emit("method", { err = err })
          ok, err = pcall(recognizer, "late", { frame = function() end })
          emit("define", { err = err })
        end)
        """)
        s.run(Self.tap())
        #expect(s.emitted.map { $0["err"] as? String } == [
            "rules.lua:5: ended() belongs to a recognizer, called from its frame or timeout function, as in r:ended()",
            "rules.lua:7: recognizer() defines a kind while the rules load, not from a handler or a timer",
        ])
    }

    @Test("the frame table and its touch tables are the same from frame to frame; each device has its own r")
    func reuse() throws {
        let s = try UserGestureScenario("""
        local seen, last, lastTouch, same = {}, nil, nil, true
        recognizer("watch", {
          frame = function(r, f)
            if last then same = same and last == f and lastTouch == f.touches[1] end
            last, lastTouch = f, f.touches[1]
            r.frames = (r.frames or 0) + 1
            if f.touches[1].phase == "ended" then r:ended({ frames = r.frames, same = same, fingers_down = f.fingers, width = f.width }) end
          end,
          reset = function(r) r.frames = nil end,
        })
        on("watch", function(g) emit("watch", { frames = g.frames, same = g.same, down = g.fingers_down, width = g.width, device = g.device }) end)
        """)
        s.run(Self.tap(at: 1, device: 0) + Self.tap(at: 2, device: 1))
        #expect(s.emitted.count == 2)
        #expect(s.emitted.allSatisfy { $0["same"] as? Bool == true })
        #expect(s.emitted.map { $0["frames"] as? Int } == [9, 9])
        // f.fingers counts f.touches: the finger lifting in this frame too.
        #expect(s.emitted.map { $0["down"] as? Int } == [1, 1])
        #expect(s.emitted.map { $0["width"] as? Double } == [250, 250])
    }

    @Test("a shape rule without min_score takes shape_min_score as config{} leaves it")
    func shapeMinimum() throws {
        let (runtime, _) = try loadRules("on(\"shape circle\", function() end)\nconfig{ shape_min_score = 0.9 }\non({ kind = \"shape\", min_score = 0.5 }, function() end)")
        #expect(runtime.coreRules.map(\.spec.minScore) == [0.9, 0.5])
    }

    @Test("g carries the shape, its score and a recognizer's fields; g.kind is the recognizer's name")
    func gestureTable() throws {
        let (runtime, host) = try loadRules("""
        on("shape circle", function(g) emit("s", { kind = g.kind, shape = g.shape, score = g.score }) end)
        recognizer("r1", { frame = function() end })
        on("r1", function(g) emit("r", { kind = g.kind, n = g.n, s = g.s, b = g.b, x = g.x }) end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: GestureEvent(kind: .shape, phase: .ended, fingers: 1, time: 1, name: "circle", score: 0.875)))
        let fields = [GestureField(name: "n", value: .integer(3)), GestureField(name: "s", value: .string("top")), GestureField(name: "b", value: .boolean(true))]
        runtime.dispatch(Delivery(rule: 1, event: GestureEvent(kind: .custom, phase: .ended, fingers: 1, time: 2, position: Vector(4, 5), name: "r1", fields: fields, isDiscrete: true)))
        #expect(host.lines == [
            "{\"action\":\"s\",\"t\":1,\"kind\":\"shape\",\"score\":0.875,\"shape\":\"circle\"}",
            "{\"action\":\"r\",\"t\":2,\"b\":true,\"kind\":\"r1\",\"n\":3,\"s\":\"top\",\"x\":4}",
        ])
    }
}
