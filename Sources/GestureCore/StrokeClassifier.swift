/// Decides whether the fingers of a sequence moved together in one direction,
/// far enough: the shared judgement of swipes and edge swipes.
public struct StrokeClassifier: Sendable {
    public var minDistance: Double
    public var maxAngle: Double

    /// A finger may stray this much further from the stroke's direction than the
    /// stroke itself, so that fingers splayed a little still count (fusuma allows
    /// fingers 30° apart), while fingers moving apart (a pinch) do not.
    static let fingerAngleSlack = 10.0

    public init(minDistance: Double, maxAngle: Double) {
        self.minDistance = minDistance
        self.maxAngle = maxAngle
    }

    public struct Stroke: Equatable, Sendable {
        public var direction: Direction
        public var delta: Vector
    }

    /// The stroke, or nil when it is too short, off every allowed axis, or when a
    /// finger did not follow.
    public func classify(_ tracker: TouchTracker, eightWay: Bool) -> Stroke? {
        let delta = tracker.meanDisplacement
        guard delta.length >= minDistance else { return nil }
        let angle = delta.degrees
        let direction: Direction
        let tolerance: Double
        if eightWay {
            let octant = Int((angle / 45).rounded())
            direction = StrokeClassifier.octants[((octant % 8) + 8) % 8]
            tolerance = 22.5
        } else {
            let quadrant = Int((angle / 90).rounded())
            direction = Direction.cardinals[((quadrant % 4) + 4) % 4]
            tolerance = maxAngle
            guard let axis = direction.screenAngle, abs(normalizedDegrees(angle - axis)) <= maxAngle else { return nil }
        }
        guard let axis = direction.screenAngle else { return nil }
        let unit = Vector(cosDegrees(axis), sinDegrees(axis))
        let fingerTolerance = tolerance + StrokeClassifier.fingerAngleSlack
        for touch in tracker.touches {
            let d = touch.displacement
            // Every finger must carry the stroke: a resting thumb beside one moving
            // finger is not a two-finger swipe.
            guard d.dot(unit) >= minDistance / 2 else { return nil }
            guard abs(normalizedDegrees(d.degrees - axis)) <= fingerTolerance else { return nil }
        }
        return Stroke(direction: direction, delta: delta)
    }

    /// The nearest of the four directions to a vector.
    public static func cardinal(of v: Vector) -> Direction? {
        guard v.length > 0 else { return nil }
        let quadrant = Int((v.degrees / 90).rounded())
        return Direction.cardinals[((quadrant % 4) + 4) % 4]
    }

    /// Counted from +x, clockwise on screen, 45° apart.
    static let octants: [Direction] = [.right, .downRight, .down, .downLeft, .left, .upLeft, .up, .upRight]
}
