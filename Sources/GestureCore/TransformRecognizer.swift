/// UIPinchGestureRecognizer and UIRotationGestureRecognizer: two to five
/// fingers spreading apart or turning about their centroid. Continuous; a rule
/// with a direction (in/out, clockwise/counterclockwise) makes it discrete in
/// the arena, firing once when it begins.
///
/// What is not a pinch or a rotation:
/// - fingers translating together, even along a circle or converging a little as
///   they scroll: the spread must change, and the turn about the centroid cover
///   arc, more than the farthest the centroid has strayed;
/// - one finger moving beside a resting one (ChromeOS): every finger must move;
/// - one finger going the "wrong" way (fusuma): every finger must spread, or
///   turn, the same way.
public struct TransformRecognizer: ContinuousRecognizer {
    public enum Measure: Sendable {
        case pinch, rotate
    }

    public struct Config: Sendable {
        public var fingers = FingerMask()
        public var minScale = Threshold.pinchMinScale.defaultValue
        public var minSpread = Threshold.pinchMinSpread.defaultValue
        public var minAngle = Threshold.rotateMinAngle.defaultValue
        public var settle = Threshold.fingerSettle.defaultValue

        public init() {}

        public init(kind: GestureKind, rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == kind { fingers.insert(spec.fingers) }
            minScale = thresholds[.pinchMinScale]
            minSpread = thresholds[.pinchMinSpread]
            minAngle = thresholds[.rotateMinAngle]
            settle = thresholds[.fingerSettle]
        }
    }

    /// Each finger must carry at least this share of the gesture.
    static let fingerShare = 0.3

    /// A pinch's spread must change by at least this share of the distance its
    /// centroid strayed. Real pinches drift: the fusuma three-finger pinch out
    /// spreads 11 mm while its centroid moves 18 mm (0.63). A two-finger diagonal
    /// scroll on a ChromeOS touchpad converges 14 mm while travelling 75 mm (0.18).
    static let pinchShareOfTravel = 0.5

    public let kind: GestureKind
    public let measure: Measure
    public internal(set) var deadline: Double?
    public var config: Config
    var life: ContinuousLifecycle
    /// The gesture as it stood on the last frame before the fingers settled, if
    /// it already was one: a quick pinch that lifts before settling is judged
    /// at its first lift, as a swipe is (`x_y_multiple_slots`, 80 ms).
    private var unsettled: GestureEvent?

    public init(measure: Measure, config: Config) {
        self.measure = measure
        self.config = config
        kind = measure == .pinch ? .pinch : .rotate
        life = ContinuousLifecycle(kind: kind)
    }

    public mutating func reset() {
        life.reset()
        deadline = nil
        unsettled = nil
    }

    mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        deadline = nil
        if tracker.anyCancelled { return life.fail(.touchCancelled, into: &out) }
        if tracker.anyLifted { return judgeAtLift(at: time, tracker: tracker, into: &out) }
        unsettled = nil
        if tracker.downCount > config.fingers.maximum { return life.fail(.tooManyFingers(tracker.downCount, kind), into: &out) }
        guard tracker.downCount >= 2 else { return }
        guard let direction = measure == .pinch ? pinchDirection(tracker) : rotateDirection(tracker) else {
            deadline = settleDeadline(after: time, tracker: tracker)
            return
        }
        let began = event(.began, at: time, tracker: tracker, fingers: tracker.downCount, direction: direction)
        if let settleAt = settleDeadline(after: time, tracker: tracker) {
            deadline = settleAt
            unsettled = began
            return
        }
        guard config.fingers.contains(tracker.downCount) else { return }
        life.begin(began, cause: cause, into: &out)
    }

    /// Until the count settles a finger may still land: ask again then.
    private func settleDeadline(after time: Double, tracker: TouchTracker) -> Double? {
        let settleAt = tracker.lastLanding + config.settle
        return time < settleAt ? settleAt : nil
    }

    /// A finger lifted before the gesture began: if it was one on the frame
    /// before, it is a flick (`ContinuousLifecycle.flick`).
    private mutating func judgeAtLift(at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard let began = unsettled, config.fingers.contains(began.fingers) else {
            return life.fail(.liftedBeforeBegan(kind, shortfall(tracker)), into: &out)
        }
        unsettled = nil
        life.flick(began, at: time, travel: tracker.handTravel, into: &out)
    }

    private func pinchDirection(_ tracker: TouchTracker) -> Direction? {
        let change = tracker.spread - tracker.spreadOrigin
        guard abs(change) >= config.minSpread, abs(tracker.scale - 1) >= config.minScale else { return nil }
        // Fingers that converge while travelling together are scrolling, not pinching.
        guard abs(change) >= Self.pinchShareOfTravel * tracker.segmentExcursion else { return nil }
        let centroid = tracker.centroid
        let origin = tracker.segmentCentroidOrigin
        let needed = max(1, Self.fingerShare * abs(change))
        let touches = tracker.touches
        for i in touches.indices where touches[i].isDown {
            let position = touches[i].position
            let segmentOrigin = touches[i].segmentOrigin
            guard position.distance(to: segmentOrigin) >= needed else { return nil }
            let radial = position.distance(to: centroid) - segmentOrigin.distance(to: origin)
            guard radial * change > 0, abs(radial) >= Self.fingerShare * abs(change) else { return nil }
        }
        return change < 0 ? .in : .out
    }

    /// The number that kept it from beginning, when one did.
    private func shortfall(_ tracker: TouchTracker) -> Measurement? {
        if tracker.fingers < 2 { return Measurement("fingers", Double(tracker.fingers), .minimum, 2, unit: "", key: nil) }
        switch measure {
        case .pinch:
            let change = abs(tracker.spread - tracker.spreadOrigin)
            if change < config.minSpread { return .under("spread changed", change, .pinchMinSpread, limit: config.minSpread) }
            let scale = abs(tracker.scale - 1)
            if scale < config.minScale { return .under("scale changed", scale, .pinchMinScale, limit: config.minScale) }
        case .rotate:
            let turn = abs(tracker.rotation)
            if turn < config.minAngle { return .under("turned", turn, .rotateMinAngle, limit: config.minAngle) }
        }
        return nil
    }

    private func rotateDirection(_ tracker: TouchTracker) -> Direction? {
        let turn = tracker.rotation
        guard abs(turn) >= config.minAngle else { return nil }
        let arc = abs(turn) * Double.pi / 180 * tracker.spread
        guard arc >= tracker.segmentExcursion else { return nil }
        let touches = tracker.touches
        for i in touches.indices where touches[i].isDown {
            let turned = touches[i].turned
            guard turned * turn > 0, abs(turned) >= Self.fingerShare * abs(turn) else { return nil }
        }
        return turn > 0 ? .clockwise : .counterclockwise
    }

    func event(_ phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent {
        let c = tracker.centroid
        return GestureEvent(
            kind: kind, phase: phase, fingers: fingers, direction: direction, time: time,
            duration: time - tracker.sequenceStart, delta: tracker.segmentTranslation,
            velocity: tracker.recentVelocity.length, position: c, normalized: tracker.normalized(c),
            scale: tracker.scale, rotation: tracker.rotation, resting: tracker.resting, device: tracker.device)
    }
}
