/// UIPanGestureRecognizer: fingers that move together past a slop begin a pan,
/// which reports its translation and velocity until the fingers lift or their
/// count changes.
public struct PanRecognizer: ContinuousRecognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        public var minDistance = Threshold.panMinDistance.defaultValue
        /// How long after the latest landing a pan waits for a finger that would
        /// make it a pan of more fingers, which some rule binds.
        public var settle = Threshold.fingerSettle.defaultValue
        /// With as many fingers down as any pan rule binds, no finger can make it
        /// a pan of more, and it waits only until the hand has landed, as a
        /// swipe does: a quick stroke lifts before `settle` would have passed.
        public var handSettle = Threshold.swipeSettle.defaultValue

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == .pan { fingers.insert(spec.fingers) }
            minDistance = thresholds[.panMinDistance]
            settle = thresholds[.fingerSettle]
            handSettle = thresholds[.swipeSettle]
        }
    }

    public let kind = GestureKind.pan
    public internal(set) var deadline: Double?
    public var config: Config
    var life = ContinuousLifecycle(kind: .pan)
    /// The pan as it stood on the last frame, when it only waited for the
    /// count to settle: a flick that lifts then is a pan all the same.
    private var unsettled: GestureEvent?

    public init(config: Config) {
        self.config = config
    }

    public mutating func reset() {
        life.reset()
        deadline = nil
        unsettled = nil
    }

    mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        deadline = nil
        if tracker.anyCancelled { return life.fail(.touchCancelled, into: &out) }
        let travel = translation(tracker)
        if tracker.anyLifted {
            guard let before = unsettled else {
                return life.fail(.liftedBeforeBegan(kind, shortfall(at: time, tracker: tracker, travel: travel)), into: &out)
            }
            unsettled = nil
            return life.flick(before, at: time, travel: tracker.handTravel, into: &out)
        }
        unsettled = nil
        if tracker.downCount > config.fingers.maximum { return life.fail(.tooManyFingers(tracker.downCount, kind), into: &out) }
        guard travel.length >= config.minDistance else { return }
        var settled = true
        if tracker.downCount < config.fingers.maximum {
            let settleAt = tracker.lastLanding + config.settle
            if time < settleAt {
                deadline = settleAt
                settled = false
            }
        } else {
            // A finger more would be no pan, but may be another gesture's: more
            // fingers still beat fewer while the hand lands.
            settled = tracker.handHasLanded(at: time, window: config.handSettle, cause: cause)
        }
        // A count no rule binds may still become one when another finger lands.
        guard config.fingers.contains(tracker.downCount) else { return }
        let began = event(.began, at: time, tracker: tracker, fingers: tracker.downCount, direction: StrokeClassifier.cardinal(of: travel))
        guard settled else {
            unsettled = began
            return
        }
        life.begin(began, cause: cause, into: &out)
    }

    /// What the pan still waited for when a finger lifted: the distance, or
    /// the count to settle; nil when it waited for a count some rule binds.
    private func shortfall(at time: Double, tracker: TouchTracker, travel: Vector) -> Measurement? {
        if travel.length < config.minDistance {
            return .under("moved", travel.length, .panMinDistance, limit: config.minDistance)
        }
        if tracker.fingers < config.fingers.maximum, time - tracker.lastLanding < config.settle {
            return .under("waited", time - tracker.lastLanding, .fingerSettle, limit: config.settle)
        }
        if tracker.fingers >= config.fingers.maximum, time - tracker.sequenceStart < config.handSettle {
            return .under("waited", time - tracker.sequenceStart, .swipeSettle, limit: config.handSettle)
        }
        return nil
    }

    /// The hand's travel since this attempt began, not since the count last
    /// changed: a finger landing late must not start the pan's distance over.
    private func translation(_ tracker: TouchTracker) -> Vector {
        tracker.handTravel - life.origin
    }

    func event(_ phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent {
        let c = tracker.centroid
        return GestureEvent(
            kind: .pan, phase: phase, fingers: fingers, direction: direction, time: time,
            duration: time - tracker.sequenceStart, delta: translation(tracker), velocity: tracker.recentVelocity.length,
            position: c, normalized: tracker.normalized(c), resting: tracker.resting, device: tracker.device)
    }
}
