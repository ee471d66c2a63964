/// Corners as shape matching needs them: a template that turns sharply
/// somewhere (a check, a bracket, a caret, a star) is drawn with a corner
/// there, and a smooth curve that happens to lie near it is a finger
/// wandering, not the shape (docs/shapes.md, "Corners").
///
/// Both sides are measured alike: the sharpest turn from the heading over 5%
/// of the path before a point to the heading over 5% after it. The limits were
/// set on the tuning drawers and the scribbles of docs/shapes.md: a drawer's
/// check, bracket or caret turns 57° or more at its least sharp (1 in 100 under
/// it), a scribble taken for one turns 40–50° at the median. Measured so, the
/// built-in shapes with corners turn 78° (a rectangle) to 180° (an arrow),
/// and those without, 23° (a circle) and 45° (a question mark). A pigtail's
/// loop is small beside its long tails, so it turns 84° over two arms: a
/// loop drawn so is a corner by this measure, and people's pigtails have it.
public enum ShapeCorners {
    /// Each arm, as a share of the path.
    static let arm = 0.05
    /// The least arm of a drawing, mm: over less, tremor and sensor noise turn.
    static let minDrawnArm = 1.5
    /// A template that turns this much or more has a corner.
    public static let templateCorner = 70.0
    /// A drawing matched to a template with a corner turns at least this much.
    public static let drawnCorner = 50.0

    /// The sharpest turn of a template's path, in any unit (only its form counts).
    public static func sharpestTurn(ofTemplate path: [Vector]) -> Double {
        ShapeFilter.sharpestTurn(of: path, arm: arm, minArm: 0)
    }

    /// The sharpest turn of a drawing, in mm.
    public static func sharpestTurn(ofDrawing points: [Vector]) -> Double {
        ShapeFilter.sharpestTurn(of: points, arm: arm, minArm: minDrawnArm)
    }
}
