/// Wandering, as shape matching needs it: a warp distance is an average, so a
/// scribble can lie close to a template along most of its way and still stray
/// far from it somewhere, a hook off the end of a bracket, a bulge off the
/// side of a triangle. People drawing a shape keep near it all the way
/// (docs/shapes.md, "Wandering").
///
/// The stray of a stroke from a template is the farthest any of its
/// resampled points lies from the template's path (the nearest segment of
/// it), both normalized as the matcher sees them (larger side 1, so it is a
/// share of the stroke's size), the stroke turned as the matcher may turn it
/// to meet a built-in shape. Only built-in matches that score under
/// `checkedBelow` are asked: a close match is the shape whatever its stray.
public enum ShapeStray {
    /// Matches that score this or more are never refused for straying. Set on
    /// the tuning drawers and scribbles (seed 99): over it, drawers' strays
    /// pass the limit as often as scribbles' do (0.84 loses a tuning delete
    /// mark at 0.8201 for one scribble more, 0.86 sixteen drawings for five).
    public static let checkedBelow = 0.82
    /// The farthest a point may lie from the template's path, as a share of
    /// the stroke's size: 1 in 100 tuning drawings of a shape stray 0.16
    /// (circles) to 0.23 (question marks) at most.
    public static let farthest = 0.25

    /// The stray, as a failed measurement, when a built-in match scoring
    /// `score` strays farther than `farthest` from every built-in template
    /// named `name`; nil when it does not, or when none is built in.
    public static func refusal(_ stroke: ShapeStroke, name: String, score: Double, templates: [ShapeTemplate]) -> Measurement? {
        guard score < checkedBelow, let stray = stray(of: stroke, fromTemplatesNamed: name, in: templates), stray > farthest else { return nil }
        return Measurement("farthest from its path (share of its size)", stray, .maximum, farthest, unit: "", key: nil)
    }

    /// The least stray of the stroke from any built-in template named `name`
    /// (a rectangle has two), over the variants the matcher would warp; nil
    /// when none is built in (a taught shape replaced it).
    public static func stray(of stroke: ShapeStroke, fromTemplatesNamed name: String, in templates: [ShapeTemplate]) -> Double? {
        var least: Double?
        for template in templates where template.name == name && template.turnsToMeet {
            for i in ShapeMatcher.promising(template.variants, for: stroke) {
                let variant = template.variants[i]
                var d = stray(of: stroke, from: variant)
                let turn = stroke.alignment(to: variant, limit: ShapeMatcher.maxSlant)
                if abs(turn) >= 0.5 { d = min(d, stray(of: stroke.rotated(degrees: turn), from: variant)) }
                least = min(least ?? d, d)
            }
        }
        return least
    }

    /// The farthest of `stroke`'s points from the polyline through `path`'s.
    static func stray(of stroke: ShapeStroke, from path: ShapeStroke) -> Double {
        var farthest = 0.0
        for p in stroke.points { farthest = max(farthest, distance(from: p, toPolyline: path.points)) }
        return farthest
    }

    /// The distance from `p` to the nearest segment of the polyline.
    static func distance(from p: Vector, toPolyline line: [Vector]) -> Double {
        guard let first = line.first else { return .infinity }
        var least = p.distanceSquared(to: first)
        for i in 1..<max(1, line.count) {
            let a = line[i - 1], b = line[i]
            let ab = b - a
            let l2 = ab.dot(ab)
            let t = l2 > 0 ? max(0, min(1, (p - a).dot(ab) / l2)) : 0
            least = min(least, p.distanceSquared(to: a + ab * t))
        }
        return least.squareRoot()
    }
}
