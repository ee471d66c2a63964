/// A recognizer's place in the arena: its slot, which is also its place in
/// arbitration order.
struct SlotID: Hashable, Sendable {
    let index: Int
}

/// The recognizer core: one recognizer per bound kind, fed the same frames, with
/// arbitration between them done in one place (`Arbitration`).
///
/// Input is frames and the passage of input time; output is deliveries (a rule
/// index and its gesture event). No I/O and no clock: replay and live input
/// differ only in who calls `advance(to:)`. See docs/state-machine.md.
///
/// Its owners: `stage` (the recognizers, their tracker, the trace),
/// `arbitration` (rules, who won, held gestures), `agenda` (work not done yet
/// and the questions to Lua recognizers it waits on), `continuity` (contacts
/// the firmware mislabelled) and `deadlineChains`. The arena steps frames and
/// deadlines through them (GestureArena+Steps.swift).
public struct GestureArena: Sendable {
    public private(set) var thresholds: Thresholds
    var stage = ArenaStage()
    var arbitration: Arbitration
    /// Every recognizer has decided the sequence (`sequenceSettled`): kept by
    /// `resolve`, which every change of state passes through, and cleared by
    /// a reset.
    var settled = false
    /// Joins and splits contacts the firmware mislabelled, before the tracker.
    var continuity = ContactContinuity()
    /// Frames the continuity stage hands on in place of one input frame.
    var repaired: [TouchFrame] = []
    /// Transitions of this step, for arbitration to resolve.
    var transitions: [Transition] = []
    /// Rules changed while a gesture was under way: the recognizers are rebuilt
    /// when it is over, so no gesture is recognized twice or cut in half.
    var rebuildPending = false
    var agenda = StepAgenda()
    /// Deadlines each recognizer fired since the last input frame (capped at `maxDeadlineChain`).
    var deadlineChains = DeadlineChains()
    /// The recognizers the rules define in Lua, by name, in the order the
    /// driver numbers them.
    public internal(set) var scriptedRecognizers: [String] = []
    /// What drawn shapes are matched against: the built-in shapes, and a shapes file's.
    public internal(set) var shapeTemplates = BuiltinShapes.templates

    public var rules: [GestureRule] { arbitration.rules }

    public var tracker: TouchTracker {
        _read { yield stage.tracker }
    }

    /// When set, every transition and arbitration decision is kept in
    /// `traceRecords`, for the caller to print and clear.
    public var tracing: Bool {
        get { stage.trace.isOn }
        set {
            stage.trace.isOn = newValue
            continuity.tracing = newValue
        }
    }
    public var traceRecords: [TraceRecord] {
        get { stage.trace.records }
        _modify { yield &stage.trace.records }
    }
    /// The records as `--trace` prints them.
    public var traceLines: [String] { traceRecords.map(\.text) }

    /// Kinds that may be recognized together without any rule asking: pinch with
    /// rotate (UIKit's usual delegate answer, and Hammer.js's preset), and pan
    /// with swipe, so a flick can both scroll and turn a page (Hammer.js's preset
    /// too). Rules opt out with `requires_failure_of` or `exclusive`.
    public static func simultaneousByDefault(_ a: GestureKind, _ b: GestureKind) -> Bool {
        switch (a, b) {
        case (.pinch, .rotate), (.rotate, .pinch): return true
        case (.pan, .swipe), (.swipe, .pan), (.pan, .edgeSwipe), (.edgeSwipe, .pan): return true
        default: return false
        }
    }

    public init(rules: [GestureRule], thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
        arbitration = Arbitration(rules: rules)
        rebuild()
    }

    /// Matching follows the new activity at once; recognizers follow when the
    /// current gesture is over.
    public mutating func setActive(_ active: [Bool]) {
        defer { nextDeadline = earliestDue }
        if arbitration.setActive(active) { scheduleRebuild() }
    }

    public mutating func replaceRules(_ newRules: [GestureRule], thresholds newThresholds: Thresholds) {
        defer { nextDeadline = earliestDue }
        thresholds = newThresholds
        arbitration.replaceRules(newRules)
        scheduleRebuild()
    }

    /// A rule fired on another device: its cooldown runs here too.
    public mutating func ruleFired(_ rule: RuleID, at time: Double) {
        arbitration.ruleFired(rule, at: time)
    }

    /// The earliest input time at which `advance(to:)` has work to do. Stored,
    /// not computed: the engine asks every frame, and a getter on a struct held
    /// by a class copies the whole struct to call it.
    public internal(set) var nextDeadline: Double?

    public mutating func handle(_ frame: TouchFrame, into out: inout [Delivery]) {
        defer {
            nextDeadline = earliestDue
            if waitsForAnswer || agenda.isAsking { noteWaiting() }
        }
        // The usual frame: nothing waits, and no deadline falls before it. It
        // goes straight through, with no work queued, unless a step stops.
        // (Between calls, work waits only on a question, and a step stops only at one.)
        if !waitsForAnswer, !(earliestDue.map { $0 <= frame.time } ?? false) {
            rebuildIfQuiet()
            take(frame, into: &out)
            if !agenda.isAsking, !agenda.isEmpty { run(into: &out) }
            return
        }
        agenda.append(.deadlines(upTo: frame.time))
        agenda.append(.input(frame))
        run(into: &out)
    }

    /// Fires every deadline up to `time`, earliest first.
    public mutating func advance(to time: Double, into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        agenda.append(.deadlines(upTo: time))
        run(into: &out)
    }

    /// End of input: every pending deadline fires, in order; gestures still held
    /// are released, since what they waited for can no longer happen.
    public mutating func finish(into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        agenda.append(.finish)
        run(into: &out)
    }

    // MARK: - Questions

    /// A step waits on `question`. Stored: the engine asks after every call.
    public private(set) var waitsForAnswer = false

    /// A question for the driver of Lua recognizers, when a step waits on one:
    /// the arena does nothing more until `answer` brings its answer. Stored,
    /// as `waitsForAnswer` is, so the engine's reading it copies nothing else.
    public private(set) var question: ExternalQuestion?

    /// After every call: the first question asked, with the touches it is about.
    mutating func noteWaiting() {
        waitsForAnswer = agenda.isAsking
        guard let first = agenda.firstAsked else {
            question = nil
            return
        }
        if case .reset = first.request.event {
            question = ExternalQuestion(request: first.request, tracker: .noTouches)
        } else {
            question = ExternalQuestion(request: first.request, tracker: stage.tracker)
        }
    }

    /// The answer to `question`; the step that waited on it goes on.
    public mutating func answer(_ reply: ExternalReply, into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        guard agenda.isAsking else {
            noteWaiting()
            return
        }
        if let slot = agenda.answered() {
            stage.recognizers.answer(slot, reply, tracker: stage.tracker, into: &transitions)
            // A retry (reset, then the same frame) is asked before anything else.
            if let request = stage.recognizers.request(slot) { agenda.askFirst(slot, request) }
        }
        run(into: &out)
    }

    /// Whether the recognizer in `slot` now waits on a question; it is queued once.
    mutating func noteQuestion(_ slot: SlotID) -> Bool {
        guard slot.index >= stage.recognizers.firstAsking, let request = stage.recognizers.request(slot) else { return false }
        agenda.ask(slot, request)
        return true
    }

    // MARK: - Deadlines

    var earliestDue: Double? {
        let recognizer = stage.recognizers.earliest?.due
        guard let held = continuity.deadline else { return recognizer }
        return recognizer.map { min($0, held) } ?? held
    }

    /// The latest deadline pending.
    var latestDue: Double? {
        var latest = continuity.deadline
        for slot in stage.recognizers.slots {
            if let due = stage.recognizers.deadline(slot) { latest = max(latest ?? due, due) }
        }
        return latest
    }

    /// Deadlines one recognizer may set in a row, each as the last passes,
    /// with no input frame between them.
    public static let maxDeadlineChain = 1000

    // MARK: - Trace

    mutating func trace(_ entry: TraceEntry, at time: Double) {
        stage.trace(entry, at: time)
    }
}
