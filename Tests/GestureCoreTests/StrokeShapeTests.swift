import GestureCore
import Testing

/// A swipe is a roughly straight stroke: circles, S shapes and strokes that turn
/// back are not, however fast their first arc; bowed swipes still are.
@Suite("Stroke shape")
struct StrokeShapeTests {
    /// Every swipe rule, diagonals included, for one and two fingers.
    static let swipes: [GestureRule] = (1...2).flatMap { n in
        Direction.swipeDirections.map { GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(n), direction: $0)) }
    }

    /// One finger going `laps` times round a circle at `speed`, from angle `phase`.
    static func circle(radius: Double, speed: Double, laps: Double, phase: Double, clockwise: Bool = true) -> [FingerPlan] {
        let duration = laps * 2 * Double.pi * radius / speed
        let centre = Vector(125, 75)
        return [FingerPlan(lands: 0, lifts: duration) { t in
            let a = phase + (clockwise ? 1 : -1) * 360 * speed * min(t, duration) / (2 * Double.pi * radius)
            return centre + Vector(cosDegrees(a), sinDegrees(a)) * radius
        }]
    }

    @Test("a one-finger circle of 8–20 mm radius at 100–400 mm/s is no swipe, from any starting point, either way round",
          arguments: [8.0, 12, 16, 20], [100.0, 150, 200, 300, 400])
    func circles(radius: Double, speed: Double) {
        var fired: [String] = []
        for k in 0..<12 {
            for laps in [1.0, 1.5, 2.5] {
                let plan = Self.circle(radius: radius, speed: speed, laps: laps, phase: Double(k) * 30, clockwise: k % 2 == 0)
                let out = TouchScript.recognize(TouchScript.frames(plan, rate: 120, noise: 0.1, seed: UInt64(k)), rules: Self.swipes)
                fired += out.map { "from \(k * 30)°, \(laps) laps: \(TouchScript.summary($0))" }
            }
        }
        #expect(fired.isEmpty, "\(fired)")
    }

    /// A wider circle drawn at about the commit speed has turned little when it
    /// first could commit (25 mm at 150 mm/s: a 23° arc at 10 mm, a turn of 15°
    /// between its thirds), which a bowed swipe may too; its heading turns
    /// steadily, 2.3° every millimetre, as no swipe's does.
    @Test("a one-finger circle of 25 mm radius at 120–250 mm/s is no swipe, at any rate, from any starting point, with four or eight directions",
          arguments: [25.0], [120.0, 150, 200, 250])
    func wideCircles(radius: Double, speed: Double) {
        let fourWay: [GestureRule] = Direction.cardinals.map { GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(1), direction: $0)) }
        var fired: [String] = []
        for (rules, ways) in [(fourWay, 4), (Self.swipes, 8)] {
            for k in 0..<12 {
                for rate in [60.0, 90, 125, 240] {
                    let plan = Self.circle(radius: radius, speed: speed, laps: 1, phase: Double(k) * 30, clockwise: k % 2 == 0)
                    let frames = TouchScript.frames(plan, rate: rate, noise: 0.2, seed: UInt64(k) &* 31 &+ UInt64(rate))
                    fired += TouchScript.recognize(frames, rules: rules).map { "\(ways)-way, from \(k * 30)° at \(Int(rate)) Hz: \(TouchScript.summary($0))" }
                }
            }
        }
        #expect(fired.isEmpty, "\(fired.count) fired: \(fired.prefix(12))")
    }

    @Test("an S drawn quickly is no swipe", arguments: [0.25, 0.4])
    func sShape(amplitude: Double) {
        // 50 mm along, swinging `amplitude` of that to each side, in 0.25 s: its first arc alone is fast.
        let length = 50.0
        let plan = [FingerPlan(lands: 0, lifts: 0.25) { t in
            let u = min(max(t / 0.25, 0), 1)
            return Vector(100 + length * u, 75 + amplitude * length * sinDegrees(360 * u))
        }]
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: 150, noise: 0.1), rules: Self.swipes)
        #expect(out.isEmpty, "\(out.map(TouchScript.summary))")
    }

    /// A stroke fast and straight from the start is committed before it could
    /// turn back: that is what firing early means. One that turns back before it
    /// is fast enough to commit is judged whole at the lift.
    @Test("a stroke that turns back on itself is no swipe: out 40 mm at 111 mm/s, back 10 mm")
    func turnsBack() {
        let plan = [FingerPlan(lands: 0, lifts: 0.44) { t in
            let x = t < 0.36 ? 40 * t / 0.36 : 40 - 10 * min(t - 0.36, 0.08) / 0.08
            return Vector(100 + x, 75)
        }]
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: 120, noise: 0.1), rules: Self.swipes)
        #expect(out.isEmpty, "\(out.map(TouchScript.summary))")
        // Without the return it is a swipe, at its lift.
        let straight = [FingerPlan(lands: 0, lifts: 0.44) { t in Vector(100 + 40 * min(t, 0.36) / 0.36, 75) }]
        #expect(TouchScript.recognize(TouchScript.frames(straight, rate: 120, noise: 0.1), rules: Self.swipes).map(TouchScript.summary) == ["swipe 1 right ended"])
    }

    @Test("a swipe bowed by a tenth of its length is still a swipe, early or at its lift", arguments: [-0.1, -0.05, 0.05, 0.1])
    func bowedSwipes(bow: Double) {
        for (duration, length) in [(0.12, 30.0), (0.25, 45.0), (0.4, 40.0)] {
            let plan = TouchScript.stroke(fingers: 1, angle: 0, length: length, duration: duration, bow: bow * length)
            let out = TouchScript.recognize(TouchScript.frames(plan, rate: 120, noise: 0.15), rules: Self.swipes)
            #expect(out.map(TouchScript.summary) == ["swipe 1 right ended"], "\(length) mm in \(duration) s")
        }
    }

    @Test("the path's measures: a straight line, a quarter circle, a half circle")
    func measures() {
        func path(_ points: [Vector]) -> StrokePath {
            var tracker = TouchTracker()
            tracker.tracksStroke = true
            for (k, p) in points.enumerated() {
                tracker.update(with: TouchFrame(time: Double(k) * 0.01, touches: [Touch(id: 1, position: p, phase: k == 0 ? .began : .moved)]))
            }
            return tracker.strokePath
        }
        func arc(_ degrees: Double) -> [Vector] {
            (0...200).map { k in
                let a = degrees * Double(k) / 200
                return Vector(50 + 30 * sinDegrees(a), 80 - 30 * cosDegrees(a))
            }
        }
        let line = path((0...100).map { Vector(10 + 0.4 * Double($0), 20) })
        #expect(abs(line.efficiency - 1) < 1e-6)
        #expect(line.headings.turn < 1e-6 && line.headings.deviation < 1e-6)
        let quarter = path(arc(90))
        #expect(abs(quarter.efficiency - 0.9) < 0.01, "\(quarter.efficiency)")
        #expect(abs(quarter.headings.turn - 60) < 2, "\(quarter.headings)")
        let half = path(arc(180))
        #expect(abs(half.efficiency - 2 / Double.pi) < 0.01, "\(half.efficiency)")
        #expect(StrokeShape.lift.flaw(of: half) == .winding(efficiency: half.efficiency))
        #expect(StrokeShape.lift.flaw(of: line) == nil)
        #expect(StrokeShape.commit.flaw(of: quarter) != nil)
    }
}
