import GestureCore
import Testing

/// A pan's travel is the hand's, whatever its fingers' landings: a late finger
/// neither starts it over nor adds the jump it gives the centroid.
@Suite("Pan travel")
struct PanTravelTests {
    /// `fingers` side by side on a hand that moves `length` mm to the right from
    /// the first landing over `duration`, the last finger landing `gap` after
    /// the first (the others evenly between), still for `hold` s, then lifting.
    static func hand(fingers: Int, gap: Double, length: Double, duration: Double, hold: Double = 0.05) -> [FingerPlan] {
        TouchScript.stroke(fingers: fingers, angle: 0, length: length, duration: duration, liftAfter: hold).enumerated().map { i, plan in
            var late = plan
            late.lands = fingers > 1 ? gap * Double(i) / Double(fingers - 1) : 0
            return late
        }
    }

    static let rate = 100.0
    static let start = 1.0

    @Test("fingers landing 0-150 ms apart on a moving hand begin the pan, whose translation is the hand's whole travel",
          arguments: [2, 3, 4], [0.0, 0.012, 0.04, 0.08, 0.15])
    func landingGaps(fingers: Int, gap: Double) throws {
        for length in [10.0, 20, 30] {
            // The hand keeps moving 0.25 s after its last finger lands.
            let duration = gap + 0.25
            let frames = TouchScript.frames(Self.hand(fingers: fingers, gap: gap, length: length, duration: duration), rate: Self.rate, start: Self.start)
            let out = TouchScript.recognize(frames, rules: [TouchScript.rule("\(fingers)-finger pan", allPhases: true)])
            let phases = out.map(\.event.phase)
            let context = "\(fingers) fingers \(gap) s apart, \(length) mm: \(out.map(TouchScript.summary))"
            try #require(phases.first == .began && phases.last == .ended && phases.dropFirst().dropLast().allSatisfy { $0 == .changed } && phases.count >= 3,
                         "\(context)")
            let began = try #require(out.first?.event)
            #expect(began.fingers == fingers && began.direction == .right, "\(context)")
            // As soon as the count is down, the hand has landed (swipe_settle)
            // and it has travelled pan_min_distance: at the first frame after.
            let travelled = Self.start + duration * Threshold.panMinDistance.defaultValue / length
            let due = max(Self.start + gap, Self.start + Threshold.swipeSettle.defaultValue, travelled)
            #expect(began.time <= due + 1 / Self.rate + 1e-9, "began at \(began.time), due \(due): \(context)")
            // The whole travel, not the part since the last finger landed.
            let translation = try #require(out.last?.event.delta)
            #expect(abs(translation.x - length) < 0.5 && abs(translation.y) < 0.5, "translation \(translation): \(context)")
        }
    }

    @Test("with a pan rule of more fingers bound, a late finger still finds the travel made before it")
    func lateFingerBelowTheMost() throws {
        // Fast enough to pass 5 mm before the third finger lands, 60 ms late.
        let frames = TouchScript.frames(Self.hand(fingers: 3, gap: 0.06, length: 30, duration: 0.3), rate: Self.rate, start: Self.start)
        let rules = [TouchScript.rule("2-finger pan", allPhases: true), TouchScript.rule("3-finger pan", allPhases: true)]
        let out = TouchScript.recognize(frames, rules: rules)
        #expect(out.allSatisfy { $0.rule == 1 }, "\(out.map(TouchScript.summary))")
        #expect(out.first.map(TouchScript.summary) == "pan 3 right began")
        let translation = try #require(out.last?.event.delta)
        #expect(abs(translation.x - 30) < 0.5 && abs(translation.y) < 0.5, "\(translation)")
    }

    @Test("a pan that a landing ended begins again from that landing, not from the sequence's start")
    func restartMeasuresFromTheLanding() throws {
        var plan = TouchScript.stroke(fingers: 3, angle: 0, length: 50, duration: 1.2)
        plan[2].lands = 0.5
        let rules = [TouchScript.rule("2-finger pan", allPhases: true), TouchScript.rule("3-finger pan", allPhases: true)]
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: Self.rate, start: Self.start), rules: rules)
        let three = out.filter { $0.event.fingers == 3 }
        #expect(three.first?.event.phase == .began)
        // The hand moves 50 mm in 1.2 s; the third finger landed 0.5 s in, and
        // the pan's last change is a frame before the lift.
        let last = try #require(three.last { $0.event.phase == .changed }?.event)
        let sinceLanding = 50 * (last.time - Self.start - 0.5) / 1.2
        #expect(abs(last.delta.x - sinceLanding) < 0.1, "\(last.delta), \(sinceLanding) mm since the landing")
    }

    @Test("a stroke short of pan_min_distance does not begin, with a late finger or without, and says how far it moved")
    func shortStroke() {
        for gap in [0.0, 0.04, 0.15] {
            let frames = TouchScript.frames(Self.hand(fingers: 3, gap: gap, length: 4.5, duration: gap + 0.3), rate: Self.rate, start: Self.start)
            var arena = GestureArena(rules: [TouchScript.rule("3-finger pan", allPhases: true)])
            arena.tracing = true
            var out: [Delivery] = []
            for frame in frames { arena.handle(frame, into: &out) }
            arena.finish(into: &out)
            #expect(out.isEmpty, "gap \(gap): \(out.map(TouchScript.summary))")
            let failed = arena.traceLines.filter { $0.contains("pan: possible → a finger lifted before the pan began: moved 4.") }
            #expect(failed.count == 1, "gap \(gap): \(arena.traceLines)")
        }
    }

    @Test("a finger landing beside still fingers moves their centroid, but is no travel")
    func landingIsNoTravel() {
        // Two fingers still; a third lands 16 mm beside them, moving the
        // centroid 8 mm; all three stay still, then lift.
        let still = TouchScript.still(fingers: 3, at: Vector(100, 75), duration: 0.6).enumerated().map { i, plan in
            var late = plan
            late.lands = i == 2 ? 0.2 : 0
            return late
        }
        let frames = TouchScript.frames(still, rate: Self.rate, start: Self.start)
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("2-finger pan"), TouchScript.rule("3-finger pan")])
        #expect(out.isEmpty, "\(out.map(TouchScript.summary))")
    }

    @Test("a three-finger tap, with a three-finger pan bound, is still a tap")
    func threeFingerTap() {
        for drift in [Vector.zero, Vector(1.5, 0), Vector(0, -2)] {
            let frames = TouchScript.frames(TouchScript.press(fingers: 3, duration: 0.12, drift: drift), rate: Self.rate, start: Self.start)
            let out = TouchScript.recognize(frames, rules: [TouchScript.rule("3-finger tap"), TouchScript.rule("3-finger pan", allPhases: true)])
            #expect(out.map(TouchScript.summary) == ["tap 3 x1 ended"], "drift \(drift)")
        }
    }
}
