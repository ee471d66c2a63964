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
        arena.setUserGestures(driver: driver, templates: [])
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        return out
    }

    /// Recognized when the last finger lifts, if it moved more than 20 mm.
    static let flick = FakeDriver(["flick"]) { request, tracker, reply in
        guard case .frame = request.event, !tracker.isActive else { return }
        if tracker.meanDisplacement.length > 20 {
            reply.steps.append(.ended([GestureField(name: "far", value: .boolean(true))]))
        } else {
            reply.steps.append(.failed(.failedInLua("too short")))
        }
    }

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
        // Held until the pair failed, 0.4 s after the lift, and dated then (issue 20).
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
        arena.setUserGestures(driver: broken, templates: [])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
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
}
