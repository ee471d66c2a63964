/// UITapGestureRecognizer with physical thresholds: a press short and still
/// enough is a tap; taps close in time and place count up to a double or
/// triple tap.
///
/// Multi-tap is arbitrated through the configuration the arena gives it: for
/// each finger count, the most taps any active rule binds. A tap waits for a
/// next one only while a rule for more taps exists; otherwise it is recognized
/// as soon as its fingers lift. So with rules for tap and double tap, one tap is
/// a tap once the interval has passed and two taps are only a double tap.
///
/// Fingers that took turns, a drumroll (`TapRoll`), are a one-finger tap per
/// finger, not one tap of them all (docs/state-machine.md, "Taps and rolls").
public struct TapRecognizer: Recognizer {
    public struct Config: Sendable {
        public var fingers = FingerMask()
        /// Largest tap count bound, by finger count (index 0...10).
        public var maxTaps = [Int](repeating: 0, count: 11)
        public var maxDuration = Threshold.tapMaxDuration.defaultValue
        public var maxMovement = Threshold.tapMaxMovement.defaultValue
        public var interval = Threshold.tapInterval.defaultValue
        public var maxDistance = Threshold.tapMaxDistance.defaultValue

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds) {
            for spec in rules where spec.kind == .tap {
                fingers.insert(spec.fingers)
                for n in 0...10 where spec.fingers.matches(n) { maxTaps[n] = max(maxTaps[n], spec.taps) }
            }
            maxDuration = thresholds[.tapMaxDuration]
            maxMovement = thresholds[.tapMaxMovement]
            interval = thresholds[.tapInterval]
            maxDistance = thresholds[.tapMaxDistance]
        }

        func mostTaps(_ fingers: Int) -> Int { fingers >= 0 && fingers < maxTaps.count ? maxTaps[fingers] : 0 }
    }

    /// Taps completed and not yet reported.
    struct TapRun: Equatable, Sendable {
        var count: Int
        var fingers: Int
        var firstStart: Double
        var lastEnd: Double
        var lastPosition: Vector
        /// Contacts resting beside the last tap when it lifted (the report may come later).
        var resting: Int
    }

    /// Where the recognizer is, with what each step needs to go on.
    enum Phase: Equatable, Sendable {
        /// No press judged since the last reset.
        case idle
        /// Judging the press of touch sequence `sequence`; `earlier` taps wait to be reported.
        case pressing(sequence: Int, earlier: TapRun?)
        /// `taps` completed, the last one in sequence `after`; waiting `tap_interval` for another press.
        case waiting(after: Int, taps: TapRun)
        /// Reported; nothing more until reset.
        case recognized
        case failed
    }

    public let kind = GestureKind.tap
    private(set) var phase = Phase.idle
    public private(set) var deadline: Double?
    public var config: Config

    public init(config: Config) {
        self.config = config
    }

    public var state: RecognizerState {
        switch phase {
        case .idle, .pressing, .waiting: return .possible
        case .recognized: return .ended
        case .failed: return .failed
        }
    }

    /// Taps wait to be reported, so the recognizer must outlive its sequence.
    public var spansSequences: Bool {
        switch phase {
        case .pressing(_, .some), .waiting: return true
        case .idle, .pressing(_, .none), .recognized, .failed: return false
        }
    }

    public mutating func reset() {
        phase = .idle
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        let earlier: TapRun?
        switch phase {
        case .recognized, .failed:
            return
        case .idle:
            earlier = nil
        case .pressing(_, let taps):
            earlier = taps
        case .waiting(let after, let taps):
            // The rest of the sequence whose tap already counted.
            guard tracker.sequence != after else { return }
            earlier = taps
        }
        phase = .pressing(sequence: tracker.sequence, earlier: earlier)
        if let problem = pressProblem(at: frame.time, tracker: tracker) {
            return failPress(at: frame.time, tracker: tracker, cause: problem, earlier: earlier, into: &out)
        }
        if tracker.isActive {
            deadline = tracker.sequenceStart + config.maxDuration
        } else {
            completeTap(at: frame.time, tracker: tracker, earlier: earlier, into: &out)
        }
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard let due = deadline, due <= time else { return }
        switch phase {
        case .pressing(let sequence, let earlier) where tracker.isActive && tracker.sequence == sequence:
            failPress(at: due, tracker: tracker, cause: .heldTooLong(.over("held", due - tracker.sequenceStart, .tapMaxDuration, limit: config.maxDuration)), earlier: earlier, into: &out)
        case .pressing(_, .some(let taps)), .waiting(_, let taps):
            recognize(taps, at: due, tracker: tracker, cause: .timeout, claims: false, into: &out)
        case .idle, .pressing(_, .none), .recognized, .failed:
            deadline = nil
        }
    }

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        switch phase {
        case .recognized, .failed:
            return
        case .pressing(_, .some(let taps)), .waiting(_, let taps):
            recognize(taps, at: time, tracker: tracker, cause: cause, claims: false, into: &out)
        case .idle, .pressing(_, .none):
            fail(cause, into: &out)
        }
    }

    private func pressProblem(at time: Double, tracker: TouchTracker) -> TransitionCause? {
        if tracker.anyCancelled { return .touchCancelled }
        if tracker.clicked { return .clicked }
        if tracker.maxExcursion > config.maxMovement {
            return .movedTooFar(.over("moved", tracker.maxExcursion, .tapMaxMovement, limit: config.maxMovement))
        }
        if time - tracker.sequenceStart > config.maxDuration {
            return .heldTooLong(.over("held", time - tracker.sequenceStart, .tapMaxDuration, limit: config.maxDuration))
        }
        if tracker.fingers > config.fingers.maximum, !mayRoll(tracker) { return .tooManyFingers(tracker.fingers, kind) }
        return nil
    }

    /// More fingers than any tap rule binds may still be a roll of one-finger
    /// taps, for a one-finger rule to see: the press fails only once they
    /// cannot be. Fingers landing in one frame, or down together too long,
    /// cannot, so a two-finger scroll fails here as soon as it did before
    /// rolls (a share's claim waits on this).
    private func mayRoll(_ tracker: TouchTracker) -> Bool {
        guard config.mostTaps(1) > 0 else { return false }
        let roll = TapRoll(tracker: tracker)
        guard tracker.isActive else { return roll.isRoll }
        return roll.mayRoll(latestLift: tracker.sequenceStart + config.maxDuration, now: tracker.time)
    }

    /// The current press is not a tap. Taps before it are reported; otherwise the recognizer fails.
    private mutating func failPress(at time: Double, tracker: TouchTracker, cause: TransitionCause, earlier: TapRun?, into out: inout [Transition]) {
        if let earlier {
            recognize(earlier, at: time, tracker: tracker, cause: cause, claims: false, into: &out)
        } else {
            fail(cause, into: &out)
        }
    }

    /// One tap's press: the sequence's fingers together, or one finger of a roll.
    private struct Press {
        var fingers: Int
        var start: Double
        var end: Double
        var position: Vector
    }

    /// Every finger has lifted: one tap of them all, or, for a roll, one
    /// one-finger tap per finger in the order they landed.
    private mutating func completeTap(at time: Double, tracker: TouchTracker, earlier: TapRun?, into out: inout [Transition]) {
        let roll = TapRoll(tracker: tracker)
        guard roll.isRoll else {
            let press = Press(fingers: tracker.fingers, start: tracker.sequenceStart, end: time, position: tracker.centroid)
            return complete(press, at: time, tracker: tracker, earlier: earlier, into: &out)
        }
        for (k, finger) in roll.presses.enumerated() {
            if k > 0 {
                // A finger of a roll never counts on from the finger before it:
                // a double tap is one spot tapped twice, and this finger landed
                // before that one lifted. Its tap is reported, and counting
                // starts again (a roll repeated is a tap per finger, not a double tap).
                switch phase {
                case .waiting(_, let taps):
                    reportAndGoOn(taps, at: time, tracker: tracker, cause: .rolledFinger, into: &out)
                case .recognized:
                    out.append(Transition(kind: kind, from: .ended, to: .possible, cause: .nextPress))
                    phase = .pressing(sequence: tracker.sequence, earlier: nil)
                case .idle, .pressing, .failed:
                    // `complete` leaves only waiting, recognized or failed; failed
                    // is no rule for one finger, which fails every finger alike.
                    return
                }
            }
            let press = Press(fingers: 1, start: finger.start, end: finger.lift ?? time, position: finger.position)
            complete(press, at: time, tracker: tracker, earlier: k == 0 ? earlier : nil, into: &out)
        }
    }

    private mutating func complete(_ press: Press, at time: Double, tracker: TouchTracker, earlier: TapRun?, into out: inout [Transition]) {
        let fingers = press.fingers
        let position = press.position
        var run = earlier
        if let taps = run, taps.fingers != fingers {
            // A tap with another finger count starts a count of its own.
            reportAndGoOn(taps, at: time, tracker: tracker, cause: .tapWithOtherFingers(fingers), into: &out)
            run = nil
        } else if let taps = run, position.distance(to: taps.lastPosition) > config.maxDistance {
            // Too far from the last tap to continue it: that one stands alone.
            let apart = Measurement.over("apart", position.distance(to: taps.lastPosition), .tapMaxDistance, limit: config.maxDistance)
            reportAndGoOn(taps, at: time, tracker: tracker, cause: .tapTooFar(apart), into: &out)
            run = nil
        }
        var taps = run ?? TapRun(count: 0, fingers: fingers, firstStart: press.start, lastEnd: press.end, lastPosition: position, resting: 0)
        taps.count += 1
        taps.lastEnd = press.end
        taps.lastPosition = position
        taps.resting = tracker.resting
        let most = config.mostTaps(fingers)
        if most == 0 {
            fail(.noRule(fingers: fingers, kind), into: &out)
        } else if taps.count >= most {
            recognize(taps, at: time, tracker: tracker, cause: .lift, claims: true, into: &out)
        } else {
            phase = .waiting(after: tracker.sequence, taps: taps)
            deadline = time + config.interval
        }
    }

    private func event(_ taps: TapRun, at time: Double, tracker: TouchTracker) -> GestureEvent {
        GestureEvent(
            kind: .tap, phase: .ended, fingers: taps.fingers, time: time, duration: taps.lastEnd - taps.firstStart,
            position: taps.lastPosition, normalized: tracker.normalized(taps.lastPosition), taps: taps.count,
            resting: taps.resting, device: tracker.device, start: taps.firstStart)
    }

    private mutating func recognize(_ taps: TapRun, at time: Double, tracker: TouchTracker, cause: TransitionCause, claims: Bool, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .ended, cause: cause, event: event(taps, at: time, tracker: tracker), claimsSequence: claims))
        phase = .recognized
        deadline = nil
    }

    /// Reports the pending taps and goes on judging the current press.
    private mutating func reportAndGoOn(_ taps: TapRun, at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition]) {
        recognize(taps, at: time, tracker: tracker, cause: cause, claims: false, into: &out)
        out.append(Transition(kind: kind, from: .ended, to: .possible, cause: .nextPress))
        phase = .pressing(sequence: tracker.sequence, earlier: nil)
    }

    /// The one way this recognizer fails.
    private mutating func fail(_ cause: TransitionCause, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .failed, cause: cause))
        phase = .failed
        deadline = nil
    }
}
