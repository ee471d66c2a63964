import GestureCore

/// How progress through a motion maps to time.
enum Easing: Sendable {
    /// Accelerates and is still moving at the end: a flick that lifts in motion.
    case flick
    /// Starts and ends at rest: a deliberate drag, pinch or turn.
    case smooth
    /// Speeds up until the lift, from 0.4 to 1.6 times its mean speed: a flick
    /// thrown off a touchpad (the ChromeOS fast swipes' steps grow to their
    /// last report, 2.8, 4.8 and 8.1 mm at 115 Hz).
    case quickening

    func apply(_ u: Double) -> Double {
        let x = min(max(u, 0), 1)
        let s = x * x * (3 - 2 * x)
        switch self {
        case .flick: return 0.5 * x + 0.5 * s
        case .smooth: return s
        case .quickening: return x * (0.4 + 0.6 * x)
        }
    }
}

/// Where a finger is over time, in millimetres.
enum Motion: Sendable {
    case still(Vector)
    /// A straight path from `from` to `to`, bowed sideways by `bend` mm at its middle.
    case stroke(from: Vector, to: Vector, bend: Double)
    /// Around `center`: radius and angle (degrees, clockwise on screen) change together.
    case orbit(center: Vector, radius: (Double, Double), angle: (Double, Double))
    /// Along a polyline, at an even pace along its length: a shape drawn.
    case path(ShapePath)

    /// The same motion, `offset` away.
    func moved(by offset: Vector) -> Motion {
        switch self {
        case .still(let v): return .still(v + offset)
        case let .stroke(from, to, bend): return .stroke(from: from + offset, to: to + offset, bend: bend)
        case let .orbit(center, radius, angle): return .orbit(center: center + offset, radius: radius, angle: angle)
        case .path(let path): return .path(ShapePath(path.points.map { $0 + offset }))
        }
    }

    func position(progress p: Double) -> Vector {
        switch self {
        case .still(let v):
            return v
        case let .stroke(from, to, bend):
            let d = to - from
            let length = d.length
            guard length > 0 else { return from }
            let normal = Vector(-d.y / length, d.x / length)
            return from + d * p + normal * (bend * sinDegrees(180 * p))
        case let .orbit(center, radius, angle):
            let r = radius.0 + (radius.1 - radius.0) * p
            let a = angle.0 + (angle.1 - angle.0) * p
            return center + Vector(cosDegrees(a), sinDegrees(a)) * r
        case .path(let path):
            return path.point(at: p)
        }
    }
}

/// One finger of a planned gesture: when it lands and lifts (seconds from the
/// gesture's start) and how it moves in between.
struct FingerTrack: Sendable {
    var lands: Double
    var lifts: Double
    var motion: Motion
    var moveStart: Double
    var moveEnd: Double
    var easing: Easing
    /// Standard deviation of sensor noise, mm.
    var noise: Double

    func position(at t: Double) -> Vector {
        let span = moveEnd - moveStart
        let u = span > 0 ? (t - moveStart) / span : (t >= moveEnd ? 1 : 0)
        return motion.position(progress: easing.apply(u))
    }
}

/// A polyline walked by the share of its length.
struct ShapePath: Sendable {
    let points: [Vector]
    let distances: [Double]

    init(_ points: [Vector]) {
        self.points = points.isEmpty ? [.zero] : points
        var d = [0.0]
        for i in 1..<max(self.points.count, 1) { d.append(d[i - 1] + self.points[i].distance(to: self.points[i - 1])) }
        distances = d
    }

    var length: Double { distances[distances.count - 1] }

    func point(at share: Double) -> Vector {
        let target = min(max(share, 0), 1) * length
        guard length > 0 else { return points[0] }
        var i = 1
        while i < points.count - 1, distances[i] < target { i += 1 }
        let span = distances[i] - distances[i - 1]
        let f = span > 0 ? (target - distances[i - 1]) / span : 0
        return points[i - 1] + (points[i] - points[i - 1]) * f
    }
}
