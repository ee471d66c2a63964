/// UILongPressGestureRecognizer: fingers held still for a minimum duration
/// begin it; moving them changes it; lifting ends it. Continuous, as in UIKit.
public struct LongPressRecognizer: ContinuousRecognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        public var minDuration = Threshold.longPressDuration.defaultValue
        public var maxMovement = Threshold.longPressMaxMovement.defaultValue

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == .longPress { fingers.insert(spec.fingers) }
            minDuration = thresholds[.longPressDuration]
            maxMovement = thresholds[.longPressMaxMovement]
        }
    }

    public let kind = GestureKind.longPress
    public internal(set) var deadline: Double?
    public var config: Config
    var life = ContinuousLifecycle(kind: .longPress)
    /// Where the fingers' centroid was when the press began: `delta` counts from here.
    private var origin = Vector.zero

    public init(config: Config) {
        self.config = config
    }

    mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        deadline = nil
        guard tracker.isActive || tracker.anyLifted else { return }
        if let problem = problem(tracker) { return life.fail(problem, into: &out) }
        // UIKit counts the press from when all its fingers are down.
        let due = tracker.lastLanding + config.minDuration
        guard time >= due else {
            deadline = due
            return
        }
        guard config.fingers.contains(tracker.downCount) else {
            return life.fail(.noRule(fingers: tracker.downCount, kind), into: &out)
        }
        origin = tracker.centroid
        let began = event(.began, at: time, tracker: tracker, fingers: tracker.downCount, direction: nil)
        life.begin(began, cause: cause == .frame ? .held : cause, into: &out)
    }

    private func problem(_ tracker: TouchTracker) -> TransitionCause? {
        if tracker.anyCancelled { return .touchCancelled }
        if tracker.clicked { return .clicked }
        if tracker.anyLifted {
            return .liftedEarly(.under("held", tracker.time - tracker.lastLanding, .longPressDuration, limit: config.minDuration))
        }
        if tracker.maxExcursion > config.maxMovement {
            return .movedTooFar(.over("moved", tracker.maxExcursion, .longPressMaxMovement, limit: config.maxMovement))
        }
        if tracker.fingers > config.fingers.maximum { return .tooManyFingers(tracker.fingers, kind) }
        return nil
    }

    func event(_ phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent {
        let c = tracker.centroid
        return GestureEvent(
            kind: .longPress, phase: phase, fingers: fingers, time: time,
            duration: time - tracker.sequenceStart, delta: c - origin, position: c,
            normalized: tracker.normalized(c), resting: tracker.resting, device: tracker.device)
    }
}
