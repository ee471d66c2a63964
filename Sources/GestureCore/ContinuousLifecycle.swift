/// The began → changed → ended/cancelled half of UIKit's continuous state
/// machine, as data: what a continuous recognizer has reported so far.
///
/// A change of finger count ends a running gesture (libinput fixes a gesture's
/// finger count for its lifetime). When the change was a finger landing, the
/// recognizer may begin again with the new count; after a lift it may not.
struct ContinuousLifecycle: Sendable {
    let kind: GestureKind
    private(set) var state = RecognizerState.possible
    private(set) var fingers = 0
    private(set) var direction: Direction?
    /// The last event reported: a gesture ended by a finger lifting keeps the
    /// geometry it had with all its fingers, not that of the fingers left.
    private(set) var last: GestureEvent?
    /// Whether this recognizer may begin again in the current touch sequence.
    private(set) var mayRestart = true
    /// Where on the hand's path (`TouchTracker.handTravel`) this attempt
    /// started: the sequence's start, or the landing that ended the gesture
    /// before it, which the new one does not inherit.
    private(set) var origin = Vector.zero

    init(kind: GestureKind) {
        self.kind = kind
    }

    mutating func reset() {
        state = .possible
        fingers = 0
        direction = nil
        last = nil
        mayRestart = true
        origin = .zero
    }

    var isRunning: Bool { state.isRunning }

    mutating func begin(_ event: GestureEvent, cause: TransitionCause, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .began, cause: cause, event: event))
        state = .began
        fingers = event.fingers
        direction = event.direction
        last = event
    }

    /// The one way a continuous recognizer fails: only before it has begun.
    mutating func fail(_ cause: TransitionCause, into out: inout [Transition]) {
        guard state == .possible else { return }
        out.append(Transition(kind: kind, from: state, to: .failed, cause: cause))
        state = .failed
    }

    mutating func change(_ event: GestureEvent, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .changed, cause: .motion, event: event))
        state = .changed
        last = event
    }

    /// What a frame does to a running gesture.
    enum Step {
        case cancel
        /// The hand's fingers came to rest beside a new one: the gesture is over.
        case rest
        /// The finger count changed; `landed` when it grew by landing.
        case recount(landed: Bool)
        case moved
        case unchanged
    }

    func step(for frame: TouchFrame, tracker: TouchTracker) -> Step {
        if tracker.anyCancelled { return .cancel }
        if tracker.handCameToRest { return .rest }
        if tracker.downCount != fingers { return .recount(landed: tracker.downCount > fingers && !tracker.anyLifted) }
        for touch in frame.touches where touch.phase == .moved { return .moved }
        return .unchanged
    }

    /// Ends a running gesture on a count change; after a landing it may begin
    /// again, from `travel`, where the hand is on its path.
    mutating func recount(landed: Bool, at time: Double, travel: Vector, into out: inout [Transition]) {
        finish(.ended, cause: landed ? .fingerLanded : .fingerLifted, at: time, into: &out)
        if landed && mayRestart {
            out.append(Transition(kind: kind, from: .ended, to: .possible, cause: .newFingerCount))
            state = .possible
            origin = travel
        } else {
            mayRestart = false
        }
    }

    /// A quick gesture whose finger lifted before it could begin (it still
    /// waited for the count to settle): it was one on the frame before, so it
    /// begins at the lift, changes to where it got, and ends there, with the
    /// count it had. fusuma (libinput) reports such a flick as begin, update, end.
    mutating func flick(_ before: GestureEvent, at time: Double, travel: Vector, into out: inout [Transition]) {
        var event = before
        event.time = time
        event.phase = .began
        begin(event, cause: .lift, into: &out)
        event.phase = .changed
        change(event, into: &out)
        recount(landed: false, at: time, travel: travel, into: &out)
    }

    /// Arbitration gave the sequence to another gesture, or it ended: a running
    /// gesture is cancelled, one not yet begun fails.
    mutating func yield(at time: Double, cause: TransitionCause, into out: inout [Transition]) {
        if isRunning {
            finish(.cancelled, cause: cause, at: time, into: &out)
        } else {
            fail(cause, into: &out)
        }
    }

    /// No new beginning in this sequence.
    mutating func endForSequence() {
        mayRestart = false
    }

    /// Ends or cancels a running gesture with the last event it reported.
    mutating func finish(_ to: RecognizerState, cause: TransitionCause, at time: Double, into out: inout [Transition]) {
        guard isRunning else { return }
        var event = last ?? GestureEvent(kind: kind, phase: .ended, fingers: fingers, direction: direction, time: time)
        event.phase = to == .cancelled ? .cancelled : .ended
        event.time = time
        out.append(Transition(kind: kind, from: state, to: to, cause: cause, event: event))
        state = to
    }
}

/// A continuous recognizer: long press, pan, pinch, rotate. Each decides when
/// to begin (`evaluate`) and what its events hold (`event`); the lifecycle after
/// that, and the answers to the arena, are shared here.
protocol ContinuousRecognizer: Recognizer {
    var life: ContinuousLifecycle { get set }
    var deadline: Double? { get set }
    /// While `possible`: begin, fail, or set a deadline to be asked again.
    mutating func evaluate(at time: Double, tracker: TouchTracker, cause: TransitionCause, into out: inout [Transition])
    /// The gesture as it stands, for a running recognizer's events.
    func event(_ phase: GesturePhase, at time: Double, tracker: TouchTracker, fingers: Int, direction: Direction?) -> GestureEvent
}

extension ContinuousRecognizer {
    public var state: RecognizerState { life.state }

    public mutating func reset() {
        life.reset()
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        if life.isRunning {
            switch life.step(for: frame, tracker: tracker) {
            case .cancel:
                life.finish(.cancelled, cause: .touchCancelled, at: frame.time, into: &out)
            case .rest:
                life.finish(.ended, cause: .cameToRest, at: frame.time, into: &out)
                life.endForSequence()
            case .recount(let landed):
                life.recount(landed: landed, at: frame.time, travel: tracker.handTravel, into: &out)
            case .moved:
                life.change(event(.changed, at: frame.time, tracker: tracker, fingers: life.fingers, direction: life.direction), into: &out)
            case .unchanged:
                break
            }
        }
        guard life.state == .possible else { return }
        evaluate(at: frame.time, tracker: tracker, cause: .frame, into: &out)
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard let due = deadline, due <= time else { return }
        deadline = nil
        guard life.state == .possible else { return }
        evaluate(at: due, tracker: tracker, cause: .timeout, into: &out)
    }

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        deadline = nil
        life.yield(at: time, cause: cause, into: &out)
    }
}
