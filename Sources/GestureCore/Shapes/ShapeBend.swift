/// Bending all the way round, as shape matching needs it: a circle curves the
/// same way at every point, and so does a person drawing one, ovals, open or
/// overshot ends and all. A scribble that a distance takes for a circle often
/// runs straight for a stretch, or bends back, on its way round: a finger
/// wandering, not a circle (docs/shapes.md, "Wandering").
///
/// Measured as `ShapeCorners` measures turns, over arms of 10% of the path
/// (1.5 mm at least, so that tremor turns little): the least turn, the way the
/// whole path turns, from the heading over the arm before a point to the
/// heading over the arm after it. A circle turns 39° so at its least; the
/// tuning drawers' circles 5.2° or more; scribbles taken for a circle, from
/// 26° down to -23° (bending back).
public enum ShapeBend {
    /// Each arm, as a share of the path.
    static let arm = 0.1
    /// The least arm of a drawing, mm.
    static let minDrawnArm = 1.5
    /// A built-in template that turns this much or more at its least bends all
    /// the way round: the circle (39°); the pigtail, the next, 21°, runs
    /// nearly straight into its loop and out of it, as people draw it.
    public static let templateBend = 30.0
    /// A drawing matched to such a template bends its way at least this much
    /// everywhere: 0°, nowhere straight or bending back.
    public static let drawnBend = 0.0

    /// The least bend, as a failed measurement, of a drawing matched to a
    /// template that bends all round, when it is under `drawnBend`; else nil.
    public static func refusal(ofDrawing points: [Vector]) -> Measurement? {
        let bend = leastTurn(ofDrawing: points)
        return bend < drawnBend ? Measurement("least bend", bend, .minimum, drawnBend, unit: "°", key: nil) : nil
    }

    /// The least turn of a template's path, in any unit (only its form counts).
    public static func leastTurn(ofTemplate path: [Vector]) -> Double {
        leastTurn(of: path, minArm: 0)
    }

    /// The least turn of a drawing (its points in mm), in degrees.
    public static func leastTurn(ofDrawing points: [Vector]) -> Double {
        leastTurn(of: points, minArm: minDrawnArm)
    }

    /// The least turn, in degrees, the way the path turns in all, from the
    /// heading over `arm` of it before a point to the heading over as much
    /// after: negative where it bends back; 0 for a path with no length.
    static func leastTurn(of points: [Vector], minArm: Double) -> Double {
        let turns = ArmTurns.turns(of: points, arm: arm, minArm: minArm)
        let way: Double = turns.reduce(0, +) >= 0 ? 1 : -1
        return turns.map { way * $0 }.min() ?? 0
    }
}
