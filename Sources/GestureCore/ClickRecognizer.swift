/// A touchpad's physical click as a gesture: the device's button going down
/// under still fingers, counted as libinput's clickfinger method counts them
/// (the fingers down at the click, resting thumbs apart: `fingers(_:thumbs:)`). Discrete: recognized
/// at the click's frame, with where the fingers were, so rules can tell a
/// click on the left half from one on the right, or in an edge's zone.
///
/// Fingers that moved further than `tap_max_movement` first are a pointer's
/// or a scroll's, and their click is the desktop's: the recognizer fails
/// then, and a shared device's claim for clicks lets the touches go.
public struct ClickRecognizer: Recognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        public var maxMovement = Threshold.tapMaxMovement.defaultValue
        public var edgeZone = Threshold.edgeZone.defaultValue

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == .click { fingers.insert(spec.fingers) }
            maxMovement = thresholds[.tapMaxMovement]
            edgeZone = thresholds[.edgeZone]
        }
    }

    enum Phase: Equatable, Sendable {
        /// Fingers may yet click.
        case watching
        case recognized
        case failed
    }

    public let kind = GestureKind.click
    public let deadline: Double? = nil
    public var config: Config
    private(set) var phase = Phase.watching

    public init(config: Config) {
        self.config = config
    }

    public var state: RecognizerState {
        switch phase {
        case .watching: return .possible
        case .recognized: return .ended
        case .failed: return .failed
        }
    }

    public mutating func reset() {
        phase = .watching
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        guard phase == .watching else { return }
        if tracker.anyCancelled { return fail(.touchCancelled, into: &out) }
        let moved = Self.excursion(of: tracker.touches)
        if moved > config.maxMovement {
            return fail(.movedTooFar(.over("moved", moved, .tapMaxMovement, limit: config.maxMovement)), into: &out)
        }
        if tracker.clicked {
            let fingers = Self.fingers(tracker, thumbs: Self.thumbs(tracker))
            guard config.fingers.contains(fingers) else { return fail(.noRule(fingers: fingers, kind), into: &out) }
            phase = .recognized
            out.append(Transition(kind: kind, from: .possible, to: .ended, cause: .frame, event: event(at: frame.time, tracker: tracker)))
            return
        }
        if !tracker.isActive { fail(.liftedWithoutClick, into: &out) }
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {}

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        guard phase == .watching else { return }
        fail(cause, into: &out)
    }

    private mutating func fail(_ cause: TransitionCause, into out: inout [Transition]) {
        phase = .failed
        out.append(Transition(kind: kind, from: .possible, to: .failed, cause: cause))
    }

    private func event(at time: Double, tracker: TouchTracker) -> GestureEvent {
        let c = tracker.centroid
        let edge = tracker.surface.flatMap { SwipeRecognizer.edge(of: c, on: $0, zone: config.edgeZone) }
        let thumbs = Self.thumbs(tracker)
        return GestureEvent(
            kind: .click, phase: .ended, fingers: Self.fingers(tracker, thumbs: thumbs), time: time,
            duration: time - tracker.sequenceStart, delta: .zero, position: c,
            normalized: tracker.normalized(c), edge: edge, resting: thumbs, device: tracker.device)
    }

    /// The farthest a finger of the click moved; fingers that came to rest
    /// beside it are not its motion (on a semi-mt pad their corners jump as
    /// the others land).
    static func excursion(of touches: [TrackedTouch]) -> Double {
        var m = 0.0
        for t in touches where t.isDown && !t.isResting { m = max(m, t.maxExcursion) }
        return m
    }

    /// Fingers that came to rest before the click count as libinput's
    /// clickfinger counts them: every finger on the pad but a thumb. Two
    /// fingers put down one after the other and then pressed are a 2-finger
    /// click, though the first came to rest as the second landed; a
    /// resting contact in the pad's bottom 15% is a thumb (libinput's lower
    /// thumb line) and is left out.
    static func fingers(_ tracker: TouchTracker, thumbs: Int) -> Int {
        tracker.fingers + tracker.resting - thumbs
    }

    static func thumbs(_ tracker: TouchTracker) -> Int {
        guard let height = tracker.surface?.height, height > 0 else { return tracker.resting }
        return tracker.restingTouches.filter { $0.position.y >= height * (1 - thumbZone) }.count
    }

    /// libinput's lower thumb line, as a share of the pad's height from its bottom.
    static let thumbZone = 0.15
}
