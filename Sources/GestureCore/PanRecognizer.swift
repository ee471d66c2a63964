/// UIPanGestureRecognizer: fingers that move together past a slop begin a pan,
/// which reports its translation and velocity until the fingers lift or their
/// count changes.
public struct PanRecognizer: ContinuousRecognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        public var minDistance = Threshold.panMinDistance.defaultValue
        public var settle = Threshold.fingerSettle.defaultValue

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == .pan { fingers.insert(spec.fingers) }
            minDistance = thresholds[.panMinDistance]
            settle = thresholds[.fingerSettle]
        }
    }

    public let kind = GestureKind.pan
    public internal(set) var deadline: Double?
    public var config: Config
    var life = ContinuousLifecycle(kind: .pan)

    public init(config: Config) {
        self.config = config
    }

    mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        deadline = nil
        if tracker.anyCancelled { return life.fail(.touchCancelled, into: &out) }
        if tracker.anyLifted {
            let moved = Measurement.under("moved", tracker.segmentTranslation.length, .panMinDistance, limit: config.minDistance)
            return life.fail(.liftedBeforeBegan(kind, moved.value < moved.limit ? moved : nil), into: &out)
        }
        if tracker.downCount > config.fingers.maximum { return life.fail(.tooManyFingers(tracker.downCount, kind), into: &out) }
        guard tracker.segmentTranslation.length >= config.minDistance else { return }
        let settleAt = tracker.lastLanding + config.settle
        guard time >= settleAt else {
            deadline = settleAt
            return
        }
        // A count no rule binds may still become one when another finger lands.
        guard config.fingers.contains(tracker.downCount) else { return }
        let direction = StrokeClassifier.cardinal(of: tracker.segmentTranslation)
        life.begin(event(.began, at: time, tracker: tracker, fingers: tracker.downCount, direction: direction), cause: cause, into: &out)
    }

    func event(_ phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent {
        let translation = tracker.segmentTranslation
        let c = tracker.centroid
        return GestureEvent(
            kind: .pan, phase: phase, fingers: fingers, direction: direction, time: time,
            duration: time - tracker.sequenceStart, delta: translation, velocity: tracker.recentVelocity.length,
            position: c, normalized: tracker.normalized(c), resting: tracker.resting, device: tracker.device)
    }
}
