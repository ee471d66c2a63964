/// The turns along a drawing, as the shape tests read them: at each of 64
/// evenly spaced points, from the heading over an arm of the path before it to
/// the heading over as much after it. Measured over spans, not from point to
/// point, so that tremor and sensor noise make no turn.
enum ArmTurns {
    static let count = 64

    /// Signed turns in degrees (positive anticlockwise, as `atan2`), one per
    /// point with an arm on both sides. The arm is `share` of the path, and
    /// `minArm` at least, in the points' unit; empty for a path with no length.
    static func turns(of points: [Vector], arm share: Double, minArm: Double) -> [Double] {
        guard let even = ShapeStroke.resampledPoints(points, count: count) else { return [] }
        var length = 0.0
        for i in 1..<even.count { length += even[i].distance(to: even[i - 1]) }
        let step = length / Double(count - 1)
        guard step > 0 else { return [] }
        // ok: the arm is at least a step and the path is at most a few metres.
        let w = max(1, Int((max(share * length, minArm) / step).rounded(.up)))
        guard count > 2 * w else { return [] }
        var turns: [Double] = []
        turns.reserveCapacity(count - 2 * w)
        for i in w..<(count - w) {
            let a = even[i] - even[i - w], b = even[i + w] - even[i]
            guard a.length > 0, b.length > 0 else { continue }
            turns.append(atan2Degrees(a.x * b.y - a.y * b.x, a.dot(b)))
        }
        return turns
    }
}
