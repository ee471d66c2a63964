/// The began → changed → ended/cancelled half of UIKit's continuous state
/// machine, shared by long press, pan, pinch and rotate.
///
/// A change of finger count ends a running gesture (libinput fixes a gesture's
/// finger count for its lifetime). When the change was a finger landing, the
/// recognizer may begin again with the new count; after a lift it may not.
struct ContinuousLifecycle: Sendable {
    let kind: GestureKind
    private(set) var state = RecognizerState.possible
    private(set) var fingers = 0
    private(set) var direction: Direction?
    private(set) var beganAt = 0.0
    /// The last event reported: a gesture ended by a finger lifting keeps the
    /// geometry it had with all its fingers, not that of the fingers left.
    private(set) var last: GestureEvent?
    /// Whether this recognizer may begin again in the current touch sequence.
    private(set) var mayRestart = true

    init(kind: GestureKind) {
        self.kind = kind
    }

    mutating func reset() {
        state = .possible
        fingers = 0
        direction = nil
        mayRestart = true
    }

    var isRunning: Bool { state.isRunning }

    mutating func begin(_ event: GestureEvent, cause: String, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: .began, cause: cause, event: event))
        state = .began
        fingers = event.fingers
        direction = event.direction
        beganAt = event.time
        last = event
    }

    mutating func fail(_ why: String, into out: inout [Transition]) {
        guard state == .possible else { return }
        out.append(Transition(kind: kind, from: state, to: .failed, cause: why))
        state = .failed
    }

    /// A frame while running: cancelled, ended by a count change, or changed by motion.
    /// `event` builds the gesture with the given phase, finger count and direction.
    mutating func run(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition],
                      event build: (GesturePhase, Int, Direction?) -> GestureEvent) {
        guard isRunning else { return }
        let fingers = self.fingers
        let direction = self.direction
        func event(_ phase: GesturePhase) -> GestureEvent { build(phase, fingers, direction) }
        if tracker.anyCancelled {
            finish(.cancelled, cause: "touch cancelled", event: final(.cancelled, at: frame.time), into: &out)
            return
        }
        if tracker.downCount != fingers {
            let landed = tracker.downCount > fingers && !tracker.anyLifted
            finish(.ended, cause: landed ? "finger landed" : "finger lifted", event: final(.ended, at: frame.time), into: &out)
            if landed && mayRestart {
                out.append(Transition(kind: kind, from: .ended, to: .possible, cause: "new finger count"))
                state = .possible
            } else {
                mayRestart = false
            }
            return
        }
        var moved = false
        for touch in frame.touches where touch.phase == .moved { moved = true; break }
        if moved {
            let changed = event(.changed)
            out.append(Transition(kind: kind, from: state, to: .changed, cause: "motion", event: changed))
            state = .changed
            last = changed
        }
    }

    /// The last event again, as the given phase at the given time.
    private func final(_ phase: GesturePhase, at time: Double) -> GestureEvent {
        var e = last ?? GestureEvent(kind: kind, phase: phase, fingers: fingers, direction: direction, time: time)
        e.phase = phase
        e.time = time
        return e
    }

    /// Arbitration gave the sequence to another gesture: a running gesture is
    /// cancelled, one not yet begun fails.
    mutating func yieldToArbitration(at time: Double, into out: inout [Transition]) {
        if isRunning {
            cancel(cause: "arbitration", at: time, into: &out)
        } else {
            fail("arbitration", into: &out)
        }
    }

    mutating func cancel(cause: String, at time: Double, into out: inout [Transition]) {
        guard isRunning else { return }
        finish(.cancelled, cause: cause, event: final(.cancelled, at: time), into: &out)
    }

    private mutating func finish(_ to: RecognizerState, cause: String, event: GestureEvent, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: to, cause: cause, event: event))
        state = to
    }
}
