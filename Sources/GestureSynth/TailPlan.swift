import GestureCore

/// One swipe of `TailSwipes`: when each finger lands and lifts, and the path
/// of the hand they ride on. Times are seconds from the first landing.
struct TailPlan {
    struct Finger {
        var lands: Double
        var lifts: Double
        /// Where it sits in the hand, from the hand's centre.
        var offset: Vector
    }

    var fingers: [Finger]
    var origin: Vector
    var direction: Vector
    /// How far the hand creeps before it strokes, mm (a slow start).
    var creep: Double
    var stroke: Vector
    var bend: Double
    var strokeStart: Double
    var strokeEnd: Double
    var easing: Easing

    /// The hand's travel from where it was at the first landing.
    func hand(at t: Double) -> Vector {
        guard t >= strokeStart else { return direction * (creep * max(t, 0) / max(strokeStart, 1e-9)) }
        let u = easing.apply((t - strokeStart) / max(strokeEnd - strokeStart, 1e-9))
        let length = stroke.length
        let normal = length > 0 ? Vector(-stroke.y / length, stroke.x / length) : .zero
        return direction * creep + stroke * u + normal * (bend * sinDegrees(180 * u))
    }

    /// A finger rides the hand: one that lands late lands where the hand has got to.
    func position(of i: Int, at t: Double) -> Vector {
        origin + fingers[i].offset + hand(at: t)
    }

    static func make(kind: TailSwipes.Kind, fingers n: Int, direction: Direction, surface: Surface, random: inout SeededRandom) -> TailPlan {
        let angle = (direction.screenAngle ?? 0) + random.uniform(-12...12)
        let unit = Vector(cosDegrees(angle), sinDegrees(angle))
        let across = Vector(-unit.y, unit.x)
        // Fingers sit 14–19 mm apart, crowded together on a small pad.
        let room = min(surface.width, surface.height) * 0.8
        let spacing = n > 1 ? min(random.uniform(14...19), room / Double(n - 1)) : 0
        var offsets = (0..<n).map { i in across * (spacing * (Double(i) - Double(n - 1) / 2)) + unit * random.uniform(-3...3) }
        offsets.shuffle(using: &random)

        var lands = (0..<n).map { _ in random.uniform(0...0.04) }
        var strokeStart = random.uniform(0...0.03)
        var creep = 0.0
        var easing = Easing.flick
        var speed = random.uniform(150...450)
        switch kind {
        case .ordinary:
            break
        case .slowStart:
            lands = (0..<n).map { _ in random.uniform(0...0.03) }
            strokeStart = random.uniform(0.05...0.25)
            // A creep stays under the onset's 20 mm/s: it is resting, not stroking.
            creep = min(random.uniform(0...3), 12 * strokeStart)
            easing = .smooth
            speed = random.uniform(80...250)
        case .lateLanding:
            lands = (0..<n).map { _ in random.uniform(0...0.01) }
            lands[n - 1] = random.uniform(0.02...0.06)
            strokeStart = random.uniform(0...0.02)
        case .thirdFinger:
            lands = (0..<n).map { _ in random.uniform(0...0.01) }
            strokeStart = random.uniform(0...0.015)
        }
        // Which finger of the hand lands first was shuffled with the offsets.
        lands[0] = 0

        let horizontal = abs(unit.x) >= abs(unit.y)
        let reach = ((horizontal ? surface.width : surface.height) - 10) * 0.85
        var length = min(random.uniform(25...55), reach)
        var plan = TailPlan(
            fingers: zip(lands, offsets).map { Finger(lands: $0, lifts: 0, offset: $1) },
            origin: .zero, direction: unit, creep: creep, stroke: unit * length,
            bend: random.uniform(-0.05...0.05) * length,
            strokeStart: strokeStart, strokeEnd: strokeStart + max(length / speed, 0.08), easing: easing)
        if kind == .thirdFinger {
            // The third lands once the two have moved 2–6 mm.
            let moved = random.uniform(2...6)
            var t = strokeStart
            while plan.hand(at: t).length < moved + creep, t < plan.strokeEnd { t += 0.001 }
            // And a frame later than the others at the least, even on a quick hand.
            plan.fingers[n - 1].lands = max(t, (lands.dropLast().max() ?? 0) + 0.02)
        }
        // Every finger must travel a swipe's distance after it lands, with room
        // to spare, or the swipe has no evidence point at all.
        let lastLanding = plan.fingers.map(\.lands).max() ?? 0
        while length < reach, (plan.hand(at: plan.strokeEnd) - plan.hand(at: lastLanding)).length < 20 {
            length = min(length + 3, reach)
            plan.stroke = unit * length
            plan.strokeEnd = plan.strokeStart + max(length / speed, 0.08)
        }
        for i in plan.fingers.indices {
            plan.fingers[i].lifts = max(plan.strokeEnd + random.uniform(-0.015...0.03), plan.fingers[i].lands + 0.06)
        }
        // The hand's whole path centred on the surface, give or take.
        let path = plan.hand(at: plan.strokeEnd)
        let centre = Vector(surface.width / 2, surface.height / 2)
            + Vector(random.uniform(-0.1...0.1) * surface.width, random.uniform(-0.1...0.1) * surface.height)
        plan.origin = centre - path / 2
        return plan
    }
}
