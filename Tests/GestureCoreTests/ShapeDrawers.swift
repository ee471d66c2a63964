@testable import GestureCore

/// Simulated people drawing the 16 shapes of the $1 study, each with habits of
/// their own, from a seed: how big, how fast, how slanted and how squashed they
/// draw; how shaky, whether they overshoot a corner or round it off, leave a
/// circle open or go past its start; where they begin a closed shape and which
/// way round; how long the first leg of their check is; how often the pen
/// lands or lifts with a small hook; how often the sensor samples.
///
/// The shapes are this file's own idea of each shape, as parametric paths;
/// no recorded stroke is used (docs/shapes.md, "How well it works"). Seeds
/// 1–40 are the drawers the limits were tuned on; the evaluation holds out
/// 1001–1040.
struct ShapeDrawer {
    struct Habits {
        /// Larger side of the drawing, mm.
        var size: Double
        /// Mean speed along the path, in sizes per second.
        var pace: Double
        /// Degrees clockwise on screen.
        var slant: Double
        /// Width over height, applied after the shape's own proportions.
        var aspect: Double
        /// Hand tremor, mm (low-passed), and sensor noise, mm (each sample).
        var tremor: Double
        var noise: Double
        /// Past a corner before turning, as a share of the next leg.
        var overshoot: Double
        /// How much of a corner is cut off, as a share of the shorter leg.
        var rounding: Double
        /// How far a closed shape goes round: under 1 leaves a gap.
        var laps: Double
        /// Samples a second.
        var rate: Double
        /// Chance of a small hook where the pen lands, and where it lifts.
        var hookChance: Double
        /// How much each drawing differs from the person's last, as a share of the size.
        var wobble: Double
        /// Per shape choices: each a number in 0..<1 that the shape reads as it likes.
        var style: [Double]
    }

    let seed: UInt64
    let habits: Habits
    private var random: XorShift

    init(seed: UInt64) {
        self.seed = seed
        var r = XorShift(seed: seed &* 7919 &+ 13)
        // Sizes spread evenly on a log scale, so small and large hands are as common.
        let size = 10 * pow2(r.range(0.3, 2.8))
        habits = Habits(
            size: size,
            pace: r.range(1.2, 5.5),
            slant: r.range(-25, 25),
            aspect: pow2(r.range(-0.45, 0.45)),
            tremor: r.range(0, 0.4),
            noise: r.range(0.05, 0.3),
            overshoot: r.next() < 0.4 ? r.range(0, 0.12) : 0,
            rounding: r.range(0, 0.3),
            laps: r.next() < 0.5 ? r.range(0.85, 1.0) : r.range(1.0, 1.18),
            rate: [60.0, 80, 100, 125, 140, 200][Int(r.next() * 6) % 6],
            hookChance: r.range(0, 0.5),
            wobble: r.range(0.01, 0.05),
            style: (0..<12).map { _ in r.next() })
        random = XorShift(seed: seed &* 104_729 &+ 7)
    }

    /// One drawing of `shape`, as frames of one finger (time from 1 s) and the points it passed.
    struct Drawing {
        var shape: String
        var frames: [TouchFrame]
        var points: [Vector] { frames.compactMap { $0.touches.first?.position } }
    }

    mutating func draw(_ shape: String) -> Drawing {
        var outline = ShapeDrawer.outline(shape, style: habits.style)
        let variation = habits.wobble
        // Each drawing a little different: the outline bent by a smooth field, the size and slant changed.
        let bend = (0..<8).map { _ in random.range(-1, 1) }
        outline.points = outline.points.map { p in
            p + Vector(sin(3 * p.x * bend[0] + 3 * p.y * bend[1] + 3 * bend[2]), sin(3 * p.x * bend[4] + 3 * p.y * bend[5] + 3 * bend[6])) * variation
        }
        if outline.closed {
            // Closed shapes go round `laps` times: the start repeats, then goes on or stops short.
            let laps = habits.laps + random.range(-0.04, 0.04)
            outline = outline.lapped(laps)
        }
        let size = min(80, max(10, habits.size * random.range(0.85, 1.15)))
        let slant = habits.slant + random.range(-5, 5)
        let aspect = habits.aspect * random.range(0.92, 1.08)
        var path = outline.path(overshoot: habits.overshoot * random.range(0.5, 1.5), rounding: habits.rounding * random.range(0.5, 1.5))
        path.points = ShapeDrawer.placed(path.points, size: size, slant: slant, aspect: aspect, centre: Vector(125, 75))
        if random.next() < habits.hookChance { path.hook(atStart: true, length: min(2.5, 0.08 * size) * random.range(0.4, 1), turn: random.range(-150, 150)) }
        if random.next() < habits.hookChance { path.hook(atStart: false, length: min(2.5, 0.08 * size) * random.range(0.4, 1), turn: random.range(-150, 150)) }
        let pace = habits.pace * random.range(0.85, 1.15)
        return Drawing(shape: shape, frames: frames(path, duration: path.length / (pace * size)))
    }

    // MARK: - Timing and sampling

    /// The path walked in `duration`, slowing into each corner and at the ends
    /// as hands do, sampled at the person's rate with tremor and noise.
    private mutating func frames(_ path: Path, duration: Double) -> [TouchFrame] {
        let points = path.points
        var arc = [0.0]
        for i in 1..<points.count { arc.append(arc[i - 1] + points[i].distance(to: points[i - 1])) }
        let total = arc[arc.count - 1]
        // Time along the path: each step costs more near a stop (corner or end).
        let stops = [0.0] + path.corners.map { arc[$0] } + [total]
        var time = [0.0]
        for i in 1..<points.count {
            let s = (arc[i] + arc[i - 1]) / 2
            let nearest = stops.map { abs($0 - s) }.min() ?? total
            let speed = 0.25 + 0.75 * min(1, nearest / max(0.15 * total, 1e-9))
            time.append(time[i - 1] + (arc[i] - arc[i - 1]) / speed)
        }
        let scale = duration / max(time[time.count - 1], 1e-9)
        time = time.map { $0 * scale }
        var frames: [TouchFrame] = []
        var tremor = Vector.zero
        let steps = max(2, Int((duration * habits.rate).rounded(.up)))
        var j = 1
        for k in 0...steps {
            let t = min(Double(k) / habits.rate, duration)
            while j < time.count - 1, time[j] < t { j += 1 }
            let span = time[j] - time[j - 1]
            let f = span > 0 ? min(max((t - time[j - 1]) / span, 0), 1) : 1
            let exact = points[j - 1] + (points[j] - points[j - 1]) * f
            tremor = tremor * 0.8 + Vector(random.range(-1, 1), random.range(-1, 1)) * (habits.tremor * 0.6)
            let noise = Vector(random.range(-1, 1), random.range(-1, 1)) * habits.noise
            let phase: TouchPhase = k == 0 ? .began : (k == steps ? .ended : .moved)
            frames.append(TouchFrame(time: 1 + t, touches: [Touch(id: 1, position: exact + tremor + noise, phase: phase)],
                                     surface: Surface(width: 250, height: 150)))
            if t >= duration { break }
        }
        if let last = frames.last, last.touches.first?.phase != .ended, let p = last.touches.first?.position {
            frames.append(TouchFrame(time: last.time + 1 / habits.rate, touches: [Touch(id: 1, position: p, phase: .ended)], surface: last.surface))
        }
        return frames
    }

    /// Unit-box points scaled so the larger side is `size` mm, squashed, slanted and centred.
    static func placed(_ points: [Vector], size: Double, slant: Double, aspect: Double, centre: Vector) -> [Vector] {
        let ax = aspect.squareRoot(), ay = 1 / aspect.squareRoot()
        let c = cosDegrees(slant), s = sinDegrees(slant)
        var moved = points.map { p -> Vector in
            let q = Vector((p.x - 0.5) * ax, (p.y - 0.5) * ay)
            return Vector(q.x * c - q.y * s, q.x * s + q.y * c)
        }
        var lo = Vector(Double.infinity, Double.infinity), hi = Vector(-Double.infinity, -Double.infinity)
        for p in moved {
            lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
        }
        let side = max(hi.x - lo.x, hi.y - lo.y, 1e-9)
        let mid = (lo + hi) / 2
        moved = moved.map { centre + ($0 - mid) * (size / side) }
        return moved
    }

    // MARK: - The shapes

    /// A shape as control points in a unit box (y down): straight legs between
    /// corners, or a smooth curve through points that are not corners.
    struct Outline {
        var points: [Vector]
        /// Which points are corners; the path is a spline between them.
        var corners: Set<Int>
        var closed = false

        /// Round the loop `laps` times, starting where it starts.
        func lapped(_ laps: Double) -> Outline {
            let ring = LoopPath(points + [points[0]])
            let n = 120
            var out: [Vector] = []
            var kept = Set<Int>()
            // Corners of a polygon stay corners: walk its vertices, then cut the last leg.
            if corners.count == points.count {
                var d = [0.0]
                let closedPoints = points + [points[0]]
                for i in 1..<closedPoints.count { d.append(d[i - 1] + closedPoints[i].distance(to: closedPoints[i - 1])) }
                let length = d[d.count - 1]
                let target = laps * length
                var walked = 0.0
                var i = 0
                out.append(points[0])
                kept.insert(0)
                while walked < target {
                    let a = closedPoints[i % points.count], b = closedPoints[i % points.count + 1]
                    let leg = a.distance(to: b)
                    if walked + leg >= target {
                        out.append(a + (b - a) * ((target - walked) / max(leg, 1e-9)))
                        break
                    }
                    walked += leg
                    out.append(b)
                    kept.insert(out.count - 1)
                    i += 1
                }
                return Outline(points: out, corners: kept)
            }
            for k in 0...n {
                out.append(ring.point(at: laps * Double(k) / Double(n)))
            }
            return Outline(points: out, corners: [])
        }

        /// The path: corners cut by `rounding` or overshot by `overshoot`, curves as splines.
        func path(overshoot: Double, rounding: Double) -> Path {
            // The plain path first: a line or a spline between each two corners.
            var raw: [Vector] = [points[0]]
            var marks: [Int] = []
            var piece: [Vector] = [points[0]]
            for i in 1..<points.count {
                piece.append(points[i])
                guard (corners.contains(i) && i < points.count - 1) || i == points.count - 1 else { continue }
                let dense = piece.count > 2 ? BuiltinShapes.spline(piece) : ShapeDrawer.dense(piece[0], piece[1])
                raw += dense.dropFirst()
                if i < points.count - 1 { marks.append(raw.count - 1) }
                piece = [points[i]]
            }
            var out: [Vector] = []
            var outMarks: [Int] = []
            var k = 0
            for (n, c) in marks.enumerated() {
                let prev = n > 0 ? marks[n - 1] : 0
                let next = n + 1 < marks.count ? marks[n + 1] : raw.count - 1
                let before = Array(raw[prev...c]), after = Array(raw[c...next])
                let nextLeg = ShapeDrawer.length(after)
                let cut = rounding * min(ShapeDrawer.length(before), nextLeg) * 0.5
                while k < c, out.isEmpty || raw[k].distance(to: raw[c]) >= cut { out.append(raw[k]); k += 1 }
                let incoming = raw[c] - raw[max(c - 1, 0)]
                let unit = incoming.length > 0 ? incoming / incoming.length : Vector(1, 0)
                if overshoot > 0 {
                    out.append(raw[c])
                    out.append(raw[c] + unit * (overshoot * nextLeg))
                    outMarks.append(out.count - 1)
                    k = c + 1
                } else if cut > 1e-3 {
                    let a = ShapeDrawer.point(alongBack: before, by: cut), b = ShapeDrawer.point(along: after, by: cut)
                    for s in 0...6 {
                        let t = Double(s) / 6
                        out.append(a * ((1 - t) * (1 - t)) + raw[c] * (2 * t * (1 - t)) + b * (t * t))
                        if s == 3 { outMarks.append(out.count - 1) }
                    }
                    k = c + 1
                    while k < next, raw[k].distance(to: raw[c]) < cut { k += 1 }
                } else {
                    out.append(raw[c])
                    outMarks.append(out.count - 1)
                    k = c + 1
                }
            }
            while k < raw.count { out.append(raw[k]); k += 1 }
            return Path(points: out, corners: outMarks)
        }
    }

    struct Path {
        var points: [Vector]
        var corners: [Int]
        var length: Double { ShapeDrawer.length(points) }

        /// A small turn where the pen lands or lifts.
        mutating func hook(atStart: Bool, length: Double, turn: Double) {
            guard points.count >= 2 else { return }
            let (end, next) = atStart ? (points[0], points[1]) : (points[points.count - 1], points[points.count - 2])
            let away = end - next
            let unit = away.length > 0 ? away / away.length : Vector(1, 0)
            let c = cosDegrees(turn), s = sinDegrees(turn)
            let dir = Vector(unit.x * c - unit.y * s, unit.x * s + unit.y * c)
            let tip = end + dir * length
            if atStart {
                points.insert(tip, at: 0)
                corners = [1] + corners.map { $0 + 1 }
            } else {
                corners.append(points.count - 1)
                points.append(tip)
            }
        }
    }

    static func dense(_ a: Vector, _ b: Vector) -> [Vector] {
        (0...12).map { a + (b - a) * (Double($0) / 12) }
    }

    static func length(_ points: [Vector]) -> Double {
        var l = 0.0
        for i in points.indices.dropFirst() { l += points[i].distance(to: points[i - 1]) }
        return l
    }

    /// The point `d` along the polyline from its start.
    static func point(along points: [Vector], by d: Double) -> Vector {
        var walked = 0.0
        for i in points.indices.dropFirst() {
            let l = points[i].distance(to: points[i - 1])
            if walked + l >= d, l > 0 { return points[i - 1] + (points[i] - points[i - 1]) * ((d - walked) / l) }
            walked += l
        }
        return points[points.count - 1]
    }

    /// The point `d` back along the polyline from its end.
    static func point(alongBack points: [Vector], by d: Double) -> Vector {
        point(along: points.reversed(), by: d)
    }

    /// Each shape as this person draws it. `style` values are in 0..<1.
    static func outline(_ shape: String, style u: [Double]) -> Outline {
        func v(_ x: Double, _ y: Double) -> Vector { Vector(x, y) }
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
        func polygon(_ p: [Vector], closed: Bool = false) -> Outline {
            Outline(points: p, corners: Set(p.indices), closed: closed)
        }
        /// Reversed when the person draws it the other way round.
        func way(_ o: Outline, _ flip: Bool) -> Outline {
            guard flip else { return o }
            let n = o.points.count
            return Outline(points: o.points.reversed(), corners: Set(o.corners.map { n - 1 - $0 }), closed: o.closed)
        }
        /// A closed polygon begun at vertex `start`.
        func rotated(_ p: [Vector], start: Int) -> [Vector] {
            let k = start % p.count
            return Array(p[k...] + p[..<k])
        }
        switch shape {
        case "arrow":
            // A shaft up to the right, then the head: one barb, back to the tip, the other.
            let tip = v(1, 0), tail = v(0, lerp(0.7, 1, u[0]))
            let barb = lerp(0.3, 0.55, u[1]), spread = lerp(20, 40, u[2])
            let shaft = tip - tail
            let back = shaft / -shaft.length
            func turned(_ a: Double) -> Vector { Vector(back.x * cosDegrees(a) - back.y * sinDegrees(a), back.x * sinDegrees(a) + back.y * cosDegrees(a)) }
            let one = tip + turned(spread) * barb, two = tip + turned(-spread) * barb
            return polygon([tail, tip, one, tip, two])
        case "caret", "v":
            let apex = lerp(0.35, 0.65, u[0]), depth = lerp(0.6, 1.3, u[1])
            let left = lerp(0.85, 1, u[2]), right = lerp(0.85, 1, u[3])
            let points = [v(0, depth * (1 - left)), v(apex, depth), v(1, depth * (1 - right))]
            let o = polygon(shape == "v" ? points : points.map { v($0.x, depth - $0.y) })
            return way(o, u[4] < 0.15)
        case "check":
            // A short leg down, then a long one up: how short differs most from person to person.
            let shortLeg = lerp(0.15, 0.5, u[0]), down = lerp(35, 65, u[1]), up = lerp(45, 70, u[2])
            let corner = v(0, 0) + Vector(cosDegrees(down), sinDegrees(down)) * shortLeg
            let end = corner + Vector(cosDegrees(-up), sinDegrees(-up)) * 1
            return polygon([v(0, 0), corner, end])
        case "circle":
            // Most begin at the top; some at the side. Either way round.
            let start = u[0] < 0.7 ? lerp(-120, -60, u[1]) : lerp(-180, 180, u[1])
            let flip = u[2] < 0.5 ? 1.0 : -1.0
            let points = (0..<48).map { i -> Vector in
                let a = start + flip * 360 * Double(i) / 48
                return v(0.5 + 0.5 * cosDegrees(a), 0.5 + 0.5 * sinDegrees(a))
            }
            return Outline(points: points, corners: [], closed: true)
        case "delete_mark":
            // The bottom may stop short of the far corner, and the last leg end low.
            let short = lerp(0, 0.25, u[1]), low = lerp(0, 0.3, u[2])
            let o = polygon([v(0, 0), v(1, 1), v(short, 1), v(1, low)])
            return u[0] < 0.3 ? polygon(o.points.map { v(1 - $0.x, $0.y) }) : o
        case "left_curly_brace", "right_curly_brace":
            // Ends out to the right, a spine, and a point out to the left at the middle.
            let end = lerp(0.3, 0.6, u[0]), spine = lerp(0.12, 0.3, u[1])
            var points = [v(end, 0), v(spine + 0.03, 0.06), v(spine, 0.4), v(0, 0.5), v(spine, 0.6), v(spine + 0.03, 0.94), v(end, 1)]
            if shape == "right_curly_brace" { points = points.map { v(1 - $0.x, $0.y) } }
            // Some draw the middle as a point, others as a smooth bump.
            return way(Outline(points: points, corners: u[3] < 0.5 ? [3] : [], closed: false), u[4] < 0.1)
        case "left_sq_bracket", "right_sq_bracket":
            let arm = lerp(0.15, 0.6, u[0]), bottomArm = arm * lerp(0.8, 1.2, u[1])
            var points = [v(arm, 0), v(0, 0), v(0, 1), v(bottomArm, 1)]
            if shape == "right_sq_bracket" { points = points.map { v(1 - $0.x, $0.y) } }
            return way(polygon(points), u[4] < 0.1)
        case "pigtail":
            // From the lower left, up into a loop over itself, out to the lower right.
            let loop = lerp(0.3, 0.5, u[0]), rise = lerp(0.5, 0.9, u[1])
            let c = v(0.5, 1 - rise)
            let points = [v(0, 1), v(0.4, 0.9), v(c.x + loop * 0.45, c.y + loop * 0.5), v(c.x + loop * 0.3, c.y - loop * 0.4),
                          v(c.x - loop * 0.25, c.y - loop * 0.35), v(c.x - loop * 0.3, c.y + loop * 0.3), v(c.x + 0.1, c.y + loop * 0.9), v(1, 0.95)]
            return way(Outline(points: points, corners: [], closed: false), u[4] < 0.2)
        case "question_mark":
            // The hook begins low or high, curls back in a little or a lot; then the stem.
            let width = lerp(0.6, 1, u[0]), stem = lerp(0.2, 0.45, u[1]), open = lerp(0.1, 0.45, u[2]), curl = lerp(0.5, 0.25, u[5])
            let top = 1 - stem
            let arc = [v(0, open), v(width * 0.45, 0), v(width, top * 0.3), v(width * 0.85, top * 0.7), v(width * curl, top)]
            var points = arc
            points.append(v(width * (curl - 0.02), top + stem * 0.4))
            points.append(v(width * (curl - 0.03), 1))
            let corners: Set<Int> = u[3] < 0.5 ? [arc.count - 1] : []
            return Outline(points: points, corners: corners, closed: false)
        case "rectangle":
            let w = lerp(0.9, 1.8, u[0])
            let corners = [v(0, 0), v(0, 1), v(w, 1), v(w, 0)]
            let start = u[1] < 0.6 ? 0 : Int(u[1] * 10) % 4
            let ring = rotated(corners, start: start)
            return way(polygon(ring, closed: true), u[2] < 0.5)
        case "star":
            let sharp = lerp(0, 0.1, u[0])
            let points = [v(0.2 - sharp, 1), v(0.5, 0), v(0.8 + sharp, 1), v(0, 0.38), v(1, 0.38)]
            return way(polygon(rotated(points, start: u[1] < 0.7 ? 0 : 1), closed: true), u[2] < 0.4)
        case "triangle":
            let apex = lerp(0.35, 0.65, u[0]), h = lerp(0.75, 1.1, u[1])
            let points = [v(apex, 0), v(0, h), v(1, h)]
            return way(polygon(rotated(points, start: u[2] < 0.6 ? 0 : 1 + Int(u[2] * 10) % 2), closed: true), u[3] < 0.5)
        case "x":
            let o = polygon([v(0, 0), v(1, 1), v(1, 0), v(0, 1)])
            return u[0] < 0.4 ? polygon(o.points.map { v(1 - $0.x, $0.y) }) : o
        default:
            return polygon([v(0, 0), v(1, 1)])
        }
    }
}

private func pow2(_ x: Double) -> Double { exp2(x) }

import Foundation
