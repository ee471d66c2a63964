/// UILongPressGestureRecognizer: fingers held still for a minimum duration
/// begin it; moving them changes it; lifting ends it. Continuous, as in UIKit.
public struct LongPressRecognizer: Recognizer {
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
    public var state: RecognizerState { life.state }
    public private(set) var deadline: Double?
    public var config: Config
    private var life = ContinuousLifecycle(kind: .longPress)
    private var origin = Vector.zero

    public init(config: Config) {
        self.config = config
    }

    public mutating func reset() {
        life.reset()
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        if life.isRunning {
            let origin = self.origin
            life.run(frame, tracker: tracker, into: &out) { phase, fingers, _ in
                Self.event(phase: phase, at: frame.time, tracker: tracker, fingers: fingers, origin: origin)
            }
            return
        }
        guard life.state == .possible, tracker.isActive || tracker.anyLifted else { return }
        if let why = problem(tracker) {
            deadline = nil
            life.fail(why, into: &out)
            return
        }
        // UIKit counts the press from when all its fingers are down.
        let due = tracker.lastLanding + config.minDuration
        if frame.time >= due { begin(at: frame.time, cause: "held", tracker: tracker, into: &out) } else { deadline = due }
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard life.state == .possible, let due = deadline, due <= time else { return }
        if let why = problem(tracker) {
            deadline = nil
            life.fail(why, into: &out)
            return
        }
        begin(at: due, cause: "timeout", tracker: tracker, into: &out)
    }

    public mutating func forceFail(at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        deadline = nil
        life.yieldToArbitration(at: time, into: &out)
    }

    private func problem(_ tracker: TouchTracker) -> String? {
        if tracker.anyCancelled { return "touch cancelled" }
        if tracker.anyLifted { return "lifted before \(config.minDuration) s" }
        if tracker.maxExcursion > config.maxMovement { return "moved more than \(config.maxMovement) mm" }
        if tracker.fingers > config.fingers.maximum { return "\(tracker.fingers) fingers, more than any long-press rule" }
        return nil
    }

    private mutating func begin(at time: Double, cause: String, tracker: TouchTracker, into out: inout [Transition]) {
        deadline = nil
        guard config.fingers.contains(tracker.downCount) else {
            life.fail("no long-press rule for \(tracker.downCount) fingers", into: &out)
            return
        }
        origin = tracker.centroid
        life.begin(Self.event(phase: .began, at: time, tracker: tracker, fingers: tracker.downCount, origin: origin), cause: cause, into: &out)
    }

    private static func event(phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, origin: Vector) -> GestureEvent {
        let c = tracker.centroid
        return GestureEvent(
            kind: .longPress, phase: phase, fingers: fingers, time: time,
            duration: time - tracker.sequenceStart, delta: c - origin, position: c,
            normalized: tracker.normalized(c), device: tracker.device)
    }
}
