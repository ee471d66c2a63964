/// Decides whether the fingers of a sequence moved together in one direction,
/// far enough: the shared judgement of swipes and edge swipes.
public struct StrokeClassifier: Sendable {
    public var minDistance: Double
    public var maxAngle: Double
    // Angles are compared as ratios of the minor to the major component, so a
    // frame costs no trigonometry.
    let tanMaxAngle: Double
    let tanFingerFourWay: Double
    let tanFingerEightWay: Double

    /// A finger may stray this much further from the stroke's direction than the
    /// stroke itself, so that fingers splayed a little still count (fusuma allows
    /// fingers 30° apart), while fingers moving apart (a pinch) do not.
    static let fingerAngleSlack = 10.0
    /// The octants' half-width: 22.5°, split at tan 22.5° as libinput-gestures does.
    static let tanHalfOctant = 0.41421356237309503

    public init(minDistance: Double, maxAngle: Double) {
        self.minDistance = minDistance
        self.maxAngle = maxAngle
        tanMaxAngle = tanDegrees(maxAngle)
        tanFingerFourWay = tanDegrees(maxAngle + StrokeClassifier.fingerAngleSlack)
        tanFingerEightWay = tanDegrees(22.5 + StrokeClassifier.fingerAngleSlack)
    }

    public struct Stroke: Equatable, Sendable {
        public var direction: Direction
        public var delta: Vector
    }

    /// The stroke, or nil when it is too short, off every allowed axis, or when a
    /// finger did not follow.
    public func classify(_ tracker: TouchTracker, eightWay: Bool) -> Stroke? {
        let delta = tracker.meanDisplacement
        guard delta.x * delta.x + delta.y * delta.y >= minDistance * minDistance else { return nil }
        let ax = abs(delta.x)
        let ay = abs(delta.y)
        let horizontal = ax >= ay
        let major = horizontal ? ax : ay
        let minor = horizontal ? ay : ax
        let direction: Direction
        let unit: Vector
        let tanFinger: Double
        if eightWay && minor > StrokeClassifier.tanHalfOctant * major {
            switch (delta.x > 0, delta.y > 0) {
            case (true, true): direction = .downRight
            case (true, false): direction = .upRight
            case (false, true): direction = .downLeft
            case (false, false): direction = .upLeft
            }
            unit = Vector(delta.x > 0 ? 1 : -1, delta.y > 0 ? 1 : -1) * 0.7071067811865476
            tanFinger = tanFingerEightWay
        } else {
            guard eightWay || minor <= tanMaxAngle * major else { return nil }
            if horizontal {
                direction = delta.x > 0 ? .right : .left
                unit = Vector(delta.x > 0 ? 1 : -1, 0)
            } else {
                direction = delta.y > 0 ? .down : .up
                unit = Vector(0, delta.y > 0 ? 1 : -1)
            }
            tanFinger = eightWay ? tanFingerEightWay : tanFingerFourWay
        }
        let half = minDistance / 2
        let touches = tracker.touches
        for i in touches.indices {
            let d = touches[i].position - touches[i].start
            let along = d.dot(unit)
            // Every finger must carry the stroke: a resting thumb beside one moving
            // finger is not a two-finger swipe.
            guard along >= half else { return nil }
            let across = abs(d.x * unit.y - d.y * unit.x)
            guard across <= tanFinger * along else { return nil }
        }
        return Stroke(direction: direction, delta: delta)
    }

    /// The nearest of the four directions to a vector.
    public static func cardinal(of v: Vector) -> Direction? {
        guard v.x != 0 || v.y != 0 else { return nil }
        if abs(v.x) >= abs(v.y) { return v.x > 0 ? .right : .left }
        return v.y > 0 ? .down : .up
    }
}
