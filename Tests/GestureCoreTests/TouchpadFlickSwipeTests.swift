import GestureCore
import Testing

/// Short fast swipes on a touchpad: a pad reports a contact's
/// landing a few mm off before the fingertip has flattened, and the hand rests
/// a moment before it throws the stroke. Neither is the stroke's shape: a flick
/// is decided when its evidence is in, not held to its lift or refused there.
@Suite("Touchpad flick swipes")
struct TouchpadFlickSwipeTests {
    static let rules: [GestureRule] = (1...2).flatMap { n in
        Direction.cardinals.map { GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(n), direction: $0)) }
    }

    /// One finger landing at `centre` with its landing report `landingOff`
    /// away, resting `rest` s, then thrown `length` mm along `angle` in
    /// `duration` s, quickening as a flick does; it lifts in motion.
    static func flick(angle: Double, landingOff: Vector, rest: Double = 0.02, length: Double = 20, duration: Double = 0.07,
                      wander: Double = 0, at centre: Vector = Vector(120, 75)) -> FingerPlan {
        let unit = Vector(cosDegrees(angle), sinDegrees(angle))
        return FingerPlan(lands: 0, lifts: rest + duration) { t in
            if t <= 0 { return centre + landingOff }
            let u = min(max((t - rest) / duration, 0), 1)
            // A resting finger's wander: a millimetre or so back and forth.
            let drift = t < rest ? Vector(sinDegrees(t * 9000), cosDegrees(t * 7000)) * wander : .zero
            return centre + drift + unit * (length * u * (0.4 + 0.6 * u))
        }
    }

    /// The first frame at which every finger has travelled 10 mm from its
    /// landing report (`swipe_min_distance`): no recognizer can be sure sooner.
    static func evidence(_ frames: [TouchFrame]) -> Double? {
        var landed: [Int: Vector] = [:]
        var down: [Int: Vector] = [:]
        for frame in frames {
            for touch in frame.touches {
                if touch.phase == .began { landed[touch.id] = touch.position }
                if touch.phase.isActive { down[touch.id] = touch.position } else { return nil }
            }
            if down.allSatisfy({ id, p in landed[id].map { p.distance(to: $0) >= 10 } ?? false }) { return frame.time }
        }
        return nil
    }

    /// What each flick gave, where it went wrong.
    static func judge(_ frames: [TouchFrame], fingers: Int, direction: Direction, label: String) -> String? {
        let out = TouchScript.recognize(frames, rules: rules)
        guard out.count == 1, let event = out.first?.event else { return "\(label): \(out.map(TouchScript.summary))" }
        guard event.fingers == fingers, event.direction == direction else { return "\(label): \(TouchScript.summary(out[0]))" }
        guard let evidence = evidence(frames), let lift = frames.last?.time else { return "\(label): no evidence point" }
        let after = Int(((event.time - evidence) * 1000).rounded())
        guard event.time <= evidence + 0.015 + 1e-9, event.time < lift else {
            return "\(label): decided \(after) ms after its evidence, \(Int(((lift - event.time) * 1000).rounded())) ms before its lift"
        }
        return nil
    }

    @Test("a one-finger flick whose landing report is 2.5 mm off, any way round, is decided within 15 ms of its evidence, before it lifts",
          arguments: [60.0, 100, 150])
    func landingReportOff(rate: Double) {
        var wrong: [String] = []
        for (k, direction) in Direction.cardinals.enumerated() {
            let angle = direction.screenAngle ?? 0
            for off in stride(from: 0.0, to: 360, by: 45) {
                let plan = Self.flick(angle: angle, landingOff: Vector(cosDegrees(off), sinDegrees(off)) * 2.5)
                let frames = TouchScript.frames([plan], rate: rate, noise: 0.1, seed: UInt64(k * 8) + UInt64(off))
                if let why = Self.judge(frames, fingers: 1, direction: direction, label: "\(direction) off at \(Int(off))°") { wrong.append(why) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of 32: \(wrong)")
    }

    @Test("a one-finger flick after a touchdown that wanders a millimetre for 40 ms is decided within 15 ms of its evidence")
    func wanderingTouchdown() {
        var wrong: [String] = []
        for (k, direction) in Direction.cardinals.enumerated() {
            for rate in [70.0, 100, 125] {
                let plan = Self.flick(angle: direction.screenAngle ?? 0, landingOff: .zero, rest: 0.04, wander: 1)
                let frames = TouchScript.frames([plan], rate: rate, noise: 0.1, seed: UInt64(k) &* 13 &+ UInt64(rate))
                if let why = Self.judge(frames, fingers: 1, direction: direction, label: "\(direction) at \(Int(rate)) Hz") { wrong.append(why) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("a flick whose landing report was 3 mm ahead of the finger is still a swipe, judged at its lift when it is slow")
    func landingReportAheadAtTheLift() {
        for direction in Direction.cardinals {
            let angle = direction.screenAngle ?? 0
            let ahead = Vector(cosDegrees(angle), sinDegrees(angle)) * 3
            // 16 mm at a mean of 100 mm/s: under swipe_commit_speed, so only its lift decides it.
            let plan = Self.flick(angle: angle, landingOff: ahead, rest: 0.02, length: 16, duration: 0.16)
            let out = TouchScript.recognize(TouchScript.frames([plan], rate: 100), rules: Self.rules)
            #expect(out.map(TouchScript.summary) == ["swipe 1 \(direction.rawValue) ended"])
        }
    }

    @Test("two fingers whose landing reports are 2.5 mm off, 40° apart, are decided within 15 ms of their evidence")
    func twoFingers() {
        var wrong: [String] = []
        for (k, direction) in Direction.cardinals.enumerated() {
            let angle = direction.screenAngle ?? 0
            let across = Vector(-sinDegrees(angle), cosDegrees(angle)) * 8
            for off in stride(from: 0.0, to: 360, by: 60) {
                let plans = [
                    Self.flick(angle: angle, landingOff: Vector(cosDegrees(off), sinDegrees(off)) * 2.5, at: Vector(120, 75) + across),
                    Self.flick(angle: angle, landingOff: Vector(cosDegrees(off + 40), sinDegrees(off + 40)) * 2.5, at: Vector(120, 75) - across),
                ]
                let frames = TouchScript.frames(plans, rate: 90, noise: 0.1, seed: UInt64(k) &+ UInt64(off))
                if let why = Self.judge(frames, fingers: 2, direction: direction, label: "\(direction) off at \(Int(off))°") { wrong.append(why) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// The touchdown is forgiven only within a few mm of the landing, and only
    /// while the path there winds: a circle drawn from its landing shows its
    /// turn from there, whatever its landing report did.
    @Test("a one-finger circle of 20 mm radius whose landing report is 2.5 mm off is still no swipe",
          arguments: [120.0, 200, 300])
    func circleWithLandingOff(speed: Double) {
        var fired: [String] = []
        for k in 0..<12 {
            let phase = Double(k) * 30
            let centre = Vector(125, 75)
            let off = Vector(cosDegrees(phase + 90), sinDegrees(phase + 90)) * 2.5
            let duration = 2 * Double.pi * 20 / speed
            let plan = FingerPlan(lands: 0, lifts: duration) { t in
                let a = phase + 360 * min(t, duration) / duration
                return centre + Vector(cosDegrees(a), sinDegrees(a)) * 20 + (t <= 0 ? off : .zero)
            }
            for rate in [60.0, 125] {
                let out = TouchScript.recognize(TouchScript.frames([plan], rate: rate, noise: 0.2, seed: UInt64(k)), rules: Self.rules)
                fired += out.map { "from \(Int(phase))° at \(Int(rate)) Hz: \(TouchScript.summary($0))" }
            }
        }
        #expect(fired.isEmpty, "\(fired)")
    }
}
