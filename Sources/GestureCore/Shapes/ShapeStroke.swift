/// A stroke as shape matching sees it: resampled to a fixed number of points
/// evenly spaced along its path, its centroid moved to the origin and scaled so
/// that its larger side is 1 (one scale for both axes, so a line stays a line
/// and a wide rectangle stays wide), with the direction of travel at each point.
public struct ShapeStroke: Equatable, Sendable {
    public static let pointCount = 32

    public let points: [Vector]
    /// Unit vectors along the path, one per point (the last repeats).
    public let tangents: [Vector]

    /// Nil for a path that does not go anywhere: fewer than two points, or no length.
    public init?(path: [Vector]) {
        let finite = path.filter { $0.x.isFinite && $0.y.isFinite }
        guard finite.count >= 2, let even = ShapeStroke.resample(finite, count: ShapeStroke.pointCount) else { return nil }
        self.init(resampled: even)
    }

    /// Points already evenly spaced (a template's variants, made from a loop).
    init(resampled even: [Vector]) {
        var centroid = Vector.zero
        for p in even { centroid += p }
        centroid = centroid / Double(even.count)
        var lo = Vector(Double.infinity, Double.infinity), hi = Vector(-Double.infinity, -Double.infinity)
        for p in even {
            lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
        }
        let side = max(hi.x - lo.x, hi.y - lo.y, 1e-9)
        self.init(normalized: even.map { ($0 - centroid) / side })
    }

    /// Points already centred and scaled.
    init(normalized points: [Vector]) {
        self.points = points
        var t: [Vector] = []
        t.reserveCapacity(points.count)
        for i in 0..<(points.count - 1) {
            let d = points[i + 1] - points[i]
            let l = d.length
            t.append(l > 0 ? d / l : (t.last ?? Vector(1, 0)))
        }
        t.append(t.last ?? Vector(1, 0))
        tangents = t
    }

    public var reversed: ShapeStroke { ShapeStroke(normalized: points.reversed()) }

    /// Turned about its centroid, clockwise on screen.
    func rotated(degrees: Double) -> ShapeStroke {
        let c = cosDegrees(degrees), s = sinDegrees(degrees)
        return ShapeStroke(normalized: points.map { Vector($0.x * c - $0.y * s, $0.x * s + $0.y * c) })
    }

    /// The turn, within `limit` degrees either way, that brings its points
    /// closest to `other`'s point for point (in least squares, as Protractor
    /// aligns strokes): people slant a shape, but a turned caret is no v.
    func alignment(to other: ShapeStroke, limit: Double) -> Double {
        var dot = 0.0, cross = 0.0
        for i in 0..<min(points.count, other.points.count) {
            let p = points[i], q = other.points[i]
            dot += p.x * q.x + p.y * q.y
            cross += p.x * q.y - p.y * q.x
        }
        guard dot != 0 || cross != 0 else { return 0 }
        return min(max(atan2Degrees(cross, dot), -limit), limit)
    }

    /// How far apart its ends are, as a share of its larger side: small for a
    /// stroke that comes back to where it began.
    public var endGap: Double { points[0].distance(to: points[points.count - 1]) }

    /// `count` points evenly spaced along the path, first and last included; nil
    /// for a path with no length.
    public static func resampledPoints(_ path: [Vector], count: Int) -> [Vector]? {
        let finite = path.filter { $0.x.isFinite && $0.y.isFinite }
        guard finite.count >= 2, count >= 2 else { return nil }
        return resample(finite, count: count)
    }

    /// `count` points evenly spaced along the polyline, first and last included.
    static func resample(_ path: [Vector], count: Int) -> [Vector]? {
        var length = 0.0
        for i in 1..<path.count { length += path[i].distance(to: path[i - 1]) }
        guard length > 0, length.isFinite else { return nil }
        let step = length / Double(count - 1)
        var out: [Vector] = [path[0]]
        out.reserveCapacity(count)
        var carried = 0.0
        var previous = path[0]
        var i = 1
        while i < path.count, out.count < count - 1 {
            let next = path[i]
            let d = previous.distance(to: next)
            if carried + d >= step, d > 0 {
                let f = (step - carried) / d
                previous = previous + (next - previous) * f
                out.append(previous)
                carried = 0
            } else {
                carried += d
                previous = next
                i += 1
            }
        }
        while out.count < count { out.append(path[path.count - 1]) }
        return out
    }
}
