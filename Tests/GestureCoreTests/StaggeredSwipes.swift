import GestureCore

/// A seeded generator of the gestures that make a swipe's finger count hard to
/// tell early: hands whose fingers land up to 60 ms apart and lift as far apart,
/// on touchpads 65–110 mm wide and on touchscreens, sampled at 60–240 Hz; and
/// the near misses beside them (a second finger landing late on a moving hand,
/// strokes nearly diagonal, taps, slow pans). Each gesture says what it must be
/// recognized as. Its own code path (TouchScript's sampler), not synth's.
struct StaggeredSwipes {
    /// The most one hand's fingers land (and lift) apart, s: what real hands do
    /// (the fusuma swipes and pinches land within 54–75 ms).
    static let maxStagger = 0.06

    enum Expectation: Equatable, CustomStringConvertible {
        case swipe(fingers: Int, direction: Direction)
        case nothing

        var description: String {
            switch self {
            case let .swipe(fingers, direction): return "\(fingers)-finger \(direction.rawValue)"
            case .nothing: return "nothing"
            }
        }
    }

    enum Family: String, CaseIterable {
        /// A swipe with its fingers landing and lifting up to 60 ms apart.
        case swipe
        /// Two fingers, the second landing 40–60 ms late on a hand already moving fast.
        case lateSecondFinger
        /// A swipe 30–41° off its axis: still the axis it is nearer.
        case nearDiagonal
        /// A press of 1–4 fingers that barely moves.
        case tap
        /// A drag of 1–4 fingers at 8–40 mm/s: a pan, never a swipe.
        case pan
    }

    struct Gesture {
        var family: Family
        var expected: Expectation
        var frames: [TouchFrame]
        var device: String
        var rate: Double
        /// First landing and last lift, s on the frames' clock.
        var firstLanding: Double { frames.first?.time ?? 0 }
        var lastLift: Double { frames.last?.time ?? 0 }
    }

    var random: XorShift

    init(seed: UInt64) { random = XorShift(seed: seed) }

    /// A touchpad 65–110 mm wide, or a touchscreen 150–300 mm wide, equally often.
    private mutating func device() -> (surface: Surface, name: String) {
        if random.next() < 0.5 {
            let width = random.range(65, 110)
            return (Surface(width: width, height: width * random.range(0.55, 0.7)), "touchpad")
        }
        let width = random.range(150, 300)
        return (Surface(width: width, height: width * random.range(0.56, 0.65)), "touchscreen")
    }

    /// `count` gestures: 70% swipes, then near misses of each family.
    mutating func make(count: Int) -> [Gesture] {
        (0..<count).map { i in
            let roll = random.next()
            let family: Family
            switch roll {
            case ..<0.6: family = .swipe
            case ..<0.7: family = .lateSecondFinger
            case ..<0.8: family = .nearDiagonal
            case ..<0.9: family = .tap
            default: family = .pan
            }
            return make(family, seed: UInt64(i + 1))
        }
    }

    mutating func make(_ family: Family, seed: UInt64) -> Gesture {
        let (surface, name) = device()
        let rate = random.range(60, 240)
        let fingers: Int
        switch family {
        case .lateSecondFinger: fingers = 2
        default: fingers = 1 + Int(random.next() * 4) % 4
        }
        // Fingers of a hand sit 14–19 mm apart: four of them span up to 57 mm.
        // On a small pad they crowd together to fit.
        let across = min(surface.width, surface.height) * 0.8
        let spacing = fingers > 1 ? min(random.range(14, 19), across / Double(fingers - 1)) : 0
        let span = spacing * Double(fingers - 1)
        // The first finger down may be any of them.
        var stagger = (0..<fingers).map { _ in random.range(0, StaggeredSwipes.maxStagger) }
        stagger[Int(random.next() * Double(fingers)) % fingers] = 0
        let noise = random.range(0, 0.3)
        switch family {
        case .swipe, .lateSecondFinger, .nearDiagonal:
            let direction = Direction.cardinals[Int(random.next() * 4) % 4]
            let off: Double
            switch family {
            case .nearDiagonal: off = random.range(30, 41) * (random.next() < 0.5 ? -1 : 1)
            default: off = random.range(-15, 15)
            }
            if family == .lateSecondFinger { stagger = [0, random.range(0.04, StaggeredSwipes.maxStagger)] }
            let horizontal = direction == .left || direction == .right
            // Room along the stroke, after the hand's own width across the other axis.
            let room = (horizontal ? surface.width : surface.height) - 12
            let length = min(random.range(20, 70), max(room * 0.85, 15))
            let speed = random.range(150, 500)
            // A hand strokes on with all its fingers down for a while: none lifts
            // before the last has landed and moved with it.
            let lastLanding = stagger.max() ?? 0
            // Swipes last 80 ms or more (synth's 0.12–0.28 s, VariedSwipeTests' from 0.08 s,
            // the fusuma two-finger swipe 0.22 s); a flick shorter than `swipe_settle`
            // is decided at its lift.
            let duration = max(length / speed, lastLanding + 0.05, 0.08)
            let angle = (direction.screenAngle ?? 0) + off
            let centre = Vector(surface.width / 2, surface.height / 2) + Vector(random.range(-0.1, 0.1) * surface.width, random.range(-0.1, 0.1) * surface.height)
            var plan = TouchScript.stroke(
                fingers: fingers, angle: angle, length: length, duration: duration,
                centre: centre, spacing: spacing, stagger: stagger, bow: random.range(-0.06, 0.06) * length,
                holdBefore: random.range(0, 0.02))
            // Lifts spread up to 60 ms, from a little before the motion ends.
            for k in plan.indices { plan[k].lifts += random.range(-0.02, 0.04) }
            let frames = TouchScript.frames(plan, rate: rate, noise: noise, seed: seed, surface: surface)
            return Gesture(family: family, expected: .swipe(fingers: fingers, direction: direction), frames: frames, device: name, rate: rate)
        case .tap:
            let press = random.range(0.06, 0.2)
            let centre = Vector(surface.width / 2, surface.height / 2)
            let plan = (0..<fingers).map { i -> FingerPlan in
                let p = centre + Vector(spacing * (Double(i) - Double(fingers - 1) / 2), 0)
                let drift = Vector(random.range(-0.8, 0.8), random.range(-0.8, 0.8))
                let lands = stagger[i]
                return FingerPlan(lands: lands, lifts: press + random.range(0, 0.04)) { t in p + drift * min(t / press, 1) }
            }
            return Gesture(family: family, expected: .nothing, frames: TouchScript.frames(plan, rate: rate, noise: noise, seed: seed, surface: surface), device: name, rate: rate)
        case .pan:
            let speed = random.range(8, 40)
            let length = random.range(10, max(min(surface.width, surface.height) - span * 0.3 - 10, 12))
            let plan = TouchScript.stroke(
                fingers: fingers, angle: random.range(-180, 180), length: length, duration: length / speed,
                centre: Vector(surface.width / 2, surface.height / 2), spacing: spacing, stagger: stagger,
                bow: random.range(-2, 2), liftAfter: random.range(0, 0.05))
            return Gesture(family: family, expected: .nothing, frames: TouchScript.frames(plan, rate: rate, noise: noise, seed: seed, surface: surface), device: name, rate: rate)
        }
    }
}
