import GestureCore
import Testing

/// Swipes made by this file's own generator, varied the ways real hardware and
/// people vary: sampling rate, finger count, landing spread, curvature, noise,
/// speed. The recognizer must get nearly all of them, and none of the drags.
@Suite("Varied swipes")
struct VariedSwipeTests {
    static let rules: [GestureRule] = {
        var rules: [GestureRule] = []
        for fingers in 1...4 {
            for direction in Direction.cardinals {
                rules.append(GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(fingers), direction: direction)))
            }
        }
        return rules
    }()

    struct Outcome {
        var correct = 0
        var total = 0
        var confusions: [String] = []
        var firedBeforeLift = 0
        var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }
    }

    static func randomSwipes(count: Int, seed: UInt64) -> Outcome {
        var random = XorShift(seed: seed)
        var outcome = Outcome()
        for i in 0..<count {
            let fingers = 1 + Int(random.next() * 4) % 4
            let direction = Direction.cardinals[Int(random.next() * 4) % 4]
            let rate = random.range(50, 250)
            let length = random.range(18, 70)
            let duration = random.range(0.08, 0.3)
            let stagger = (0..<fingers).map { _ in random.range(0, 0.04) }
            var plan = TouchScript.stroke(
                fingers: fingers, angle: (direction.screenAngle ?? 0) + random.range(-12, 12),
                length: length, duration: duration, spacing: random.range(12, 22), stagger: stagger,
                bow: random.range(-0.1, 0.1) * length)
            // Fingers lift up to 45 ms apart, some while still moving.
            for k in plan.indices { plan[k].lifts += random.range(-0.015, 0.03) }
            let frames = TouchScript.frames(plan, rate: rate, noise: random.range(0, 0.4), seed: UInt64(i + 1))
            let out = TouchScript.recognize(frames, rules: rules)
            outcome.total += 1
            let got = out.map { "\($0.event.fingers)-finger \($0.event.direction?.rawValue ?? "?")" }
            if got == ["\(fingers)-finger \(direction.rawValue)"] {
                outcome.correct += 1
            } else {
                outcome.confusions.append("\(fingers)-finger \(direction.rawValue) (\(Int(length)) mm in \(Int(duration * 1000)) ms at \(Int(rate)) Hz) -> \(got)")
            }
            if let fired = out.first?.event.time, let lastLift = frames.last?.time, fired < lastLift {
                outcome.firedBeforeLift += 1
            }
        }
        return outcome
    }

    @Test("at least 99% of 800 varied swipes are recognized exactly, 90% before the last finger lifts")
    func variedSwipes() {
        let outcome = Self.randomSwipes(count: 800, seed: 2026)
        print("varied swipes: \(outcome.correct)/\(outcome.total) exact, \(outcome.firedBeforeLift) before the last finger lifted")
        for c in outcome.confusions.prefix(20) { print("  confusion: \(c)") }
        #expect(outcome.accuracy >= 0.99)
        #expect(Double(outcome.firedBeforeLift) >= 0.9 * Double(outcome.total))
    }

    @Test("no slow drag (5 to 30 mm/s) of any length, rate or finger count is a swipe")
    func slowDrags() {
        var random = XorShift(seed: 77)
        var fired: [String] = []
        for i in 0..<300 {
            let fingers = 1 + Int(random.next() * 4) % 4
            let speed = random.range(5, 30)
            let length = random.range(10, 60)
            let plan = TouchScript.stroke(
                fingers: fingers, angle: random.range(-180, 180), length: length, duration: length / speed,
                stagger: (0..<fingers).map { _ in random.range(0, 0.04) }, bow: random.range(-3, 3))
            let out = TouchScript.recognize(TouchScript.frames(plan, rate: random.range(50, 250), noise: 0.3, seed: UInt64(i)), rules: Self.rules)
            if !out.isEmpty { fired.append("\(fingers) fingers at \(Int(speed)) mm/s over \(Int(length)) mm") }
        }
        #expect(fired.isEmpty, "\(fired)")
    }

    @Test("no jiggle under 5 mm is a swipe, however fast")
    func jiggles() {
        var random = XorShift(seed: 78)
        var fired = 0
        for i in 0..<200 {
            let amplitude = random.range(0.5, 4.5)
            let hz = random.range(2, 12)
            let plan = [FingerPlan(lands: 0, lifts: random.range(0.1, 0.6)) { t in
                Vector(120 + amplitude * sinDegrees(360 * hz * t), 70 + amplitude * cosDegrees(360 * hz * t * 1.3))
            }]
            fired += TouchScript.recognize(TouchScript.frames(plan, rate: random.range(60, 240), seed: UInt64(i)), rules: Self.rules).count
        }
        #expect(fired == 0)
    }
}
