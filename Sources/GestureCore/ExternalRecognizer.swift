/// Where the decisions of recognizers defined outside the core come from: the
/// rules' `recognizer(name, ...)` in Lua. The core stays pure: it never calls
/// this; it hands out its questions (`GestureArena.question`) and takes the
/// answers (`GestureArena.answer`) between its own steps. The engine, which
/// owns the Lua state, is the one that asks it.
public protocol ExternalRecognizerDriver: AnyObject, Sendable {
    /// Runs one recognizer on one device: a frame, a deadline that passed, or a
    /// reset. `reply` comes in empty and goes out with its decisions.
    func call(_ request: ExternalRequest, tracker: TouchTracker, into reply: inout ExternalReply)
}

/// A question the core hands out, with the touches it is about.
public struct ExternalQuestion: Sendable {
    public var request: ExternalRequest
    /// As the arena saw them when it asked (none for a reset).
    public var tracker: TouchTracker
}

/// One question to an external recognizer.
public struct ExternalRequest: Sendable {
    public enum Event: Sendable {
        case frame(TouchFrame)
        /// Its deadline passed, at this input time.
        case timeout(Double)
        /// Its touch sequence is over: back to `possible`.
        case reset
    }

    public var recognizer: Int
    public var name: String
    public var device: Int
    /// Where the core's state machine stands when it asks.
    public var state: RecognizerState
    public var deadline: Double?
    public var event: Event
}

/// What an external recognizer decided in one call.
public struct ExternalReply: Sendable {
    public enum Step: Equatable, Sendable, CustomStringConvertible {
        case began([GestureField]?)
        case changed([GestureField]?)
        case ended([GestureField]?)
        case failed(TransitionCause)

        public var name: StepName {
            switch self {
            case .began: return .began
            case .changed: return .changed
            case .ended: return .ended
            case .failed: return .fail
            }
        }

        public var description: String { name.description }
    }

    /// A step without what it carries, as the rules call it.
    public enum StepName: String, Equatable, Sendable, CustomStringConvertible {
        case began = "began()", changed = "changed()", ended = "ended()", fail = "fail()"

        public var description: String { rawValue }
    }

    public enum DeadlineChange: Equatable, Sendable {
        case keep
        case set(Double)
        case clear
    }

    public var steps: [Step] = []
    /// The recognizer's own Lua called `fail` (not a deadline without `timeout`).
    var failedInLua: Bool {
        steps.contains { if case .failed(.failedInLua) = $0 { return true } else { return false } }
    }
    public var deadline = DeadlineChange.keep
    /// The recognizer failed (an error, a stop) and is disabled: its steps of
    /// this call do not count, and it decides nothing more.
    public var disabled = false

    public init() {}

    mutating func clear() {
        steps.removeAll(keepingCapacity: true)
        deadline = .keep
        disabled = false
    }
}

/// A recognizer whose decisions come from outside the core: the state
/// machine, the events and the arena's side of it are here, the judgement of
/// touches is the driver's. It never calls the driver: where it needs a
/// decision it holds a question (`question`), and the arena pauses its step
/// until the answer comes back through `answer`.
///
/// It goes through the same states as the built-in kinds: `began`, `changed`
/// and `ended` for a continuous gesture, `ended` straight from `possible` for a
/// discrete one, `failed` before it began and `cancelled` after. A recognizer
/// the driver disables fails (or is cancelled) and stays failed, across
/// resets, until the rules are loaded again.
public struct ScriptedRecognizer: Recognizer {
    enum Phase: Sendable {
        /// Reset, no frame seen since.
        case idle
        /// Watching touches since `start`, when the fingers' centroid was at `origin`.
        case watching(start: Double, origin: Vector)
        case running(start: Double, origin: Vector, changed: Bool, fields: [GestureField]?)
        case recognized
        case failed
        case cancelled
        /// Its driver gave up on it: nothing more until the rules are reloaded.
        case disabled
    }

    /// What it waits to be told.
    enum Awaiting: Sendable {
        /// About a frame at `time`; `retry` once it failed in Lua on this same
        /// frame and was reset, to see it again as the first of a new gesture.
        case frame(TouchFrame, at: Double, retry: Bool)
        case timeout(Double)
        /// That its reset ran; `then`, the frame to ask about next (a retry).
        case reset(then: TouchFrame?, at: Double)
    }

    public let kind = GestureKind.custom
    public let name: String
    public var customName: String? { name }
    public private(set) var deadline: Double?
    private(set) var phase: Phase
    private(set) var awaiting: Awaiting?
    /// Its place among the recognizers the rules define; nil when none has its name.
    private let index: Int?
    private var device = 0
    /// What the driver is shown of the touches, one frame per instant.
    private var view = RecognizerView()

    /// `index`: its place among the recognizers the rules define, as the
    /// driver numbers them; nil when no recognizer has this name.
    public init(name: String, index: Int?) {
        self.name = name
        self.index = index
        phase = index == nil ? .disabled : .idle
    }

    public var state: RecognizerState {
        switch phase {
        case .idle, .watching: return .possible
        case .running(_, _, let changed, _): return changed ? .changed : .began
        case .recognized: return .ended
        case .failed, .disabled: return .failed
        case .cancelled: return .cancelled
        }
    }

    /// What it waits to be told, for the driver.
    public var request: ExternalRequest? {
        guard let awaiting, let index else { return nil }
        let event: ExternalRequest.Event
        switch awaiting {
        case .frame(let frame, _, _): event = .frame(frame)
        case .timeout(let due): event = .timeout(due)
        case .reset: event = .reset
        }
        return ExternalRequest(recognizer: index, name: name, device: device, state: state, deadline: deadline, event: event)
    }

    public mutating func reset() {
        deadline = nil
        view.forget()
        switch phase {
        case .disabled:
            return
        case .idle:
            break
        default:
            phase = .idle
            awaiting = .reset(then: nil, at: 0)
        }
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        handle(frame, tracker: tracker, lastOfInstant: true, into: &out)
    }

    /// Frames of one instant come in parts when the continuity stage repairs
    /// one: the driver is asked once, at the last, with every contact (see
    /// `RecognizerView`). One that fails in a frame is reset and sees that
    /// frame again, once, as the first of a new gesture: the press that broke
    /// a rhythm may start the next one.
    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool, into out: inout [Transition]) {
        switch phase {
        case .recognized, .failed, .cancelled, .disabled:
            return
        case .idle, .watching, .running:
            break
        }
        view.note(frame)
        // A part at an instant already shown waits for the next frame, unless
        // it ends the touch sequence, which the recognizer must see.
        guard view.isDue(frame, tracker: tracker, lastOfInstant: lastOfInstant) else { return }
        let shown = view.frame(at: frame.time, from: frame, tracker: tracker)
        ask(about: shown, at: frame.time, retry: false, tracker: tracker)
    }

    private mutating func ask(about frame: TouchFrame, at time: Double, retry: Bool, tracker: TouchTracker) {
        if case .idle = phase { phase = .watching(start: time, origin: tracker.centroid) }
        device = tracker.device
        awaiting = .frame(frame, at: time, retry: retry)
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard let due = deadline, due <= time else { return }
        deadline = nil
        guard state == .possible || state.isRunning else { return }
        awaiting = .timeout(due)
    }

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        deadline = nil
        switch phase {
        case .idle, .watching:
            out.append(transition(to: .failed, cause: cause))
            phase = .failed
        case .running(let start, let origin, _, let fields):
            out.append(transition(to: .cancelled, cause: cause, event: event(.cancelled, start: start, origin: origin, fields: fields, at: time, tracker: tracker)))
            phase = .cancelled
        default:
            break
        }
    }

    /// The driver's answer to `question`. `tracker`: the arena's, unchanged
    /// since it asked.
    public mutating func answer(_ reply: ExternalReply, tracker: TouchTracker, into out: inout [Transition]) {
        guard let asked = awaiting else { return }
        awaiting = nil
        switch asked {
        case .reset(let then, let time):
            if reply.disabled {
                phase = .disabled
            } else if let then {
                ask(about: then, at: time, retry: true, tracker: tracker)
            }
        case .timeout(let due):
            apply(reply, cause: .timeout, at: due, tracker: tracker, into: &out)
        case .frame(let frame, let time, let retry):
            apply(reply, cause: .frame, at: time, tracker: tracker, into: &out)
            guard !retry, case .failed = phase, reply.failedInLua else { return }
            // Back to `possible`, with the frame that failed it as its first.
            out.append(transition(to: .possible, cause: .nextPress))
            phase = .idle
            deadline = nil
            awaiting = .reset(then: frame, at: time)
        }
    }

    private mutating func apply(_ reply: ExternalReply, cause: TransitionCause, at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        if reply.disabled {
            forceFail(at: time, cause: .luaError, tracker: tracker, into: &out)
            phase = .disabled
            return
        }
        for step in reply.steps {
            switch (phase, step) {
            case let (.watching(start, origin), .began(fields)):
                out.append(transition(to: .began, cause: cause, event: event(.began, start: start, origin: origin, fields: fields, at: time, tracker: tracker)))
                phase = .running(start: start, origin: origin, changed: false, fields: fields)
            case let (.running(start, origin, _, _), .changed(fields)):
                out.append(transition(to: .changed, cause: cause, event: event(.changed, start: start, origin: origin, fields: fields, at: time, tracker: tracker)))
                phase = .running(start: start, origin: origin, changed: true, fields: fields)
            case let (.watching(start, origin), .ended(fields)):
                var e = event(.ended, start: start, origin: origin, fields: fields, at: time, tracker: tracker)
                e.isDiscrete = true
                out.append(transition(to: .ended, cause: cause, event: e))
                phase = .recognized
            case let (.running(start, origin, _, _), .ended(fields)):
                out.append(transition(to: .ended, cause: cause, event: event(.ended, start: start, origin: origin, fields: fields, at: time, tracker: tracker)))
                phase = .recognized
            case let (.watching, .failed(why)):
                out.append(transition(to: .failed, cause: why))
                phase = .failed
            case let (.running(start, origin, _, fields), .failed(why)):
                out.append(transition(to: .cancelled, cause: why, event: event(.cancelled, start: start, origin: origin, fields: fields, at: time, tracker: tracker)))
                phase = .cancelled
            case (.idle, _), (.watching, .changed), (.running, .began), (.recognized, _), (.failed, _), (.cancelled, _), (.disabled, _):
                // The driver checks the order of steps, so one out of order is
                // a bug: it changes nothing, and the trace says so.
                out.append(Transition(kind: kind, from: state, to: state, cause: .impossibleStep(ImpossibleStep(recognizer: name, step: step.name, state: state)), name: name))
            }
        }
        switch phase {
        case .watching, .running:
            switch reply.deadline {
            case .keep: break
            case .set(let t): deadline = t
            case .clear: deadline = nil
            }
        default:
            deadline = nil
        }
    }

    private func transition(to: RecognizerState, cause: TransitionCause, event: GestureEvent? = nil) -> Transition {
        Transition(kind: kind, from: state, to: to, cause: cause, event: event, name: name)
    }

    private func event(_ phase: GesturePhase, start: Double, origin: Vector, fields: [GestureField]?, at time: Double, tracker: TouchTracker) -> GestureEvent {
        let c = tracker.centroid
        return GestureEvent(
            kind: .custom, phase: phase, fingers: tracker.fingers, time: time, duration: time - start,
            delta: c - origin, velocity: tracker.recentVelocity.length, position: c, normalized: tracker.normalized(c),
            resting: tracker.resting, device: tracker.device, name: name, fields: fields, isDiscrete: false, start: start)
    }
}

/// What a Lua recognizer is shown of the touches: one frame per input instant,
/// holding every contact down (the hand's and those resting beside it) and
/// those lifting in it, each with its phase, however the continuity stage cut
/// the instant up. A contact is `began` in the first frame that shows it.
struct RecognizerView: Sendable {
    /// The time of the last frame shown.
    private(set) var shownAt = -Double.infinity
    /// The touch sequence of the last frame shown.
    private var shownSequence = -1
    /// Contacts down in the last frame shown.
    private var shown: [Int] = []
    /// Phases seen in the parts since the last frame shown, by id.
    private var seen: [Touch] = []

    mutating func forget() {
        shownAt = -.infinity
        shownSequence = -1
        shown.removeAll()
        seen.removeAll()
    }

    /// Whether to show a frame now: at the last part of an instant not shown
    /// yet, or at any part that ends the touch sequence (the recognizer must see
    /// the lift that ends it). A part dated at an instant already shown (a
    /// landing the continuity stage held back) waits for the next frame.
    func isDue(_ part: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool) -> Bool {
        guard tracker.isActive else { return true }
        guard lastOfInstant else { return false }
        return part.time > shownAt || tracker.sequence != shownSequence
    }

    mutating func note(_ part: TouchFrame) {
        for touch in part.touches {
            if let k = seen.firstIndex(where: { $0.id == touch.id }) {
                let before = seen[k].phase
                seen[k] = touch
                // A landing stays a landing; a lift is final.
                if before == .began && touch.phase.isActive { seen[k].phase = .began }
                if before == .moved && touch.phase == .stationary { seen[k].phase = .moved }
            } else {
                seen.append(touch)
            }
        }
    }

    /// The frame to show at `time`: `frame`'s time, surface and device, with the touches.
    mutating func frame(at time: Double, from part: TouchFrame, tracker: TouchTracker) -> TouchFrame {
        var out = part
        out.touches.removeAll(keepingCapacity: true)
        var down: [Int] = []
        func add(_ id: Int, at position: Vector, active: Bool) {
            let noted = seen.first { $0.id == id }
            var phase = noted?.phase ?? (active ? .stationary : .ended)
            if active {
                if !shown.contains(id) { phase = .began } else if phase == .began { phase = .moved }
                down.append(id)
            }
            out.touches.append(Touch(id: id, position: noted?.position ?? position, phase: phase))
        }
        for t in tracker.touches where t.isDown || seen.contains(where: { $0.id == t.id && !$0.phase.isActive }) {
            add(t.id, at: t.position, active: t.isDown)
        }
        for t in tracker.restingTouches { add(t.id, at: t.position, active: true) }
        for t in seen where !t.phase.isActive && !out.touches.contains(where: { $0.id == t.id }) {
            out.touches.append(t)
        }
        shown = down
        shownAt = time
        shownSequence = tracker.sequence
        seen.removeAll(keepingCapacity: true)
        return out
    }
}
