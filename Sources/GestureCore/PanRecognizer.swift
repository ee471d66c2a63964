/// UIPanGestureRecognizer: fingers that move together past a slop begin a pan,
/// which reports its translation and velocity until the fingers lift or their
/// count changes.
public struct PanRecognizer: Recognizer {
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
    public var state: RecognizerState { life.state }
    public private(set) var deadline: Double?
    public var config: Config
    private var life = ContinuousLifecycle(kind: .pan)

    public init(config: Config) {
        self.config = config
    }

    public mutating func reset() {
        life.reset()
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        if life.isRunning {
            life.run(frame, tracker: tracker, into: &out) { phase, fingers, direction in
                Self.event(phase: phase, at: frame.time, tracker: tracker, fingers: fingers, direction: direction)
            }
            if life.isRunning || life.state != .possible { return }
        }
        guard life.state == .possible else { return }
        evaluate(at: frame.time, tracker: tracker, cause: "frame", into: &out)
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard life.state == .possible, let due = deadline, due <= time else { return }
        evaluate(at: due, tracker: tracker, cause: "timeout", into: &out)
    }

    public mutating func forceFail(at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        deadline = nil
        life.yieldToArbitration(at: time, into: &out)
    }

    private mutating func evaluate(at time: Double, tracker: TouchTracker, cause: String, into out: inout [Transition]) {
        deadline = nil
        if tracker.anyCancelled { return life.fail("touch cancelled", into: &out) }
        if tracker.anyLifted { return life.fail("a finger lifted before the pan began", into: &out) }
        if tracker.downCount > config.fingers.maximum { return life.fail("\(tracker.downCount) fingers, more than any pan rule", into: &out) }
        guard tracker.segmentTranslation.length >= config.minDistance else { return }
        let settleAt = tracker.lastLanding + config.settle
        guard time >= settleAt else {
            deadline = settleAt
            return
        }
        // A count no rule binds may still become one when another finger lands.
        guard config.fingers.contains(tracker.downCount) else { return }
        let direction = StrokeClassifier.cardinal(of: tracker.segmentTranslation)
        life.begin(Self.event(phase: .began, at: time, tracker: tracker, fingers: tracker.downCount, direction: direction), cause: cause, into: &out)
    }

    private static func event(phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent {
        let translation = tracker.segmentTranslation
        let c = tracker.centroid
        return GestureEvent(
            kind: .pan, phase: phase, fingers: fingers, direction: direction, time: time,
            duration: time - tracker.sequenceStart, delta: translation, velocity: tracker.recentVelocity.length,
            position: c, normalized: tracker.normalized(c), device: tracker.device)
    }
}
