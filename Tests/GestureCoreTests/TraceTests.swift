import GestureCore
import Testing

/// `--trace` words, as docs/state-machine.md gives them.
@Suite("Trace")
struct TraceTests {
    static func trace(_ frames: [TouchFrame], _ phrases: String...) -> [String] {
        var arena = GestureArena(rules: phrases.map { TouchScript.rule($0) })
        arena.tracing = true
        var out: [Delivery] = []
        for f in frames { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        return arena.traceLines.map { line in String(line.drop { $0 != " " }.dropFirst()) }
    }

    @Test("a tap with another finger count reports the one before it and goes on: ended → next press → possible")
    func tapNextPress() {
        let frames = TouchScript.sequence([TouchScript.press(fingers: 1, duration: 0.07), TouchScript.press(fingers: 2, duration: 0.07)], gap: 0.12)
        let lines = Self.trace(frames, "tap", "double tap", "2-finger tap", "2-finger double tap")
        #expect(lines.contains("tap: possible → tap with 2 fingers → ended (1-finger, 1 tap)"), "\(lines)")
        #expect(lines.contains("tap: ended → next press → possible"), "\(lines)")
        #expect(lines.last == "tap: possible → timeout → ended (2-finger, 1 tap)", "\(lines)")
    }

    /// A thumb, then a finger tapping `after` seconds later beside it.
    static func thumbThenTap(after: Double) -> [TouchFrame] {
        let thumb = FingerPlan(lands: 0, lifts: after + 0.5) { _ in Vector(60, 130) }
        let tap = TouchScript.press(fingers: 1, duration: 0.08, at: Vector(120, 60)).map { f in
            FingerPlan(lands: f.lands + after, lifts: f.lifts + after) { t in f.at(t - after) }
        }
        return TouchScript.frames(tap + [thumb], rate: 100)
    }

    @Test("fingers coming to rest end their gesture and fail the undecided, in words")
    func cameToRest() {
        let held = Self.trace(Self.thumbThenTap(after: 1), "tap", "long press")
        #expect(held.contains("input: a finger came to rest"), "\(held)")
        #expect(held.contains("long_press: changed → a finger came to rest → ended (1-finger)"), "\(held)")
        #expect(held.last == "tap: possible → lift → ended (1-finger, 1 tap, 1 resting)", "\(held)")
        let undecided = Self.trace(Self.thumbThenTap(after: 0.25), "tap", "swipe left")
        #expect(undecided.contains("swipe: possible → a finger came to rest → failed"), "\(undecided)")
        #expect(undecided.contains("tap: possible → a finger came to rest → failed"), "\(undecided)")
    }

    @Test("a swipe that winds says so at its lift")
    func notAStroke() {
        // A half circle of 20 mm radius in 0.5 s: slower than the commit speed, judged at the lift.
        let plan = [FingerPlan(lands: 0, lifts: 0.5) { t in
            let a = 180 * min(t / 0.5, 1)
            return Vector(120, 75) + Vector(cosDegrees(a), sinDegrees(a)) * 20
        }]
        let lines = Self.trace(TouchScript.frames(plan, rate: 100), "swipe left", "swipe down")
        #expect(lines.contains { $0.hasPrefix("swipe: possible → not a stroke: it wound (6") && $0.hasSuffix("% of its path was progress) → failed") }, "\(lines)")
    }
}
