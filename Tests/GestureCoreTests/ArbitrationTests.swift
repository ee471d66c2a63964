import GestureCore
import Testing

@Suite("Arbitration")
struct ArbitrationTests {
    static func taps(_ n: Int, fingers: Int = 1) -> [TouchFrame] {
        TouchScript.sequence(Array(repeating: TouchScript.press(fingers: fingers, duration: 0.07), count: n), gap: 0.12)
    }

    @Test("tap and double tap bound: one tap is a tap once the interval passes")
    func oneTap() throws {
        let frames = Self.taps(1)
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("tap"), TouchScript.rule("double tap")])
        #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended"])
        let lift = try #require(frames.last?.time)
        #expect(abs((out.first?.event.time ?? 0) - (lift + 0.3)) < 1e-9)
    }

    @Test("tap and double tap bound: two taps are only the double tap")
    func twoTaps() {
        let out = TouchScript.recognize(Self.taps(2), rules: [TouchScript.rule("tap"), TouchScript.rule("double tap")])
        #expect(out.map(\.rule) == [1])
        #expect(out.map(TouchScript.summary) == ["tap 1 x2 ended"])
    }

    @Test("tap, double and triple tap bound: three taps are only the triple tap")
    func threeTaps() {
        let out = TouchScript.recognize(Self.taps(3), rules: [TouchScript.rule("tap"), TouchScript.rule("double tap"), TouchScript.rule("triple tap")])
        #expect(out.map(\.rule) == [2])
    }

    @Test("with no triple-tap rule, three taps are a double tap and then a tap")
    func threeTapsWithoutTriple() {
        let out = TouchScript.recognize(Self.taps(3), rules: [TouchScript.rule("tap"), TouchScript.rule("double tap")])
        #expect(out.map(\.rule) == [1, 0])
    }

    @Test("only a single-tap rule: every tap fires at its lift, nothing waits")
    func singleTapsDoNotWait() {
        let frames = Self.taps(3)
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("tap")])
        #expect(out.map(\.rule) == [0, 0, 0])
        let lifts = frames.filter { $0.touches.contains { $0.phase == .ended } }.map(\.time)
        #expect(out.map(\.event.time) == lifts)
    }

    @Test("an unbound long press never delays a tap, and a bound one does not either")
    func longPressDoesNotDelayTap() throws {
        let frames = Self.taps(1)
        let lift = try #require(frames.last?.time)
        for rules in [[TouchScript.rule("tap")], [TouchScript.rule("tap"), TouchScript.rule("long press")]] {
            let out = TouchScript.recognize(frames, rules: rules)
            #expect(out.map(\.event.time) == [lift])
        }
    }

    @Test("a one-finger tap then a two-finger tap are two taps, in order")
    func tapsOfTwoCounts() {
        let frames = TouchScript.sequence([TouchScript.press(fingers: 1, duration: 0.07), TouchScript.press(fingers: 2, duration: 0.07)], gap: 0.12)
        let rules = [TouchScript.rule("tap"), TouchScript.rule("double tap"), TouchScript.rule("2-finger tap"), TouchScript.rule("2-finger double tap")]
        #expect(TouchScript.recognize(frames, rules: rules).map(TouchScript.summary) == ["tap 1 x1 ended", "tap 2 x1 ended"])
    }

    @Test("pinch and rotate are recognized together by default")
    func pinchAndRotate() {
        let frames = TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (15, 35), turn: 80, duration: 0.6))
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("pinch out"), TouchScript.rule("rotate clockwise")])
        #expect(Set(out.map(TouchScript.summary)) == ["pinch 2 out ended", "rotate 2 clockwise ended"])
    }

    @Test("an exclusive pinch runs with nothing: whichever of pinch and rotation comes first wins")
    func exclusivePinch() {
        let rules = [TouchScript.rule("pinch out", exclusive: true), TouchScript.rule("rotate clockwise")]
        // The turn passes 15° before the spread grows 5 mm: the rotation wins.
        let turnFirst = TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (15, 35), turn: 80, duration: 0.6))
        #expect(TouchScript.recognize(turnFirst, rules: rules).map(TouchScript.summary) == ["rotate 2 clockwise ended"])
        // The spread grows 5 mm long before the fingers have turned 15°: the pinch wins.
        let spreadFirst = TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (15, 45), turn: 20, duration: 0.6))
        #expect(TouchScript.recognize(spreadFirst, rules: rules).map(TouchScript.summary) == ["pinch 2 out ended"])
        // Without exclusive, both.
        let both = [TouchScript.rule("pinch out"), TouchScript.rule("rotate clockwise")]
        #expect(TouchScript.recognize(spreadFirst, rules: both).map(TouchScript.summary) == ["pinch 2 out ended", "rotate 2 clockwise ended"])
    }

    @Test("a finger landing within the settling time makes a three-finger pan, never a two-finger one")
    func lateFingerWithinSettle() {
        var plan = TouchScript.stroke(fingers: 3, angle: 0, length: 50, duration: 1.2)
        plan[2].lands = 0.06
        let rules = [TouchScript.rule("2-finger pan", allPhases: true), TouchScript.rule("3-finger pan", allPhases: true)]
        let out = TouchScript.recognize(TouchScript.frames(plan), rules: rules)
        #expect(Set(out.map(\.rule)) == [1])
        #expect(out.first.map(TouchScript.summary) == "pan 3 right began")
    }

    @Test("a finger landing on a running two-finger pan ends it and begins a three-finger one")
    func lateFingerTurnsPan() {
        var plan = TouchScript.stroke(fingers: 3, angle: 0, length: 50, duration: 1.2)
        plan[2].lands = 0.5
        let rules = [TouchScript.rule("2-finger pan", allPhases: true), TouchScript.rule("3-finger pan", allPhases: true)]
        let out = TouchScript.recognize(TouchScript.frames(plan), rules: rules)
        let phases = out.map { "\($0.event.fingers) \($0.event.phase.rawValue)" }
        let compact = phases.filter { !$0.hasSuffix("changed") }
        #expect(compact == ["2 began", "2 ended", "3 began", "3 ended"])
        #expect(out.filter { $0.event.fingers == 2 }.allSatisfy { $0.rule == 0 })
        #expect(out.filter { $0.event.fingers == 3 }.allSatisfy { $0.rule == 1 })
    }

    @Test("pan and swipe run together by default: a flick is both")
    func panWithSwipe() {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 180, length: 40, duration: 0.2))
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("swipe left"), TouchScript.rule("pan")])
        #expect(Set(out.map(TouchScript.summary)) == ["swipe 1 left ended", "pan 1 left began"])
    }

    @Test("requires_failure_of: a pan that waits for the swipe to fail is dropped for a flick")
    func panRequiresSwipeFailureFlick() {
        let rules = [TouchScript.rule("swipe left", name: "page"), TouchScript.rule("pan", allPhases: true, requiresFailureOf: ["page"])]
        let flick = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 180, length: 40, duration: 0.2))
        #expect(TouchScript.recognize(flick, rules: rules).map(TouchScript.summary) == ["swipe 1 left ended"])
    }

    @Test("requires_failure_of: a slow drag's pan is released, whole, when the swipe fails")
    func panRequiresSwipeFailureDrag() throws {
        let rules = [TouchScript.rule("swipe left", name: "page"), TouchScript.rule("pan", allPhases: true, requiresFailureOf: ["page"])]
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 180, length: 40, duration: 2))
        let out = TouchScript.recognize(frames, rules: rules)
        #expect(out.first.map(TouchScript.summary) == "pan 1 left began")
        #expect(out.last?.event.phase == .ended)
        #expect(out.allSatisfy { $0.rule == 1 })
        // Held until the swipe failed (at the lift, 3.0, within swipe_max_duration),
        // then delivered at once, dated then: actions leave in time order.
        #expect(abs(try #require(out.first?.event.time) - 3.0) < 0.02)
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.event.time <= $1.event.time })
    }

    @Test("by default a long press stops a pan; simultaneous_with lets both run")
    func longPressAndPan() {
        // Held still 0.6 s, then dragged.
        let plan = [FingerPlan(lands: 0, lifts: 1.6) { t in Vector(100 + 40 * max(0, min((t - 0.6) / 0.8, 1)), 60) }]
        let frames = TouchScript.frames(plan)
        let exclusive = TouchScript.recognize(frames, rules: [TouchScript.rule("long press", name: "hold"), TouchScript.rule("pan", name: "drag")])
        #expect(exclusive.map(TouchScript.summary) == ["long_press 1 began"])
        let together = TouchScript.recognize(frames, rules: [TouchScript.rule("long press", name: "hold", simultaneousWith: ["drag"]), TouchScript.rule("pan", name: "drag")])
        #expect(together.map(TouchScript.summary) == ["long_press 1 began", "pan 1 right began"])
    }

    @Test("a swipe wins its sequence: no tap, no long press")
    func oneDiscreteWinner() {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2))
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("swipe right"), TouchScript.rule("tap"), TouchScript.rule("long press")])
        #expect(out.map(TouchScript.summary) == ["swipe 1 right ended"])
    }

    @Test("an edge swipe beats the plain swipe that the same stroke also is")
    func edgeBeatsSwipe() {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2, centre: Vector(22, 75)))
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("swipe right"), TouchScript.rule("edge swipe from left")])
        #expect(out.map(TouchScript.summary) == ["edge_swipe 1 right from left ended"])
    }

    @Test("the narrowest matching rule serves a gesture; among equals the last one")
    func narrowestRule() {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 0, length: 40, duration: 0.2))
        let rules = [TouchScript.rule("any-finger swipe"), TouchScript.rule("2-finger swipe right"), TouchScript.rule("2-finger swipe right"), TouchScript.rule("2-finger swipe")]
        #expect(TouchScript.recognize(frames, rules: rules).map(\.rule) == [2])
    }

    @Test("an inactive rule matches nothing, at once")
    func inactiveRule() {
        var arena = GestureArena(rules: [TouchScript.rule("swipe right"), TouchScript.rule("tap")])
        arena.setActive([false, true])
        var out: [Delivery] = []
        for f in TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2)) { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        #expect(out.isEmpty)
    }

    @Test("--trace describes transitions as kind: from → cause → to")
    func trace() {
        var arena = GestureArena(rules: [TouchScript.rule("tap"), TouchScript.rule("double tap")])
        arena.tracing = true
        var out: [Delivery] = []
        for f in Self.taps(1) { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        #expect(arena.traceLines == ["t=1.37 tap: possible → timeout → ended (1-finger, 1 tap)"])
    }

    @Test("every deadline is flushed, in order, at the end of input")
    func flushAtEnd() {
        // A tap waiting for a second one, and a long press still held when the input ends.
        var frames = Self.taps(1)
        frames += TouchScript.frames(TouchScript.press(fingers: 2, duration: 5), start: 1.2, firstID: 10).prefix(3)
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("tap"), TouchScript.rule("double tap"), TouchScript.rule("2-finger long press")])
        #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended", "long_press 2 began"])
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.event.time <= $1.event.time })
    }
}
