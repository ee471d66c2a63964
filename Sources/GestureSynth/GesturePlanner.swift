import GestureCore

/// Turns a gesture spec into finger tracks that look like a person made them:
/// fingers that land and lift a little apart, eased motion, a slight curve.
///
/// The ranges below describe ordinary gestures on a touchscreen; they are not
/// the recognizer's thresholds, and stay well inside them so that a synthesized
/// gesture is unambiguous.
struct GesturePlanner {
    let surface: Surface
    var random: SeededRandom
    /// What `shape NAME` draws: the first template of that name (any of them, by the seed).
    var shapes = BuiltinShapes.templates

    /// Fingers of one hand sit about this far apart, mm.
    static let fingerSpacing: ClosedRange<Double> = 14...19
    static let landingSpread: ClosedRange<Double> = 0...0.04
    static let noise = 0.12

    /// `at`: where the hand's fingers land, their centroid, mm.
    mutating func plan(_ spec: GestureSpec, at place: Vector? = nil) -> [FingerTrack] {
        var tracks = planHand(spec)
        if let place, !tracks.isEmpty {
            let landed = tracks.reduce(Vector.zero) { $0 + $1.position(at: $1.lands) } / Double(tracks.count)
            let offset = place - landed
            tracks = tracks.map { track in
                var t = track
                t.motion = track.motion.moved(by: offset)
                return t
            }
        }
        guard let resting = spec.resting, resting > 0 else { return tracks }
        return restingContacts(resting, beside: tracks)
    }

    /// `count` contacts (a thumb, the heel of a palm) that land and settle before
    /// the hand's fingers, rest still beside them, and lift after them.
    private mutating func restingContacts(_ count: Int, beside hand: [FingerTrack]) -> [FingerTrack] {
        let lead = random.uniform(0.3...0.45)
        var tracks = hand.map { track -> FingerTrack in
            var t = track
            t.lands += lead
            t.lifts += lead
            t.moveStart += lead
            t.moveEnd += lead
            return t
        }
        let end = tracks.map(\.lifts).max() ?? lead
        // Everywhere the hand's fingers go, to keep the resting contacts clear of them.
        var path: [Vector] = []
        for track in hand {
            for k in 0...8 { path.append(track.position(at: track.lands + (track.lifts - track.lands) * Double(k) / 8)) }
        }
        var spots: [Vector] = []
        for _ in 0..<count {
            guard let spot = restingSpot(clearOf: path + spots) else { break }
            spots.append(spot)
            let lands = random.uniform(0...0.05)
            let drift = Vector(random.jitter(0.15), random.jitter(0.15))
            tracks.append(FingerTrack(
                lands: lands, lifts: end + random.uniform(0.05...0.3),
                motion: .stroke(from: spot, to: spot + drift, bend: 0),
                moveStart: lands, moveEnd: end, easing: .smooth, noise: GesturePlanner.noise))
        }
        return tracks
    }

    /// A place near the bottom edge (where a thumb or a palm's heel rests), or
    /// failing that the top, at least 30 mm from every point of `avoid`.
    private mutating func restingSpot(clearOf avoid: [Vector]) -> Vector? {
        for y in [surface.height - random.uniform(6...12), random.uniform(6...12)] {
            for _ in 0..<24 {
                let p = Vector(random.uniform(15...(surface.width - 15)), y)
                if avoid.allSatisfy({ $0.distance(to: p) >= 30 }) { return p }
            }
        }
        return nil
    }

    private mutating func planHand(_ spec: GestureSpec) -> [FingerTrack] {
        let fingers: Int
        switch spec.fingers {
        case .exactly(let n): fingers = n
        case .any: fingers = Int.random(in: spec.kind == .pinch || spec.kind == .rotate ? 2...3 : 1...3, using: &random)
        }
        switch spec.kind {
        case .swipe:
            let direction = spec.direction ?? Direction.cardinals[Int.random(in: 0..<4, using: &random)]
            return stroke(fingers: fingers, angle: direction.screenAngle ?? 0, wobble: direction.isDiagonal ? 4 : 8,
                          length: random.uniform(25...55), duration: random.uniform(0.12...0.28), easing: .flick, start: nil)
        case .edgeSwipe:
            let edge = spec.edge ?? Edge.allCases[Int.random(in: 0..<4, using: &random)]
            let direction = Direction.inward(from: edge)
            return stroke(fingers: fingers, angle: direction.screenAngle ?? 0, wobble: 6,
                          length: random.uniform(30...50), duration: random.uniform(0.15...0.3), easing: .flick,
                          start: edgeStart(edge))
        case .pan:
            let direction = spec.direction ?? Direction.cardinals[Int.random(in: 0..<4, using: &random)]
            let length = random.uniform(30...60)
            // A deliberate drag: slower than a swipe, but under way well before a
            // long press's half second.
            let speed = random.uniform(30...60)
            return stroke(fingers: fingers, angle: direction.screenAngle ?? 0, wobble: 6,
                          length: length, duration: length / speed, easing: .smooth, start: nil)
        case .tap:
            return taps(count: spec.taps, fingers: fingers)
        case .longPress:
            return hold(fingers: fingers, duration: random.uniform(0.8...1.2))
        case .pinch:
            let out = spec.direction == .out || (spec.direction == nil && random.chance(0.5))
            let r0 = random.uniform(out ? 12...18 : 24...32)
            let factor = out ? random.uniform(1.6...2.0) : random.uniform(0.45...0.6)
            return orbit(fingers: fingers, radius: (r0, r0 * factor), turn: random.jitter(2), duration: random.uniform(0.35...0.6))
        case .shape:
            return shape(named: spec.name)
        case .click:
            return click(fingers: fingers, side: spec.side, edge: spec.edge)
        case .custom, .stroke, .chord:
            // A recognizer defined in Lua says nothing of what its gesture looks
            // like; a mouse stroke is no touch (synth draws touches only).
            return []
        case .rotate:
            let clockwise = spec.direction == .clockwise || (spec.direction == nil && random.chance(0.5))
            let turn = random.uniform(50...90) * (clockwise ? 1 : -1)
            let r = random.uniform(18...26)
            return orbit(fingers: fingers, radius: (r, r * random.uniform(0.97...1.03)), turn: turn, duration: random.uniform(0.4...0.7))
        }
    }

    /// A point where a gesture of `reach` mm fits on the surface.
    private mutating func centre(margin: Double) -> Vector {
        let mx = min(margin, surface.width / 2 - 1)
        let my = min(margin, surface.height / 2 - 1)
        return Vector(random.uniform(mx...(surface.width - mx)), random.uniform(my...(surface.height - my)))
    }

    private mutating func edgeStart(_ edge: Edge) -> Vector {
        let inset = random.uniform(0.5...2.5)
        switch edge {
        case .left: return Vector(inset, random.uniform(40...(surface.height - 40)))
        case .right: return Vector(surface.width - inset, random.uniform(40...(surface.height - 40)))
        case .top: return Vector(random.uniform(60...(surface.width - 60)), inset)
        case .bottom: return Vector(random.uniform(60...(surface.width - 60)), surface.height - inset)
        }
    }

    /// Offsets of `n` fingers in a row across the direction of travel.
    private mutating func hand(_ n: Int, across angle: Double) -> [Vector] {
        let normal = Vector(cosDegrees(angle + 90), sinDegrees(angle + 90))
        let along = Vector(cosDegrees(angle), sinDegrees(angle))
        var offsets: [Vector] = []
        var position = 0.0
        for i in 0..<n {
            if i > 0 { position += random.uniform(GesturePlanner.fingerSpacing) }
            // Middle fingers reach a little further than the outer ones.
            let stagger = random.uniform(-4...4)
            offsets.append(normal * position + along * stagger)
        }
        let mean = offsets.reduce(Vector.zero, +) / Double(max(n, 1))
        return offsets.map { $0 - mean }
    }

    private mutating func stroke(
        fingers: Int, angle baseAngle: Double, wobble: Double, length: Double, duration: Double,
        easing: Easing, start: Vector?
    ) -> [FingerTrack] {
        let angle = baseAngle + random.uniform(-wobble...wobble)
        let d = Vector(cosDegrees(angle), sinDegrees(angle)) * length
        let offsets = hand(fingers, across: angle)
        let origin: Vector
        if let start {
            origin = start - (offsets.first ?? .zero)
        } else {
            let c = centre(margin: length / 2 + 12 + 10 * Double(fingers))
            origin = c - d / 2
        }
        // An edge swipe's first finger comes in from the bezel: it touches down at
        // the edge already moving.
        let fromEdge = start != nil
        let moveStart = fromEdge ? 0 : random.uniform(0.0...0.03)
        let moveEnd = moveStart + duration
        let bend = random.uniform(-0.08...0.08) * length
        return offsets.enumerated().map { i, offset in
            let from = origin + offset
            return FingerTrack(
                lands: fromEdge && i == 0 ? 0 : random.uniform(GesturePlanner.landingSpread),
                lifts: moveEnd + random.uniform(-0.015...0.03),
                motion: .stroke(from: from, to: from + d, bend: bend),
                moveStart: moveStart, moveEnd: moveEnd, easing: easing, noise: GesturePlanner.noise)
        }
    }

    /// One finger drawing a template, 40 to 60 mm across, at 70 to 110 mm/s
    /// along its path: a deliberate drawing, slower at its start than a swipe
    /// commits (`swipe_commit_speed`), so that no straight first part of it
    /// (a V's first leg) is taken for a swipe.
    private mutating func shape(named name: String?) -> [FingerTrack] {
        let candidates = shapes.filter { name == nil || $0.name == name }
        guard !candidates.isEmpty else { return [] }
        let template = candidates[Int.random(in: 0..<candidates.count, using: &random)]
        var points = template.stroke.points
        if template.anyDirection && !template.isLoop && random.chance(0.5) { points.reverse() }
        let size = random.uniform(40...60)
        let turn = random.uniform(-4...4)
        let c = centre(margin: size / 2 + 10)
        let (cosT, sinT) = (cosDegrees(turn), sinDegrees(turn))
        let placed = points.map { p in c + Vector(p.x * cosT - p.y * sinT, p.x * sinT + p.y * cosT) * size }
        let path = ShapePath(placed)
        let duration = path.length / random.uniform(70...110)
        let moveStart = random.uniform(0.02...0.05)
        let moveEnd = moveStart + duration
        return [FingerTrack(
            lands: 0, lifts: moveEnd + random.uniform(0.01...0.04),
            motion: .path(path), moveStart: moveStart, moveEnd: moveEnd, easing: .smooth, noise: GesturePlanner.noise)]
    }

    private mutating func taps(count: Int, fingers: Int) -> [FingerTrack] {
        var tracks: [FingerTrack] = []
        let offsets = hand(fingers, across: random.uniform(-30...30))
        var c = centre(margin: 30)
        var t = 0.0
        // Several fingers land and lift within 20 ms of each other and press at
        // least 60 ms: down together for at least half of the longest press,
        // so never a roll of one-finger taps (`TapRoll`). One finger keeps the
        // wider ranges, and every range takes one draw, so one-finger taps are
        // what they always were.
        let pressRange: ClosedRange<Double> = fingers > 1 ? 0.06...0.12 : 0.04...0.12
        let spread: ClosedRange<Double> = fingers > 1 ? 0...0.02 : 0...0.03
        for _ in 0..<max(count, 1) {
            let press = random.uniform(pressRange)
            for offset in offsets {
                let p = c + offset
                let lands = t + random.uniform(spread)
                tracks.append(FingerTrack(
                    lands: lands, lifts: t + press + random.uniform(spread),
                    motion: .stroke(from: p, to: p + Vector(random.jitter(0.3), random.jitter(0.3)), bend: 0),
                    moveStart: lands, moveEnd: t + press, easing: .smooth, noise: GesturePlanner.noise))
            }
            t += press + 0.03 + random.uniform(0.08...0.16)
            c += Vector(random.jitter(1), random.jitter(1))
        }
        return tracks
    }

    /// Fingers resting still where a click of `side` and `edge` is made;
    /// `Synthesizer` presses the button once they are all down.
    private mutating func click(fingers: Int, side: Edge?, edge: Edge?) -> [FingerTrack] {
        var c = centre(margin: 30)
        switch side {
        case .left?: c.x = random.uniform(30...(surface.width / 2 - 25))
        case .right?: c.x = random.uniform((surface.width / 2 + 25)...(surface.width - 30))
        case .top?: c.y = random.uniform(25...(surface.height / 2 - 20))
        case .bottom?: c.y = random.uniform((surface.height / 2 + 20)...(surface.height - 25))
        case nil: break
        }
        var offsets = hand(fingers, across: random.uniform(-30...30))
        if let edge {
            // A row along the edge, each finger within its zone.
            let inset = random.uniform(1...3)
            let along = edge == .top || edge == .bottom ? Vector(1, 0) : Vector(0, 1)
            offsets = (0..<fingers).map { along * (Double($0) - Double(fingers - 1) / 2) * 16 }
            switch edge {
            case .left: c.x = inset
            case .right: c.x = surface.width - inset
            case .top: c.y = inset
            case .bottom: c.y = surface.height - inset
            }
        }
        let duration = random.uniform(0.25...0.4)
        return offsets.map { offset in
            let p = c + offset
            let lands = random.uniform(0...0.03)
            return FingerTrack(lands: lands, lifts: duration + random.uniform(0...0.03), motion: .stroke(from: p, to: p, bend: 0),
                               moveStart: lands, moveEnd: duration, easing: .smooth, noise: edge == nil ? GesturePlanner.noise : 0)
        }
    }

    private mutating func hold(fingers: Int, duration: Double) -> [FingerTrack] {
        let offsets = hand(fingers, across: random.uniform(-30...30))
        let c = centre(margin: 30)
        let drift = Vector(random.jitter(0.6), random.jitter(0.6))
        return offsets.map { offset in
            let p = c + offset
            let lands = random.uniform(0...0.03)
            return FingerTrack(
                lands: lands, lifts: duration + random.uniform(0...0.03),
                motion: .stroke(from: p, to: p + drift, bend: 0),
                moveStart: lands, moveEnd: duration, easing: .smooth, noise: GesturePlanner.noise)
        }
    }

    private mutating func orbit(fingers: Int, radius: (Double, Double), turn: Double, duration: Double) -> [FingerTrack] {
        let c = centre(margin: max(radius.0, radius.1) + 10)
        let base = random.uniform(0...360)
        let moveStart = random.uniform(0.04...0.08)
        let moveEnd = moveStart + duration
        return (0..<fingers).map { i in
            let a = base + 360 * Double(i) / Double(fingers) + random.uniform(-12...12)
            let r = radius.0 * random.uniform(0.9...1.1)
            let scale = radius.1 / radius.0
            return FingerTrack(
                lands: random.uniform(GesturePlanner.landingSpread),
                lifts: moveEnd + random.uniform(0.0...0.04),
                motion: .orbit(center: c, radius: (r, r * scale), angle: (a, a + turn)),
                moveStart: moveStart, moveEnd: moveEnd, easing: .smooth, noise: GesturePlanner.noise)
        }
    }
}
