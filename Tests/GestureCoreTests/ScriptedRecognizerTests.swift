import Testing
@testable import GestureCore

/// A driver written in Swift, standing in for the rules' Lua: the core's side
/// of recognizers defined outside it, tested without Lua.
final class FakeDriver: ExternalRecognizerDriver, @unchecked Sendable {
    typealias Decide = (ExternalRequest, TouchTracker, inout ExternalReply) -> Void
    let names: [String]
    let decide: Decide
    private(set) var requests: [(name: String, event: String, state: RecognizerState)] = []

    init(_ names: [String], decide: @escaping Decide) {
        self.names = names
        self.decide = decide
    }

    func recognizer(named name: String) -> Int? { names.firstIndex(of: name) }

    func call(_ request: ExternalRequest, tracker: TouchTracker, into reply: inout ExternalReply) {
        let event: String
        switch request.event {
        case .frame: event = "frame"
        case .timeout: event = "timeout"
        case .reset: event = "reset"
        }
        requests.append((request.name, event, request.state))
        decide(request, tracker, &reply)
    }
}

@Suite("Recognizers with an external driver")
struct ScriptedRecognizerTests {
    static func custom(_ name: String, fingers: FingerCount? = nil, ruleName: String? = nil, allPhases: Bool = false,
                       requiresFailureOf: [String] = []) -> GestureRule {
        GestureRule(spec: GestureSpec(kind: .custom, fingers: fingers, name: name), name: ruleName, allPhases: allPhases, requiresFailureOf: requiresFailureOf)
    }

    static func run(_ frames: [TouchFrame], _ rules: [GestureRule], driver: FakeDriver) -> [Delivery] {
        var arena = GestureArena(rules: rules)
        arena.setUserGestures(recognizers: driver.names, templates: [])
        var out: [Delivery] = []
        for frame in frames {
            arena.handle(frame, into: &out)
            arena.answerQuestions(with: driver, into: &out)
        }
        arena.finish(into: &out)
        arena.answerQuestions(with: driver, into: &out)
        return out
    }

    /// Recognized when the last finger lifts, if it moved more than 20 mm. A
    /// new one for each use: a driver records its requests, and tests run at once.
    static var flick: FakeDriver { FakeDriver(["flick"]) { request, tracker, reply in
        guard case .frame = request.event, !tracker.isActive else { return }
        if tracker.meanDisplacement.length > 20 {
            reply.steps.append(.ended([GestureField(name: "far", value: .boolean(true))]))
        } else {
            reply.steps.append(.failed(.failedInLua("too short")))
        }
    } }

    @Test("a recognizer that ends straight from possible is discrete: a plain handler gets it once, as ended, with its fields")
    func discrete() throws {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.3))
        let out = Self.run(frames, [Self.custom("flick")], driver: Self.flick)
        #expect(out.count == 1)
        let e = try #require(out.first?.event)
        #expect(e.kind == .custom && e.name == "flick" && e.phase == .ended && e.isDiscrete)
        #expect(e.fields == [GestureField(name: "far", value: .boolean(true))])
        #expect(e.time == frames.last?.time)
    }

    @Test("one that begins, changes and ends is continuous: a handler table gets every phase, a plain handler the beginning")
    func continuous() {
        let driver = FakeDriver(["drag"]) { request, tracker, reply in
            guard case .frame = request.event else { return }
            switch request.state {
            case .possible where tracker.meanDisplacement.length > 5: reply.steps.append(.began(nil))
            case .began, .changed:
                reply.steps.append(tracker.isActive ? .changed([GestureField(name: "n", value: .integer(1))]) : .ended(nil))
            default: break
            }
        }
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 90, length: 30, duration: 0.3))
        let phases = Self.run(frames, [Self.custom("drag", allPhases: true)], driver: driver).map(\.event.phase)
        #expect(phases.first == .began && phases.last == .ended && phases.dropFirst().dropLast().allSatisfy { $0 == .changed } && phases.count > 5)
        #expect(Self.run(frames, [Self.custom("drag")], driver: driver).map(\.event.phase) == [.began])
    }

    @Test("a built-in tap waits for a Lua recognizer to fail: released when it fails, dropped when it is recognized")
    func tapWaitsForLua() {
        // Two taps within 0.4 s are a "pair"; one tap alone is no pair.
        let pair = FakeDriver(["pair"]) { request, tracker, reply in
            switch request.event {
            case .frame where !tracker.isActive:
                if request.deadline == nil {
                    reply.deadline = .set(tracker.time + 0.4)
                } else {
                    reply.steps.append(.ended(nil))
                }
            case .timeout: reply.steps.append(.failed(.failedInLua("one tap")))
            default: break
            }
        }
        let rules = [TouchScript.rule("tap", requiresFailureOf: ["pair"]), Self.custom("pair", ruleName: "pair")]
        let one = TouchScript.sequence([TouchScript.press(fingers: 1, duration: 0.07)], gap: 0.1)
        let single = Self.run(one, rules, driver: pair)
        #expect(single.map(\.rule) == [0])
        // Held until the pair failed, 0.4 s after the lift, and dated then.
        if let lift = one.last?.time, let t = single.first?.event.time { #expect(abs(t - lift - 0.4) < 1e-9) }
        let two = TouchScript.sequence([TouchScript.press(fingers: 1, duration: 0.07), TouchScript.press(fingers: 1, duration: 0.07)], gap: 0.12)
        #expect(Self.run(two, rules, driver: pair).map(\.rule) == [1])
    }

    @Test("a Lua recognizer waits for a built-in to fail with requires_failure_of on its rule")
    func luaWaitsForSwipe() {
        let rules = [TouchScript.rule("swipe right", name: "swipe"), Self.custom("flick", requiresFailureOf: ["swipe"])]
        let fast = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.15))
        #expect(Self.run(fast, rules, driver: Self.flick).map(\.rule) == [0])
        // Slow: the swipe fails at the lift and the flick, held until then, is delivered.
        let slow = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 2))
        #expect(Self.run(slow, rules, driver: Self.flick).map(\.rule) == [1])
    }

    @Test("a disabled recognizer fails, stays failed after its reset, and is asked nothing more")
    func disabled() {
        let broken = FakeDriver(["broken"]) { _, _, reply in reply.disabled = true }
        let frames = TouchScript.sequence([TouchScript.press(fingers: 1, duration: 0.07), TouchScript.press(fingers: 1, duration: 0.07)], gap: 0.5)
        var arena = GestureArena(rules: [Self.custom("broken"), TouchScript.rule("tap")])
        arena.setUserGestures(recognizers: broken.names, templates: [])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in frames {
            arena.handle(frame, into: &out)
            arena.answerQuestions(with: broken, into: &out)
        }
        arena.finish(into: &out)
        arena.answerQuestions(with: broken, into: &out)
        #expect(broken.requests.count == 1)
        #expect(out.map(\.rule) == [1, 1])
        #expect(arena.traceLines.contains { $0.hasSuffix("broken: possible → an error in its Lua disabled it → failed") }, "\(arena.traceLines)")
    }

    @Test("a deadline is kept on the input's clock: the driver is asked when it passes, with no frame; reset follows the sequence")
    func deadline() throws {
        let waiter = FakeDriver(["waiter"]) { request, tracker, reply in
            switch request.event {
            case .frame where request.deadline == nil: reply.deadline = .set(tracker.time + 1)
            case .timeout: reply.steps.append(.ended(nil))
            default: break
            }
        }
        let frames = TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.07))
        let out = Self.run(frames, [Self.custom("waiter")], driver: waiter)
        let start = try #require(frames.first?.time)
        #expect(out.map(\.event.time) == [start + 1])
        #expect(waiter.requests.map(\.event) == ["frame", "frame", "frame", "frame", "frame", "frame", "frame", "frame", "timeout", "reset"].suffix(waiter.requests.count))
        #expect(waiter.requests.last?.event == "reset")
        #expect(waiter.requests.dropLast().last?.event == "timeout")
    }

    @Test("finger counts: a rule without one takes any count; one with a count only that")
    func fingers() {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 0, length: 40, duration: 0.3))
        #expect(Self.run(frames, [Self.custom("flick")], driver: Self.flick).map(\.event.fingers) == [2])
        #expect(Self.run(frames, [Self.custom("flick", fingers: .exactly(1))], driver: Self.flick).isEmpty)
    }

    @Test("a step the state machine has no edge for is ignored and traced as a bug, and the recognizer goes on")
    func impossibleStep() {
        // changed() before began(), then a proper ending at the lift.
        let driver = FakeDriver(["odd"]) { request, tracker, reply in
            guard case .frame = request.event else { return }
            reply.steps.append(tracker.isActive ? .changed(nil) : .ended(nil))
        }
        var arena = GestureArena(rules: [Self.custom("odd")])
        arena.setUserGestures(recognizers: driver.names, templates: [])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 30, duration: 0.2)) {
            arena.handle(frame, into: &out)
            arena.answerQuestions(with: driver, into: &out)
        }
        arena.finish(into: &out)
        arena.answerQuestions(with: driver, into: &out)
        let bugs = arena.traceLines.filter { $0.contains("bug: ") }
        #expect(!bugs.isEmpty)
        #expect(bugs.allSatisfy { $0.hasSuffix("bug: odd was told changed() while possible; the step was ignored") }, "\(bugs)")
        #expect(out.map(\.event.phase) == [.ended])
    }

    @Test("the core never calls out: a step that needs a Lua decision hands out a question, and nothing more happens until its answer")
    func questionsWait() throws {
        let driver = FakeDriver(["flick"]) { request, tracker, reply in
            guard case .frame = request.event, !tracker.isActive else { return }
            reply.steps.append(.ended(nil))
        }
        var arena = GestureArena(rules: [Self.custom("flick")])
        arena.setUserGestures(recognizers: driver.names, templates: [])
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.3))
        var out: [Delivery] = []
        // Every frame handed over unanswered: the first one's question stays the only one.
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        #expect(arena.waitsForAnswer)
        let first = try #require(arena.question)
        guard case .frame(let shown) = first.request.event else {
            Issue.record("asked \(first.request.event), not about a frame")
            return
        }
        #expect(shown.time == frames.first?.time)
        #expect(first.request.name == "flick" && first.request.state == .possible)
        #expect(driver.requests.isEmpty && out.isEmpty)
        // Answered one by one, the frames are stepped in order and the gesture comes out at the lift.
        arena.answerQuestions(with: driver, into: &out)
        #expect(!arena.waitsForAnswer && arena.question == nil)
        #expect(driver.requests.filter { $0.event == "frame" }.count == frames.count)
        #expect(out.map(\.event.phase) == [.ended])
        #expect(out.first?.event.time == frames.last?.time)
    }
}
