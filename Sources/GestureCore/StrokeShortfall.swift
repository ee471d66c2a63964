extension StrokeClassifier {
    /// Why `classify` found no stroke, as the number that fell short; nil when
    /// no single number did.
    public func shortfall(_ tracker: TouchTracker, eightWay: Bool) -> Measurement? {
        let delta = tracker.meanDisplacement
        guard delta.length >= minDistance else {
            return .under("moved", delta.length, .swipeMinDistance, limit: minDistance)
        }
        let major = max(abs(delta.x), abs(delta.y))
        let minor = min(abs(delta.x), abs(delta.y))
        if !eightWay && minor > tanMaxAngle * major {
            return .over("off its axis by", atan2Degrees(minor, major), .swipeMaxAngle, limit: maxAngle)
        }
        let unit = abs(delta.x) >= abs(delta.y) ? Vector(delta.x > 0 ? 1 : -1, 0) : Vector(0, delta.y > 0 ? 1 : -1)
        let touches = tracker.touches
        for i in touches.indices {
            let d = touches[i].position - touches[i].start
            let along = d.dot(unit)
            if along < minDistance / 2 {
                let quantity = along < 0 ? "a finger went the other way: along it" : "a finger moved along it only"
                return .under(quantity, along, .swipeMinDistance, limit: minDistance / 2)
            }
            let across = abs(d.x * unit.y - d.y * unit.x)
            let tanFinger = eightWay ? tanFingerEightWay : tanFingerFourWay
            if across > tanFinger * along {
                let limit = maxAngle + StrokeClassifier.fingerAngleSlack
                return Measurement("a finger strayed off it by", atan2Degrees(across, along), .maximum, limit, unit: "°", key: nil)
            }
        }
        return nil
    }
}
