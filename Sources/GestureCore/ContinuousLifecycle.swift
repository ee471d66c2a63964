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
            finish(.cancelled, cause: "touch cancelled", event: event(.cancelled), into: &out)
            return
        }
        if tracker.downCount != fingers {
            let landed = tracker.downCount > fingers && !tracker.anyLifted
            finish(.ended, cause: landed ? "finger landed" : "finger lifted", event: event(.ended), into: &out)
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
            out.append(Transition(kind: kind, from: state, to: .changed, cause: "motion", event: event(.changed)))
            state = .changed
        }
    }

    mutating func cancel(cause: String, event: GestureEvent, into out: inout [Transition]) {
        guard isRunning else { return }
        finish(.cancelled, cause: cause, event: event, into: &out)
    }

    private mutating func finish(_ to: RecognizerState, cause: String, event: GestureEvent, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: state, to: to, cause: cause, event: event))
        state = to
    }
}
