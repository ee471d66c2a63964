import GestureCore
import Testing

/// A physical click (a clickpad's button going down under the fingers) is no
/// tap and no long press: libinput's tap state machine ends a tap on a button
/// press in the same way.
@Suite("A click is no tap and no long press")
struct ClickIsNoTapTests {
    static func still(_ fingers: Int, for seconds: Double) -> [TouchFrame] {
        TouchScript.frames((0..<fingers).map { i in FingerPlan(lands: 0, lifts: seconds, at: { _ in Vector(50 + 15 * Double(i), 50) }) })
    }

    /// The frames, with `clicked` on the one at `index`.
    static func clicking(_ frames: [TouchFrame], at index: Int) -> [TouchFrame] {
        var frames = frames
        frames[index].clicked = true
        return frames
    }

    @Test("one and two fingers down 0.1 s: a tap; the same with a click in it: nothing", arguments: [1, 2])
    func tap(fingers: Int) {
        let rules = ["tap", "2-finger tap"].map { TouchScript.rule($0) }
        let plain = Self.still(fingers, for: 0.1)
        #expect(TouchScript.recognize(plain, rules: rules).map(TouchScript.summary) == ["tap \(fingers) x1 ended"])
        #expect(TouchScript.recognize(Self.clicking(plain, at: 3), rules: rules).isEmpty)
    }

    @Test("a click on the second press of a double tap: the first tap stands alone")
    func secondPress() {
        let first = Self.still(1, for: 0.08)
        let second = TouchScript.frames([FingerPlan(lands: 0, lifts: 0.08, at: { _ in Vector(50, 50) })], start: 1.2, firstID: 9)
        let rules = ["tap", "double tap"].map { TouchScript.rule($0) }
        #expect(TouchScript.recognize(first + second, rules: rules).map(TouchScript.summary) == ["tap 1 x2 ended"])
        #expect(TouchScript.recognize(first + Self.clicking(second, at: 2), rules: rules).map(TouchScript.summary) == ["tap 1 x1 ended"])
    }

    @Test("held still 0.8 s: a long press; clicked at its start: none, and the trace says why")
    func longPress() {
        let rules = [TouchScript.rule("long press")]
        let held = Self.still(1, for: 0.8)
        #expect(TouchScript.recognize(held, rules: rules).map(TouchScript.summary).first == "long_press 1 began")
        #expect(TouchScript.recognize(Self.clicking(held, at: 2), rules: rules).isEmpty)
        var arena = GestureArena(rules: rules)
        arena.tracing = true
        var out: [Delivery] = []
        for f in Self.clicking(held, at: 2) { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        #expect(arena.traceLines.contains { $0.hasSuffix("long_press: possible → a physical click: the device's button went down under the fingers (a click is no tap or long press, as in libinput) → failed") },
                "\(arena.traceLines)")
    }
}
