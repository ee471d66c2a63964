/// UISwipeGestureRecognizer's behaviour with physical thresholds: an exact finger
/// count, a direction, at most one swipe per touch sequence.
///
/// A stroke is judged two ways. While the fingers are down it is recognized as
/// soon as it is unambiguous: the finger count has settled and the stroke is
/// already fast (`swipe_commit_speed`). A stroke that is slower, but still a
/// swipe (`swipe_min_speed`), is recognized when its first finger lifts. A drag
/// that neither lifts nor speeds up within `swipe_max_duration` fails, so a
/// scroll that goes up and back down is never a swipe.
///
/// With an edge zone it is the edge swipe recognizer: the same stroke, which
/// must start within the zone of a surface edge and move inward from it (as
/// UIScreenEdgePanGestureRecognizer, but discrete).
public struct SwipeRecognizer: Recognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        /// Finger counts for which some rule names a diagonal: those swipes are
        /// judged in octants instead of against the four axes.
        public var eightWay = FingerMask()
        public var minDistance = Threshold.swipeMinDistance.defaultValue
        public var maxAngle = Threshold.swipeMaxAngle.defaultValue
        public var maxDuration = Threshold.swipeMaxDuration.defaultValue
        public var minSpeed = Threshold.swipeMinSpeed.defaultValue
        public var commitSpeed = Threshold.swipeCommitSpeed.defaultValue
        /// A swipe's finger count is final `swipe_settle` after the first finger
        /// landed: one hand's fingers land within about 60 ms of the first (one
        /// landing later counts only if the swipe has not committed by then). A
        /// finger that lands holds the commit back until it has moved with the
        /// stroke (every finger must carry it), and so does a landing the
        /// continuity stage holds for a frame. (A swipe used to wait
        /// `finger_settle`, 0.1 s, after the first landing and 40 ms after the latest.)
        public var settle = Threshold.swipeSettle.defaultValue
        /// Millimetres from an edge where an edge swipe must start; nil for plain swipes.
        public var edgeZone: Double?

        public init() {}

        public init(fingers: FingerMask, eightWay: FingerMask, thresholds: Thresholds, edgeZone: Double? = nil) {
            self.fingers = fingers
            self.eightWay = eightWay
            self.edgeZone = edgeZone
            minDistance = thresholds[.swipeMinDistance]
            maxAngle = thresholds[.swipeMaxAngle]
            maxDuration = thresholds[.swipeMaxDuration]
            minSpeed = thresholds[.swipeMinSpeed]
            commitSpeed = thresholds[.swipeCommitSpeed]
            settle = thresholds[.swipeSettle]
        }
    }

    public let kind: GestureKind
    public private(set) var state = RecognizerState.possible
    public private(set) var deadline: Double?
    public var config: Config
    private var classifier: StrokeClassifier

    public init(config: Config) {
        self.config = config
        kind = config.edgeZone == nil ? .swipe : .edgeSwipe
        classifier = StrokeClassifier(minDistance: config.minDistance, maxAngle: config.maxAngle)
    }

    public mutating func reset() {
        state = .possible
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible else { return }
        evaluate(at: frame.time, tracker: tracker, cause: .frame, into: &out)
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible, let due = deadline, due <= time else { return }
        evaluate(at: due, tracker: tracker, cause: .timeout, into: &out)
    }

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible else { return }
        fail(cause, into: &out)
    }

    private mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        let fingers = tracker.fingers
        if tracker.anyCancelled { return fail(.touchCancelled, into: &out) }
        if fingers > config.fingers.maximum { return fail(.tooManyFingers(fingers, kind), into: &out) }
        // A stroke's clock starts when the hand starts to stroke, not when it
        // lands: a finger may rest or creep a moment first (see StrokeOnset).
        let onset = tracker.strokeOnset
        let limit = onset.start + config.maxDuration
        // Reaching the limit as a deadline ends it; a frame at the very limit still counts.
        if time > limit || (cause == .timeout && time >= limit) {
            return fail(.tooLong(.over("stroke lasted", time - onset.start, .swipeMaxDuration, limit: config.maxDuration)), into: &out)
        }

        var edge: Edge?
        if let zone = config.edgeZone {
            guard let surface = tracker.surface else { return fail(.unknownSurface, into: &out) }
            guard let start = tracker.touches.first?.start, let e = Self.edge(of: start, on: surface, zone: zone) else {
                return fail(.notFromEdge(Self.edgeDistance(tracker, surface: surface, zone: zone)), into: &out)
            }
            edge = e
        }
        let lifted = tracker.anyLifted
        let settled = lifted || tracker.handHasLanded(at: time, window: config.settle, cause: cause)
        guard let stroke = classifier.classify(tracker, eightWay: edge == nil && config.eightWay.contains(fingers)) else {
            if lifted { return fail(.liftedWithoutStroke(classifier.shortfall(tracker, eightWay: edge == nil && config.eightWay.contains(fingers))), into: &out) }
            deadline = limit
            return
        }
        let speed = onset.speed(at: time, position: tracker.strokePath.position)
        // While the fingers are down, a stroke that has become fast is as sure
        // as one that was fast from its onset: a slow start would otherwise
        // hold its mean speed under the commit speed long after.
        let ready = lifted
            ? speed >= config.minSpeed
            : settled && max(speed, tracker.recentStrokeSpeed ?? 0) >= config.commitSpeed
        guard ready else {
            if lifted { return fail(.liftedTooSlow(.under("speed", speed, .swipeMinSpeed, limit: config.minSpeed)), into: &out) }
            deadline = limit
            return
        }
        if let flaw = (lifted ? StrokeShape.lift : StrokeShape.commit).flaw(of: tracker.strokePath) {
            // While the fingers are down a stroke may yet prove itself at the lift.
            if lifted { return fail(.notStraight(flaw), into: &out) }
            deadline = limit
            return
        }
        if !lifted, Self.nearNeighbour(stroke, eightWay: edge == nil && config.eightWay.contains(fingers)) {
            // Its direction is not certain yet: a bowed stroke still turns a little.
            deadline = limit
            return
        }
        if let edge, stroke.direction != Direction.inward(from: edge) {
            return fail(.wrongWayFromEdge(stroke.direction, edge), into: &out)
        }
        guard config.fingers.contains(fingers) else {
            return fail(.noRule(fingers: fingers, kind), into: &out)
        }
        let event = GestureEvent(
            kind: kind, phase: .ended, fingers: fingers, direction: stroke.direction,
            time: time, duration: time - tracker.sequenceStart, delta: stroke.delta, velocity: speed,
            position: tracker.centroid, normalized: tracker.normalized(tracker.centroid),
            edge: edge, resting: tracker.resting, device: tracker.device)
        out.append(Transition(kind: kind, from: state, to: .ended, cause: cause, event: event))
        state = .ended
        deadline = nil
    }

    /// While the fingers are down, a stroke commits only this many degrees or
    /// more inside the boundary with the neighbouring direction (45° off the
    /// axis for four ways, 22.5° for eight). Early in a bowed stroke its chord
    /// is still off its final course (a bow of 6% of the length: 13° at the
    /// start, 7° halfway); a stroke nearer the boundary is judged once it has
    /// moved inside it, or at its lift.
    static let directionMargin = 8.0

    /// Whether the stroke so far lies within `directionMargin` of the boundary
    /// between its direction and a neighbour.
    static func nearNeighbour(_ stroke: StrokeClassifier.Stroke, eightWay: Bool) -> Bool {
        guard let axis = stroke.direction.screenAngle else { return false }
        let off = abs(normalizedDegrees(stroke.delta.degrees - axis))
        return off > (eightWay ? 22.5 : 45) - directionMargin
    }

    /// The edge whose zone holds `point`; in a corner, the nearer edge.
    static func edge(of point: Vector, on surface: Surface, zone: Double) -> Edge? {
        let distances: [(Edge, Double)] = [
            (.left, point.x), (.right, surface.width - point.x), (.top, point.y), (.bottom, surface.height - point.y),
        ]
        guard let nearest = distances.min(by: { $0.1 < $1.1 }), nearest.1 <= zone else { return nil }
        return nearest.0
    }

    /// How far the first finger landed from the nearest edge, against the zone.
    static func edgeDistance(_ tracker: TouchTracker, surface: Surface, zone: Double) -> Measurement {
        let start = tracker.touches.first?.start ?? tracker.centroid
        let nearest = min(start.x, surface.width - start.x, start.y, surface.height - start.y)
        return .over("landed from the nearest edge", nearest, .edgeZone, limit: zone)
    }

    /// The one way this recognizer fails.
    private mutating func fail(_ cause: TransitionCause, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .failed, cause: cause))
        state = .failed
        deadline = nil
    }
}
