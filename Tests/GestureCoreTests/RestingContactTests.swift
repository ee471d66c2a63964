import GestureCore
import Testing

/// A contact still for `RestRule.stillFor` when another finger lands rests beside
/// the new gesture: not one of its fingers, reported as `resting`, never a long
/// press again, until it moves `RestRule.wakeDistance`.
@Suite("Resting contacts")
struct RestingContactTests {
    /// A thumb resting at `at` from `lands` to `lifts` with a sub-millimetre tremor.
    static func thumb(at p: Vector = Vector(60, 130), lands: Double = 0, lifts: Double, shift: (at: Double, by: Vector)? = nil) -> FingerPlan {
        FingerPlan(lands: lands, lifts: lifts) { t in
            var q = p + Vector(0.2 * sinDegrees(360 * 7 * t), 0.2 * cosDegrees(360 * 5 * t))
            if let shift, t >= shift.at { q += shift.by }
            return q
        }
    }

    /// Shifts a gesture's fingers to start `by` seconds later.
    static func delayed(_ plan: [FingerPlan], by lead: Double) -> [FingerPlan] {
        plan.map { f in FingerPlan(lands: f.lands + lead, lifts: f.lifts + lead) { t in f.at(t - lead) } }
    }

    static func run(_ fingers: [FingerPlan], _ rules: [GestureRule], noise: Double = 0.1) -> [Delivery] {
        TouchScript.recognize(TouchScript.frames(fingers, rate: 120, noise: noise, seed: 5), rules: rules)
    }

    static func describe(_ d: Delivery) -> String { "\(TouchScript.summary(d)) resting \(d.event.resting)" }

    @Test("hold one finger, swipe another: a 1-finger swipe with 1 resting, for a resting = 1 rule")
    func holdOneSwipeAnother() {
        let swipe = Self.delayed(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.18), by: 0.4)
        let rules = [
            GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(1), resting: 1)),
            GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(1), resting: 0)),
            TouchScript.rule("2-finger swipe right"),
        ]
        let out = Self.run(swipe + [Self.thumb(lifts: 1.0)], rules)
        #expect(out.map(\.rule) == [0])
        #expect(out.map(Self.describe) == ["swipe 1 right ended resting 1"])
    }

    @Test("a rule that does not name resting fires beside a resting thumb; one asking for none does not")
    func omittedRestingMeansAny() {
        let swipe = Self.delayed(TouchScript.stroke(fingers: 2, angle: 180, length: 40, duration: 0.2), by: 0.35)
        let plain = Self.run(swipe + [Self.thumb(lifts: 1.0)], TouchScript.rules("2-finger swipe left"))
        #expect(plain.map(Self.describe) == ["swipe 2 left ended resting 1"])
        let none = Self.run(swipe + [Self.thumb(lifts: 1.0)], [GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(2), resting: 0))])
        #expect(none.isEmpty)
    }

    @Test("a resting thumb does not change a 3-finger tap, a 2-finger swipe or a pinch", arguments: [0.2, 0.6, 1.5])
    func thumbChangesNothing(lead: Double) {
        let rules = TouchScript.rules("tap", "2-finger tap", "3-finger tap", "4-finger tap", "2-finger swipe up", "3-finger swipe up", "pinch out", "3-finger pinch out")
        let tap = Self.delayed(TouchScript.press(fingers: 3, duration: 0.09, at: Vector(120, 60)), by: lead)
        #expect(Self.run(tap + [Self.thumb(lifts: lead + 0.4)], rules).map(Self.describe) == ["tap 3 x1 ended resting 1"])
        let swipe = Self.delayed(TouchScript.stroke(fingers: 2, angle: -90, length: 40, duration: 0.2, centre: Vector(120, 60)), by: lead)
        #expect(Self.run(swipe + [Self.thumb(lifts: lead + 0.5)], rules).map(Self.describe) == ["swipe 2 up ended resting 1"])
        let pinch = Self.delayed(TouchScript.orbit(fingers: 2, centre: Vector(120, 55), radius: (10, 22), turn: 0, duration: 0.4), by: lead)
        #expect(Self.run(pinch + [Self.thumb(lifts: lead + 0.8)], rules).map(Self.describe) == ["pinch 2 out ended resting 1"])
    }

    @Test("fingers that land 40 ms apart are one gesture, not a rest and a swipe")
    func fingersOfOneHand() {
        let swipe = TouchScript.stroke(fingers: 2, angle: 90, length: 40, duration: 0.22, stagger: [0, 0.04], holdBefore: 0.05)
        let out = Self.run(swipe, TouchScript.rules("swipe down", "2-finger swipe down"))
        #expect(out.map(Self.describe) == ["swipe 2 down ended resting 0"])
    }

    @Test("a resting finger that starts moving with the other rejoins it: a 2-finger swipe")
    func restingFingerRejoins() {
        // The first finger lands 0.4 s early and rests; then both move down together.
        let both = TouchScript.stroke(fingers: 2, angle: 90, length: 45, duration: 0.25, stagger: [0, 0.4], holdBefore: 0.45)
        let out = Self.run(both, TouchScript.rules("swipe down", "2-finger swipe down"))
        #expect(out.map(Self.describe) == ["swipe 2 down ended resting 0"])
    }

    @Test("a resting thumb is a long press once, not again after each tap beside it")
    func noLongPressAgain() {
        let taps = [1.0, 1.6, 2.2].flatMap { start in Self.delayed(TouchScript.press(fingers: 1, duration: 0.08, at: Vector(120, 60)), by: start) }
        let out = Self.run(taps + [Self.thumb(lifts: 3.5)], TouchScript.rules("long press", "tap"))
        #expect(out.map(Self.describe) == ["long_press 1 began resting 0", "tap 1 x1 ended resting 1", "tap 1 x1 ended resting 1", "tap 1 x1 ended resting 1"])
    }

    @Test("a resting contact shifted 3 mm by the pad as another taps stays resting")
    func firmwareShiftKeepsRest() {
        let tap = Self.delayed(TouchScript.press(fingers: 1, duration: 0.08, at: Vector(120, 60)), by: 1.0)
        let thumb = Self.thumb(lifts: 2.0, shift: (at: 1.05, by: Vector(0, 3)))
        let out = Self.run(tap + [thumb], TouchScript.rules("tap", "2-finger tap", "long press", "2-finger long press"))
        #expect(out.map(Self.describe) == ["long_press 1 began resting 0", "tap 1 x1 ended resting 1"])
    }

    @Test("moving with a resting thumb is no pinch, and no 2-finger gesture at all")
    func moveWithRestingThumbIsNoPinch() {
        let drag = Self.delayed(TouchScript.stroke(fingers: 1, angle: -60, length: 40, duration: 0.5, centre: Vector(100, 70)), by: 0.4)
        let out = Self.run(drag + [Self.thumb(at: Vector(70, 120), lifts: 1.2)], TouchScript.rules("pinch in", "pinch out", "2-finger pan", "pan"))
        #expect(out.map(Self.describe) == ["pan 1 up began resting 1"])
    }

    @Test("a gesture's fingers come to rest when a finger lands beside them: a running long press ends")
    func longPressEndsWhenItRests() {
        let tap = Self.delayed(TouchScript.press(fingers: 1, duration: 0.08, at: Vector(120, 60)), by: 1.0)
        var rules = TouchScript.rules("tap")
        rules.append(TouchScript.rule("long press", allPhases: true))
        let out = Self.run(tap + [Self.thumb(lifts: 2.0)], rules).filter { $0.event.phase != .changed }
        #expect(out.map(Self.describe) == ["long_press 1 began resting 0", "long_press 1 ended resting 0", "tap 1 x1 ended resting 1"])
        #expect(abs((out.dropFirst().first?.event.time ?? 0) - 2.0) < 0.02, "ended as the tap's finger landed")
    }
}
