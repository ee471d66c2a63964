/// UITapGestureRecognizer with physical thresholds: a press short and still
/// enough is a tap; taps close in time and place count up to a double or
/// triple tap.
///
/// Multi-tap is arbitrated through the configuration the arena gives it: for
/// each finger count, the most taps any active rule binds. A tap waits for a
/// next one only while a rule for more taps exists; otherwise it is recognized
/// as soon as its fingers lift. So with rules for tap and double tap, one tap is
/// a tap once the interval has passed and two taps are only a double tap.
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

    public let kind = GestureKind.tap
    public private(set) var state = RecognizerState.possible
    public private(set) var deadline: Double?
    public var config: Config

    /// Taps completed and not yet reported, with their finger count.
    private var taps = 0
    private var tapFingers = 0
    private var firstTapStart = 0.0
    private var lastTapEnd = 0.0
    private var lastTapPosition = Vector.zero
    /// The touch sequence being judged as the next tap, and whether it is judged.
    private var press = -1
    private var pressDone = false

    public init(config: Config) {
        self.config = config
    }

    public var spansSequences: Bool { taps > 0 && state == .possible }

    public mutating func reset() {
        state = .possible
        deadline = nil
        taps = 0
        press = -1
        pressDone = false
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible else { return }
        if tracker.sequence != press {
            press = tracker.sequence
            pressDone = false
        }
        guard !pressDone else { return }
        if tracker.isActive {
            if let why = pressProblem(at: frame.time, tracker: tracker) {
                failPress(at: frame.time, tracker: tracker, why: why, into: &out)
            } else {
                deadline = tracker.sequenceStart + config.maxDuration
            }
            return
        }
        if let why = pressProblem(at: frame.time, tracker: tracker) {
            failPress(at: frame.time, tracker: tracker, why: why, into: &out)
            return
        }
        completeTap(at: frame.time, tracker: tracker, into: &out)
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible, let due = deadline, due <= time else { return }
        if tracker.isActive && tracker.sequence == press && !pressDone {
            failPress(at: due, tracker: tracker, why: "held longer than \(config.maxDuration) s", into: &out)
        } else if taps > 0 {
            recognizePending(at: due, tracker: tracker, cause: "timeout", claims: false, into: &out)
        } else {
            deadline = nil
        }
    }

    public mutating func forceFail(at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible else { return }
        pressDone = true
        if taps > 0 {
            recognizePending(at: time, tracker: tracker, cause: "arbitration", claims: false, into: &out)
        } else {
            out.append(Transition(kind: kind, from: state, to: .failed, cause: "arbitration"))
            state = .failed
            deadline = nil
        }
    }

    private func pressProblem(at time: Double, tracker: TouchTracker) -> String? {
        if tracker.anyCancelled { return "touch cancelled" }
        if tracker.maxExcursion > config.maxMovement { return "moved more than \(config.maxMovement) mm" }
        if time - tracker.sequenceStart > config.maxDuration { return "held longer than \(config.maxDuration) s" }
        if tracker.fingers > config.fingers.maximum { return "\(tracker.fingers) fingers, more than any tap rule" }
        return nil
    }

    /// The current press is not a tap. Taps before it are reported; otherwise the recognizer fails.
    private mutating func failPress(at time: Double, tracker: TouchTracker, why: String, into out: inout [Transition]) {
        pressDone = true
        if taps > 0 {
            recognizePending(at: time, tracker: tracker, cause: why, claims: false, into: &out)
        } else {
            out.append(Transition(kind: kind, from: state, to: .failed, cause: why))
            state = .failed
            deadline = nil
        }
    }

    private mutating func completeTap(at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        pressDone = true
        let fingers = tracker.fingers
        let position = tracker.centroid
        if taps > 0 && fingers != tapFingers {
            // A tap with another finger count starts a count of its own.
            flushPending(at: time, tracker: tracker, cause: "tap with \(fingers) fingers", into: &out)
        } else if taps > 0 && position.distance(to: lastTapPosition) > config.maxDistance {
            // Too far from the last tap to continue it: that one stands alone.
            flushPending(at: time, tracker: tracker, cause: "tap too far from the last", into: &out)
        }
        if taps == 0 {
            tapFingers = fingers
            firstTapStart = tracker.sequenceStart
        }
        taps += 1
        lastTapEnd = time
        lastTapPosition = position
        let most = config.mostTaps(fingers)
        if most == 0 {
            taps = 0
            out.append(Transition(kind: kind, from: state, to: .failed, cause: "no tap rule for \(fingers) fingers"))
            state = .failed
            deadline = nil
        } else if taps >= most {
            recognizePending(at: time, tracker: tracker, cause: "lift", claims: true, into: &out)
        } else {
            deadline = time + config.interval
        }
    }

    private func event(at time: Double, tracker: TouchTracker) -> GestureEvent {
        GestureEvent(
            kind: .tap, phase: .ended, fingers: tapFingers, time: time, duration: lastTapEnd - firstTapStart,
            position: lastTapPosition, normalized: tracker.normalized(lastTapPosition), taps: taps, device: tracker.device)
    }

    private mutating func recognizePending(at time: Double, tracker: TouchTracker, cause: String, claims: Bool, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .ended, cause: cause, event: event(at: time, tracker: tracker), claimsSequence: claims))
        state = .ended
        deadline = nil
        taps = 0
    }

    /// Reports the pending taps and goes on judging the current press.
    private mutating func flushPending(at time: Double, tracker: TouchTracker, cause: String, into out: inout [Transition]) {
        recognizePending(at: time, tracker: tracker, cause: cause, claims: false, into: &out)
        out.append(Transition(kind: kind, from: .ended, to: .possible, cause: "next press"))
        state = .possible
    }
}
