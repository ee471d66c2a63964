import GestureCore

/// One swipe of `TailSwipes`: when each finger lands and lifts, and the path
/// of the hand they ride on. Times are seconds from the first landing.
struct TailPlan {
    struct Finger {
        var lands: Double
        var lifts: Double
        /// Where it sits in the hand, from the hand's centre.
        var offset: Vector
        /// How far off its first report is: a touchpad's contact settles as the
        /// fingertip flattens, so its landing report is off by up to a few mm
        /// and the next one or two come back (`TailPlan.landingSettle`).
        var landingJitter = Vector.zero
        /// For this long before it lifts, the pad reports no more movement of
        /// it: the lightening touch drops out of the reports before its lift
        /// (the Atmel pad's fast swipes lift 20 ms after their last move).
        var fade = 0.0
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
        let finger = fingers[i]
        let settling = max(0, 1 - (t - finger.lands) / TailPlan.landingSettle)
        return origin + finger.offset + hand(at: t) + finger.landingJitter * settling
    }

    /// How long a landing contact takes to settle where the finger is, s:
    /// the landing report is off by its jitter, the next about a report later
    /// by a little of it (the ALPS pad: 2.2 mm, then 0.6 mm at 98 Hz).
    static let landingSettle = 0.012

    static func make(kind: TailSwipes.Kind, fingers n: Int, direction: Direction, profile: TailSwipes.Profile, random: inout SeededRandom) -> TailPlan {
        let surface = profile.surface
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
        case .flick:
            // A quick hand lands its fingers within 20 ms, touches down still
            // for 10-35 ms and throws the stroke off the pad.
            lands = (0..<n).map { _ in random.uniform(0...0.02) }
            strokeStart = random.uniform(0.01...0.035)
            easing = .quickening
            speed = random.uniform(150...400)
        }
        // Which finger of the hand lands first was shuffled with the offsets.
        lands[0] = 0

        let horizontal = abs(unit.x) >= abs(unit.y)
        let reach = ((horizontal ? surface.width : surface.height) - 10) * 0.85
        var length = min(kind == .flick ? random.uniform(12...28) : random.uniform(25...55), reach)
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
        if kind == .flick {
            plan.finishFlick(length: length, speed: speed, reach: reach, touchpad: profile == .touchpad, random: &random)
        } else {
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
        }
        // The hand's whole path centred on the surface, give or take.
        let path = plan.hand(at: plan.strokeEnd)
        let centre = Vector(surface.width / 2, surface.height / 2)
            + Vector(random.uniform(-0.1...0.1) * surface.width, random.uniform(-0.1...0.1) * surface.height)
        plan.origin = centre - path / 2
        return plan
    }
}

extension TailPlan {
    /// Most report-free time before a flick's lift, s (`Finger.fade`).
    static let longestFade = 0.025

    /// A flick's stroke lasts at least 50 ms and lifts in motion; on a touchpad
    /// each contact lands off by its jitter and fades out before its lift.
    /// Every finger still travels 13 mm (the swipe's 10 mm, and its landing
    /// jitter) after the last landing and before its last report (its lift
    /// less a frame of 60 Hz and any fade), so it has an evidence point.
    fileprivate mutating func finishFlick(length start: Double, speed: Double, reach: Double, touchpad: Bool, random: inout SeededRandom) {
        var length = start
        let unit = direction
        strokeEnd = strokeStart + max(length / speed, 0.05)
        let lastLanding = fingers.map(\.lands).max() ?? 0
        // The earliest a finger may lift, less a frame and the longest fade.
        let unreported = 0.01 + 0.017 + (touchpad ? TailPlan.longestFade : 0)
        while length < reach, (hand(at: strokeEnd - unreported) - hand(at: lastLanding)).length < 13 {
            length = min(length + 2, reach)
            stroke = unit * length
            strokeEnd = strokeStart + max(length / speed, 0.05)
        }
        for i in fingers.indices {
            fingers[i].lifts = strokeEnd + random.uniform(-0.01...0.005)
            guard touchpad else { continue }
            // The ALPS pad's landing reports sit 2.1-3.5 mm from its next, the
            // cyapa's up to 1.4 mm (once 5.1); the Atmel's, Elan's and bcm5974's 0.0-0.2 mm.
            let angle = random.uniform(0...360)
            fingers[i].landingJitter = Vector(cosDegrees(angle), sinDegrees(angle)) * random.uniform(0.1...2.5)
            fingers[i].fade = random.uniform(0...TailPlan.longestFade)
        }
    }
}
