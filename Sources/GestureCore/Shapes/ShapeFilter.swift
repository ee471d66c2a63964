/// Whether a finished drawing could be a shape at all, before it is matched:
/// the same test for a drawing at its lift and for one `shape add` would learn
/// (docs/shapes.md, "Is it a shape at all"). The limits were set on simulated
/// drawers of every size, slant and habit (Tests/GestureCoreTests/ShapeDrawers.swift),
/// not on the one person whose strokes we have.
public enum ShapeFilter {
    /// Why the drawing is no shape, or nil when it is worth matching.
    /// `path` is the swipe's view of the same movement.
    public static func refusal(of points: [Vector], path: StrokePath) -> TransitionCause? {
        if isStraight(points, path: path) { return .straightStroke }
        if thickness(of: points) < minThickness { return .flatStroke }
        return nil
    }

    /// Straight by the swipe's own test at a lift, with no corner: what a swipe
    /// would take. A check with a short first leg passes the swipe's test (its
    /// long leg is most of the path), but the sharp turn where its legs meet
    /// is no bow a hand puts in a swipe.
    public static func isStraight(_ points: [Vector], path: StrokePath) -> Bool {
        StrokeShape.lift.flaw(of: path) == nil && !hasCorner(points)
    }

    /// A corner: somewhere the heading over the path just before turns by
    /// `cornerTurn` or more from the heading just after, both measured over
    /// `cornerArm` of the path. The shorter leg of a check is 13% of it or more
    /// in the drawers; a swipe's landing wobble is a millimetre or two.
    static let cornerTurn = 60.0
    static let cornerArm = 0.1
    static let minCornerArm = 1.5

    static func hasCorner(_ points: [Vector]) -> Bool {
        sharpestTurn(of: points, arm: cornerArm, minArm: minCornerArm) >= cornerTurn
    }

    /// The largest turn, in degrees, from the heading over `arm` of the path
    /// (`minArm` at least, in the points' unit) before a point to the heading
    /// over as much after it: 0 for a line, 180 where the path doubles back.
    /// Measured over spans, not from point to point, so that tremor and sensor
    /// noise make no corner.
    static func sharpestTurn(of points: [Vector], arm share: Double, minArm: Double) -> Double {
        ArmTurns.turns(of: points, arm: share, minArm: minArm).map(abs).max() ?? 0
    }

    /// A drawing thinner than this across its main axis is a line, however it
    /// went along it (a drag up and back down): a 30 mm drag that comes back
    /// within half a millimetre of its way out is 0.03. The thinnest tuning
    /// drawings, a check and a bracket with short arms, are about 0.09.
    public static let minThickness = 0.06

    /// How wide the points are across their main axis, as a share of their
    /// length along it (principal axes): near 0 for a line, or a line drawn
    /// back and forth; 1 for a circle.
    public static func thickness(of points: [Vector]) -> Double {
        guard points.count >= 2 else { return 0 }
        var mean = Vector.zero
        for p in points { mean += p }
        mean = mean / Double(points.count)
        var xx = 0.0, yy = 0.0, xy = 0.0
        for p in points {
            let d = p - mean
            xx += d.x * d.x
            yy += d.y * d.y
            xy += d.x * d.y
        }
        let half = (xx + yy) / 2
        let spread = ((xx - yy) * (xx - yy) / 4 + xy * xy).squareRoot()
        let major = half + spread, minor = max(half - spread, 0)
        return major > 0 ? (minor / major).squareRoot() : 0
    }
}
