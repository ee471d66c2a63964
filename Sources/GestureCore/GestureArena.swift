/// A recognizer's place in the arena: its slot, which is also its place in
/// arbitration order.
struct SlotID: Hashable, Sendable {
    let index: Int
}

/// The recognizer core: one recognizer per bound kind, fed the same frames, with
/// arbitration between them done here and only here.
///
/// Input is frames and the passage of input time; output is deliveries (a rule
/// index and its gesture event). No I/O and no clock: replay and live input
/// differ only in who calls `advance(to:)`. See docs/state-machine.md.
public struct GestureArena: Sendable {
    public private(set) var rules: [GestureRule]
    public private(set) var thresholds: Thresholds
    public private(set) var tracker = TouchTracker()

    var recognizers = RecognizerSet()
    /// Every recognizer has decided the sequence (`sequenceSettled`): kept by
    /// `resolve`, which every change of state passes through, and cleared by
    /// a reset.
    private var settled = false
    /// Joins and splits contacts the firmware mislabelled, before the tracker.
    private var continuity = ContactContinuity()
    /// Frames the continuity stage hands on in place of one input frame.
    private var repaired: [TouchFrame] = []
    private var slots: [Slot] = []
    private var transitions: [Transition] = []
    private var held = HeldDeliveries()
    /// Rules matched by a gesture since their kind's recognizer last reset, by rule index.
    private var recognized: [Bool] = []
    private var rulesByName: [String: [RuleID]] = [:]
    /// Rules changed while a gesture was under way: the recognizers are rebuilt
    /// when it is over, so no gesture is recognized twice or cut in half.
    private var rebuildPending = false
    /// The latest input time the arena has acted at (a frame or a deadline):
    /// what it delivers is dated no earlier (docs/state-machine.md, "Time order").
    private var now = -Double.infinity
    /// The recognizers the rules define in Lua, by name, in the order the
    /// driver numbers them.
    public internal(set) var scriptedRecognizers: [String] = []
    /// Work not done yet because a step waits for answers, in order.
    private var agenda: [Work] = []
    /// Where the step that waits stopped.
    private var paused: Paused?
    /// Questions handed out and not answered yet, first asked first.
    private var asking: [Asked] = []
    /// Counts rebuilds: an answer to a recognizer since replaced is dropped.
    private var epoch = 0
    /// Deadlines each recognizer fired since the last input frame (capped at `maxDeadlineChain`).
    private var deadlineChains = DeadlineChains()
    /// What drawn shapes are matched against: the built-in shapes, and a shapes file's.
    public internal(set) var shapeTemplates = BuiltinShapes.templates

    /// When set, every transition and arbitration decision is kept in
    /// `traceRecords`, for the caller to print and clear.
    public var tracing = false {
        didSet { continuity.tracing = tracing }
    }
    public var traceRecords: [TraceRecord] = []
    /// The records as `--trace` prints them.
    public var traceLines: [String] { traceRecords.map(\.text) }

    /// Arbitration state of one recognizer.
    private struct Slot: Sendable {
        var kind: GestureKind
        /// A Lua recognizer's name.
        var name: String?
        /// The rule its current gesture serves.
        var rule: RuleID?
        /// Its current gesture waits for other rules to fail (`requires_failure_of`).
        var isHeld = false
        /// Another gesture won this sequence (by this rule): its own first event
        /// is not delivered.
        var beatenBy: RuleID?
    }

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
        self.rules = rules
        self.thresholds = thresholds
        rebuild()
    }

    // Borrowed, not copied: a rule carries strings and arrays, and arbitration
    // reads a field of one several times a frame.
    private subscript(rule: RuleID) -> GestureRule {
        _read { yield rules[rule.index] }
    }
    private var ruleIDs: LazyMapSequence<Range<Int>, RuleID> { rules.indices.lazy.map(RuleID.init) }

    /// Matching follows the new activity at once; recognizers follow when the
    /// current gesture is over.
    public mutating func setActive(_ active: [Bool]) {
        defer { nextDeadline = earliestDue }
        var changed = false
        for i in rules.indices where i < active.count && rules[i].isActive != active[i] {
            rules[i].isActive = active[i]
            changed = true
        }
        if changed {
            held.recheck = true
            scheduleRebuild()
        }
    }

    public mutating func replaceRules(_ newRules: [GestureRule], thresholds newThresholds: Thresholds) {
        defer { nextDeadline = earliestDue }
        let sameShape = newRules.count == rules.count
        let old = rules
        rules = newRules
        // A cooldown this arena started and the caller has not heard of yet
        // (it is told after the delivery) goes on; a rule replaced by another does not inherit it.
        if sameShape {
            for i in rules.indices where rules[i].spec == old[i].spec && rules[i].name == old[i].name {
                rules[i].lastFired = Self.later(rules[i].lastFired, old[i].lastFired)
            }
        }
        thresholds = newThresholds
        // A rule turned off (a mode, a cooldown) or on decides what waits on it.
        if !held.isEmpty { held.recheck = true }
        if !sameShape {
            held.removeAll()
            recognized = Array(repeating: false, count: rules.count)
            for i in slots.indices { slots[i].rule = nil; slots[i].isHeld = false }
        }
        indexNames()
        scheduleRebuild()
    }

    /// A rule fired on another device: its cooldown runs here too.
    public mutating func ruleFired(_ rule: RuleID, at time: Double) {
        guard rules.indices.contains(rule.index) else { return }
        rules[rule.index].lastFired = Self.later(rules[rule.index].lastFired, time)
    }

    private static func later(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }

    /// The earliest input time at which `advance(to:)` has work to do. Stored,
    /// not computed: the engine asks every frame, and a getter on a struct held
    /// by a class copies the whole struct to call it.
    public internal(set) var nextDeadline: Double?

    public mutating func handle(_ frame: TouchFrame, into out: inout [Delivery]) {
        defer {
            nextDeadline = earliestDue
            if waitsForAnswer || !asking.isEmpty { noteWaiting() }
        }
        // The usual frame: nothing waits, and no deadline falls before it. It
        // goes straight through, with no work queued, unless a step stops.
        // (Between calls, work waits only on a question, and a step stops only at one.)
        if !waitsForAnswer, !(earliestDue.map { $0 <= frame.time } ?? false) {
            rebuildIfQuiet()
            take(frame, into: &out)
            if asking.isEmpty, !agenda.isEmpty { run(into: &out) }
            return
        }
        agenda.append(.deadlines(upTo: frame.time))
        agenda.append(.input(frame))
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
    private mutating func noteWaiting() {
        waitsForAnswer = !asking.isEmpty
        guard let first = asking.first else {
            question = nil
            return
        }
        if case .reset = first.request.event {
            question = ExternalQuestion(request: first.request, tracker: .noTouches)
        } else {
            question = ExternalQuestion(request: first.request, tracker: tracker)
        }
    }

    /// The answer to `question`; the step that waited on it goes on.
    public mutating func answer(_ reply: ExternalReply, into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        guard !asking.isEmpty else {
            noteWaiting()
            return
        }
        let asked = asking.removeFirst()
        if asked.epoch == epoch {
            recognizers.answer(asked.slot, reply, tracker: tracker, into: &transitions)
            // A retry (reset, then the same frame) is asked before anything else.
            if let request = recognizers.request(asked.slot) { asking.insert(Asked(slot: asked.slot, epoch: epoch, request: request), at: 0) }
        }
        run(into: &out)
    }

    private struct Asked: Sendable {
        var slot: SlotID
        var epoch: Int
        var request: ExternalRequest
    }

    /// Whether the recognizer in `slot` now waits on a question; it is queued once.
    private mutating func noteQuestion(_ slot: SlotID) -> Bool {
        guard slot.index >= recognizers.firstAsking, let request = recognizers.request(slot) else { return false }
        if !asking.contains(where: { $0.slot == slot && $0.epoch == epoch }) {
            asking.append(Asked(slot: slot, epoch: epoch, request: request))
        }
        return true
    }

    // MARK: - Work

    /// What the public calls ask of the arena, done in order; a part that
    /// waits for an answer leaves the rest here.
    private enum Work: Sendable {
        /// Every deadline up to this time (`advance(to:)`): the continuity
        /// stage's first, then the recognizers'.
        case deadlines(upTo: Double)
        case recognizerDeadlines(upTo: Double)
        /// An input frame: through the continuity stage, then its parts.
        case input(TouchFrame)
        case part(TouchFrame, lastOfInstant: Bool)
        /// A part's step after its landing brought the hand to rest.
        case afterRest(TouchFrame, lastOfInstant: Bool)
        case finish
        case finishDeadlines(horizon: Double)
        case finishHeld
    }

    /// Where a step stopped to wait for an answer.
    private enum Paused: Sendable {
        /// In its pass over the recognizers, before slot `next`.
        case gathering(TouchFrame, lastOfInstant: Bool, next: Int)
        /// Bringing the hand to rest: running recognizers from slot `next` on.
        case resting(TouchFrame, next: Int)
        /// A recognizer's deadline fired; the rest of the deadline pass follows.
        case deadline(SlotID, due: Double, upTo: Double)
    }

    /// Does the work in order until it is done or waits on a question.
    private mutating func run(into out: inout [Delivery]) {
        defer { noteWaiting() }
        while asking.isEmpty {
            if let stopped = paused {
                paused = nil
                resume(stopped, into: &out)
            } else if !agenda.isEmpty {
                perform(agenda.removeFirst(), into: &out)
            } else {
                return
            }
        }
    }

    private mutating func perform(_ work: Work, into out: inout [Delivery]) {
        switch work {
        case .deadlines(let time):
            fireDeadlines(upTo: time, into: &out)
        case .recognizerDeadlines(let time):
            fireRecognizerDeadlines(upTo: time, into: &out)
        case .input(let frame):
            take(frame, into: &out)
        case .part(let frame, let lastOfInstant):
            step(frame, lastOfInstant: lastOfInstant, into: &out)
        case .afterRest(let frame, let lastOfInstant):
            stepAfterRest(frame, lastOfInstant: lastOfInstant, into: &out)
        case .finish:
            agenda.insert(latestDue.map { .finishDeadlines(horizon: $0) } ?? .finishHeld, at: 0)
        case .finishDeadlines(let horizon):
            finishDeadlines(horizon: horizon, into: &out)
        case .finishHeld:
            finishHeld(into: &out)
        }
    }

    /// An input frame, through the continuity stage.
    private mutating func take(_ frame: TouchFrame, into out: inout [Delivery]) {
        deadlineChains.inputArrived()
        // Most frames need no repair: nothing held or renamed, no landing,
        // and no silence long enough for a teleport.
        let mayNeedRepair = !continuity.isIdle || Self.lands(frame) || frame.time - tracker.time >= ContactContinuity.teleportSilence
        if mayNeedRepair, continuity.process(frame, tracker: tracker, into: &repaired) {
            traceRepairs(at: frame.time)
            stepRepaired(into: &out)
        } else {
            step(frame, lastOfInstant: true, into: &out)
        }
    }

    private mutating func resume(_ stopped: Paused, into out: inout [Delivery]) {
        switch stopped {
        case .gathering(let frame, let lastOfInstant, let next):
            gather(frame, lastOfInstant: lastOfInstant, from: next, into: &out)
        case .resting(let frame, let next):
            restRecognizers(frame, from: next, into: &out)
        case .deadline(let slot, let due, let time):
            afterDeadline(slot, due: due, into: &out)
            agenda.insert(.recognizerDeadlines(upTo: time), at: 0)
        }
    }

    /// The frames the continuity stage made of one, stepped in order: Lua
    /// recognizers see one frame per instant, the last of those at the same
    /// time (docs/lua-api.md). When a step stops for an answer, the parts
    /// left wait behind what it left to do.
    private mutating func stepRepaired(into out: inout [Delivery]) {
        var k = 0
        while k < repaired.count {
            let part = repaired[k]
            k += 1
            let before = agenda.count
            step(part, lastOfInstant: k == repaired.count || repaired[k].time > part.time, into: &out)
            if k < repaired.count, !asking.isEmpty || agenda.count != before {
                var rest: [Work] = []
                while k < repaired.count {
                    let next = repaired[k]
                    k += 1
                    rest.append(.part(next, lastOfInstant: k == repaired.count || repaired[k].time > next.time))
                }
                agenda.insert(contentsOf: rest, at: agenda.count - before)
            }
        }
        repaired.removeAll(keepingCapacity: true)
    }

    /// One frame through the tracker, the recognizers and arbitration.
    private mutating func step(_ frame: TouchFrame, lastOfInstant: Bool, into out: inout [Delivery]) {
        now = max(now, frame.time)
        // Only a landing beside fingers already down can bring them to rest; the
        // test is cheap before the call, which would copy the tracker.
        if tracker.downCount > 0, Self.lands(frame), tracker.restsBeforeLanding(frame) {
            agenda.insert(.afterRest(frame, lastOfInstant: lastOfInstant), at: 0)
            rest(before: frame, into: &out)
            return
        }
        stepAfterRest(frame, lastOfInstant: lastOfInstant, into: &out)
    }

    private mutating func stepAfterRest(_ frame: TouchFrame, lastOfInstant: Bool, into out: inout [Delivery]) {
        let decided = sequenceSettled
        tracker.update(with: frame, measuring: !decided)
        guard tracker.handInFrame else { return }
        if let landing = continuity.pendingLanding { tracker.expectLanding(at: landing) }
        // A recognizer that has decided ignores frames until its reset: when
        // all have, none is handed this one (which copied the tracker for each).
        gather(frame, lastOfInstant: lastOfInstant, from: decided ? recognizers.count : 0, into: &out)
    }

    /// Every recognizer has decided the sequence and nothing is held: until
    /// the sequence ends no one reads the hand's shape or path, which cost
    /// most of a frame (most frames of a swipe come after its decision).
    /// A traced run measures them still, for what the trace says.
    private var sequenceSettled: Bool { settled && !tracing && held.isEmpty }

    /// Every recognizer from slot `start` on sees the frame; a Lua recognizer's
    /// question stops the pass until its answer.
    @inline(__always)
    private mutating func gather(_ frame: TouchFrame, lastOfInstant: Bool, from start: Int, into out: inout [Delivery]) {
        var i = start
        while i < recognizers.count {
            let slot = SlotID(index: i)
            i += 1
            recognizers.handle(slot, frame, tracker: tracker, lastOfInstant: lastOfInstant, into: &transitions)
            if noteQuestion(slot) {
                paused = .gathering(frame, lastOfInstant: lastOfInstant, next: slot.index + 1)
                return
            }
        }
        if !tracker.isActive {
            // Nothing may stay undecided past the end of its sequence, except
            // recognizers that wait across sequences (a tap waiting for the next).
            for slot in recognizers.slots where waitsForNothing(slot) {
                recognizers.forceFail(slot, at: frame.time, cause: .sequenceEnded, tracker: tracker, into: &transitions)
            }
        }
        resolve(at: frame.time, into: &out)
        if !tracker.isActive { endSequence() }
        rebuildIfQuiet()
    }

    /// The hand's fingers came to rest as another landed: their sequence ends
    /// here (a running gesture ends, an undecided one fails) and the landing
    /// starts the next, with them resting beside it.
    private mutating func rest(before frame: TouchFrame, into out: inout [Delivery]) {
        trace(.input("\(tracker.downCount == 1 ? "a finger" : "\(tracker.downCount) fingers") came to rest"), at: frame.time)
        tracker.rest(at: frame.time)
        restRecognizers(frame, from: 0, into: &out)
    }

    private mutating func restRecognizers(_ frame: TouchFrame, from start: Int, into out: inout [Delivery]) {
        var empty = frame
        empty.touches = []
        for slot in recognizers.slots where slot.index >= start {
            let state = recognizers.state(slot)
            if state.isRunning {
                recognizers.handle(slot, empty, tracker: tracker, lastOfInstant: true, into: &transitions)
                if noteQuestion(slot) {
                    paused = .resting(frame, next: slot.index + 1)
                    return
                }
            } else if state == .possible {
                recognizers.forceFail(slot, at: frame.time, cause: .cameToRest, tracker: tracker, into: &transitions)
            }
        }
        resolve(at: frame.time, into: &out)
        endSequence()
    }

    @inline(__always)
    private static func lands(_ frame: TouchFrame) -> Bool {
        for touch in frame.touches where touch.phase == .began { return true }
        return false
    }

    var earliestDue: Double? {
        let recognizer = recognizers.earliest?.due
        guard let held = continuity.deadline else { return recognizer }
        return recognizer.map { min($0, held) } ?? held
    }

    private mutating func traceRepairs(at time: Double) {
        guard tracing else { return }
        for repair in continuity.repairs { trace(.input("\(repair)"), at: time) }
        continuity.clearRepairs()
    }

    /// Fires every deadline up to `time`, earliest first.
    public mutating func advance(to time: Double, into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        agenda.append(.deadlines(upTo: time))
        run(into: &out)
    }

    private mutating func fireDeadlines(upTo time: Double, into out: inout [Delivery]) {
        // Most frames come before any deadline: nothing to fire, and no table
        // of deadline chains to make.
        guard let earliest = earliestDue, earliest <= time else {
            rebuildIfQuiet()
            return
        }
        agenda.insert(.recognizerDeadlines(upTo: time), at: 0)
        if let due = continuity.deadline, due <= time {
            now = max(now, due)
            continuity.release(upTo: time, into: &repaired)
            traceRepairs(at: due)
            stepRepaired(into: &out)
        }
    }

    private mutating func fireRecognizerDeadlines(upTo time: Double, into out: inout [Delivery]) {
        while let (slot, due) = recognizers.earliest, due <= time {
            now = max(now, due)
            recognizers.advance(slot, to: due, tracker: tracker, into: &transitions)
            if noteQuestion(slot) {
                paused = .deadline(slot, due: due, upTo: time)
                return
            }
            afterDeadline(slot, due: due, into: &out)
            if !asking.isEmpty {
                // A reset to be told before the next deadline.
                agenda.insert(.recognizerDeadlines(upTo: time), at: 0)
                return
            }
        }
        rebuildIfQuiet()
    }

    private mutating func afterDeadline(_ slot: SlotID, due: Double, into out: inout [Delivery]) {
        if recognizers.deadline(slot) == due { failIgnoredDeadline(slot, due: due) }
        if deadlineChains.fired(slot.index) >= GestureArena.maxDeadlineChain, recognizers.deadline(slot) != nil {
            failEndlessDeadlines(slot, at: due, .chain(GestureArena.maxDeadlineChain))
        }
        resolve(at: due, into: &out)
        if !tracker.isActive { endSequence() }
    }

    /// Deadlines one recognizer may set in a row, each as the last passes,
    /// with no input frame between them.
    public static let maxDeadlineChain = 1000

    /// The latest deadline pending.
    private var latestDue: Double? {
        var latest = continuity.deadline
        for slot in recognizers.slots {
            if let due = recognizers.deadline(slot) { latest = max(latest ?? due, due) }
        }
        return latest
    }

    private mutating func failEndlessDeadlines(_ slot: SlotID, at time: Double, _ misuse: DeadlineMisuse) {
        trace(.bug("\(slots[slot.index].name ?? slots[slot.index].kind.rawValue): \(misuse); failing it"), at: time)
        recognizers.forceFail(slot, at: time, cause: .endlessDeadlines(misuse), tracker: tracker, into: &transitions)
        if recognizers.deadline(slot) != nil { reset(slot) }
    }

    /// A recognizer must act on its deadline: fire, move it or drop it. One that
    /// keeps it would stall every later deadline, so it is a bug, traced as one,
    /// and the recognizer gives up its gesture rather than hold up the others.
    private mutating func failIgnoredDeadline(_ slot: SlotID, due: Double) {
        trace(.bug("\(slots[slot.index].name ?? slots[slot.index].kind.rawValue): \(DeadlineMisuse.kept); failing it"), at: due)
        recognizers.forceFail(slot, at: due, cause: .endlessDeadlines(.kept), tracker: tracker, into: &transitions)
        if recognizers.deadline(slot) == due { reset(slot) }
    }

    /// Back to `possible`; a Lua recognizer is told, before anything else.
    private mutating func reset(_ slot: SlotID) {
        settled = false
        recognizers.reset(slot)
        _ = noteQuestion(slot)
    }

    /// End of input: every pending deadline fires, in order; gestures still held
    /// are released, since what they waited for can no longer happen.
    public mutating func finish(into out: inout [Delivery]) {
        defer { nextDeadline = earliestDue }
        agenda.append(.finish)
        run(into: &out)
    }

    /// The deadlines pending as the input ends are followed, in order; one
    /// set past the last of them (a timeout that always re-arms) would be
    /// followed for ever, so its recognizer fails there, as a chain of
    /// after() timers ends with the last timer pending at the end.
    private mutating func finishDeadlines(horizon: Double, into out: inout [Delivery]) {
        if let due = earliestDue, due <= horizon {
            agenda.insert(contentsOf: [.deadlines(upTo: due), .finishDeadlines(horizon: horizon)], at: 0)
            return
        }
        var endless: [SlotID] = []
        for slot in recognizers.slots where recognizers.deadline(slot) != nil { endless.append(slot) }
        for slot in endless { failEndlessDeadlines(slot, at: horizon, .pastEndOfInput) }
        if !endless.isEmpty { resolve(at: horizon, into: &out) }
        agenda.insert(.finishHeld, at: 0)
    }

    private mutating func finishHeld(into out: inout [Delivery]) {
        let end = max(now, tracker.time)
        for entry in held.entries { release(entry, at: end, into: &out) }
        held.removeAll()
        resolve(at: end, into: &out)
        if !tracker.isActive { endSequence() }
        rebuildIfQuiet()
    }

    // MARK: - Named conditions

    /// Still `possible`, with no deadline and nothing spanning sequences: when
    /// its sequence ends, nothing more can happen to it.
    private func waitsForNothing(_ slot: SlotID) -> Bool {
        recognizers.state(slot) == .possible && !recognizers.spansSequences(slot) && recognizers.deadline(slot) == nil
    }

    /// Done with its sequence: reset when the sequence ends.
    private func isDone(_ slot: SlotID) -> Bool {
        recognizers.state(slot).isTerminal || waitsForNothing(slot)
    }

    // MARK: - Configuration

    mutating func scheduleRebuild() {
        rebuildPending = true
        rebuildIfQuiet()
    }

    // Inlined: asked after every frame, and almost never pending.
    @inline(__always)
    private mutating func rebuildIfQuiet() {
        guard rebuildPending else { return }
        rebuildWhenQuiet()
    }

    private mutating func rebuildWhenQuiet() {
        guard paused == nil, !tracker.isActive, held.isEmpty else { return }
        for slot in recognizers.slots where recognizers.deadline(slot) != nil { return }
        rebuildPending = false
        rebuild()
    }

    /// One recognizer per kind some active rule binds, configured from those rules.
    /// The order decides which wins when two recognize in the same frame.
    private mutating func rebuild() {
        let active = rules.filter(\.isActive).map(\.spec)
        var swipeFingers = FingerMask()
        var swipeEightWay = FingerMask()
        var edgeFingers = FingerMask()
        var kinds = Set<GestureKind>()
        for spec in active {
            kinds.insert(spec.kind)
            if spec.kind == .swipe {
                swipeFingers.insert(spec.fingers)
                if spec.direction?.isDiagonal == true { swipeEightWay.insert(spec.fingers) }
            }
            if spec.kind == .edgeSwipe { edgeFingers.insert(spec.fingers) }
        }
        recognizers.removeAll()
        settled = false
        epoch += 1
        deadlineChains = DeadlineChains()
        if kinds.contains(.edgeSwipe) {
            recognizers.add(edgeSwipe: SwipeRecognizer(config: .init(fingers: edgeFingers, eightWay: FingerMask(), thresholds: thresholds, edgeZone: thresholds[.edgeZone])))
        }
        if kinds.contains(.swipe) {
            recognizers.add(swipe: SwipeRecognizer(config: .init(fingers: swipeFingers, eightWay: swipeEightWay, thresholds: thresholds)))
        }
        if kinds.contains(.pinch) {
            recognizers.add(pinch: TransformRecognizer(measure: .pinch, config: .init(kind: .pinch, rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.rotate) {
            recognizers.add(rotate: TransformRecognizer(measure: .rotate, config: .init(kind: .rotate, rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.longPress) {
            recognizers.add(longPress: LongPressRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.tap) {
            recognizers.add(tap: TapRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.pan) {
            recognizers.add(pan: PanRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        addUserGestures(active)
        slots = recognizers.slots.map { Slot(kind: recognizers.kind($0), name: recognizers.name($0)) }
        tracker.tracksRotation = recognizers.tracksRotation
        tracker.tracksStroke = kinds.contains(.swipe) || kinds.contains(.edgeSwipe)
        recognized = Array(repeating: false, count: rules.count)
        held.removeAll()
        indexNames()
    }

    private mutating func indexNames() {
        rulesByName.removeAll()
        for rule in ruleIDs {
            if let name = self[rule].name { rulesByName[name, default: []].append(rule) }
        }
    }

    private func slot(of kind: GestureKind, name: String? = nil) -> SlotID? {
        slots.firstIndex { $0.kind == kind && (kind != .custom || $0.name == name) }.map(SlotID.init)
    }

    /// The recognizer that serves a rule's spec.
    private func slot(serving spec: GestureSpec) -> SlotID? {
        slot(of: spec.kind, name: spec.name)
    }

    /// Whether the recognizer in `slot` serves `spec`: its kind, and for a Lua recognizer its name.
    private func serves(_ slot: SlotID, _ spec: GestureSpec) -> Bool {
        spec.kind == slots[slot.index].kind && (spec.kind != .custom || spec.name == slots[slot.index].name)
    }

    // MARK: - Arbitration

    private mutating func resolve(at time: Double, into out: inout [Delivery]) {
        // Most frames change no recognizer's state: nothing to resolve.
        if transitions.isEmpty && (held.isEmpty || !held.recheck) { return }
        let from = out.count
        defer { if out.count - from > 1 { Self.orderInstant(&out, from: from) } }
        repeat {
            var i = 0
            var changed: [SlotID] = []
            while i < transitions.count {
                let transition = transitions[i]
                i += 1
                if case .impossibleStep(let what) = transition.cause {
                    trace(.bug(what), at: time)
                    continue
                }
                // Every transition passes here: untraced, it costs one check, not a copy.
                if tracing { trace(.transition(transition), at: time) }
                guard let s = slot(of: transition.kind, name: transition.name) else { continue }
                // Only while something waits: the frames of a run with nothing held pay nothing.
                if !held.isEmpty && !changed.contains(s) { changed.append(s) }
                if transition.to == .failed { failed(s) }
                guard let event = transition.event else { continue }
                if event.isFirstOfGesture {
                    start(event, slot: s, claims: transition.claimsSequence, at: time, pendingFrom: i, into: &out)
                } else if let rule = slots[s.index].rule {
                    if slots[s.index].isHeld {
                        hold(event, slot: s)
                    } else {
                        deliver(event, to: rule, into: &out)
                    }
                }
            }
            transitions.removeAll(keepingCapacity: true)
            if heldMayRelease(changed) {
                held.recheck = false
                releaseDecided(at: time, into: &out)
            }
        } while !transitions.isEmpty
        // States change only by transitions, all of which pass here.
        settled = recognizers.allTerminal
    }

    /// What one resolve delivers shares an instant: a held gesture released by
    /// a failure there goes before one recognized there that began after it
    /// (one tap, then the two-finger tap that ended the rhythm it waited on).
    /// A gesture's own events keep their order.
    private static func orderInstant(_ out: inout [Delivery], from: Int) {
        let sorted = out[from...].enumerated().sorted { a, b in
            let x = a.element.event, y = b.element.event
            if x.time != y.time { return x.time < y.time }
            if x.start != y.start { return x.start < y.start }
            return a.offset < b.offset
        }
        out.replaceSubrange(from..., with: sorted.map(\.element))
    }

    /// The first event of a gesture: find its rule, then deliver, hold or drop it.
    private mutating func start(_ event: GestureEvent, slot s: SlotID, claims: Bool, at time: Double, pendingFrom: Int, into out: inout [Delivery]) {
        slots[s.index].rule = nil
        if let winner = slots[s.index].beatenBy, claims {
            trace(.lostSequence(kind: event.name ?? event.kind.rawValue, winner: label(winner)), at: time)
            return
        }
        guard let rule = chooseRule(for: event, at: time) else { return }
        if claims, let rival = earlierRival(of: event, rule: rule, slot: s, from: pendingFrom) {
            // A tie: recognized in the same frame, the gesture that began first
            // covers more of the sequence and wins it.
            trace(.lostSequence(kind: event.name ?? event.kind.rawValue, winner: label(rival)), at: time)
            slots[s.index].beatenBy = rival
            return
        }
        slots[s.index].rule = rule
        recognized[rule.index] = true
        let prerequisites = self[rule].requiresFailureOf.flatMap { rulesByName[$0] ?? [] }
        let recognizedFirst = prerequisites.filter { status(of: $0) == .recognized }
        if !recognizedFirst.isEmpty {
            trace(.dropped(label(rule), recognized: recognizedFirst.map(label)), at: time)
            slots[s.index].rule = nil
            recognized[rule.index] = false
            return
        }
        // One recognized in this same frame, whose event is still to be
        // resolved, is undecided too: it may yet be recognized for its rule.
        let waiting = prerequisites.filter { status(of: $0) == .undecided || hasPendingFirstEvent(for: $0, from: pendingFrom) }
        if !waiting.isEmpty {
            trace(.held(label(rule), until: waiting.map(label)), at: time)
            slots[s.index].isHeld = true
            // The first to wait was not waiting for this pass's earlier
            // transitions, which went unrecorded: it is looked at whole, and
            // it is all there is to look at.
            if held.isEmpty { held.recheck = true }
            held.append(Held(slot: s, rule: rule, sequence: tracker.sequence, events: [event], waitingOn: waiting))
            return
        }
        if claims { claim(for: rule, slot: s, at: time, pendingFrom: pendingFrom) }
        deliver(event, to: rule, into: &out)
    }

    /// A gesture recognized in the same frame, still to be resolved, that began
    /// earlier than `event` and may not run with it: its rule wins the tie.
    private func earlierRival(of event: GestureEvent, rule: RuleID, slot s: SlotID, from index: Int) -> RuleID? {
        var best: (rule: RuleID, start: Double)?
        for t in transitions[index...] where t.claimsSequence {
            guard let e = t.event, e.isFirstOfGesture, e.start < event.start, e.start < (best?.start ?? .infinity),
                  let other = slot(of: t.kind, name: t.name), other != s,
                  let otherRule = bestRule(for: e) else { continue }
            if !self[rule].exclusive && !self[otherRule].exclusive
                && (mayRunTogether(rule: rule, winner: s, other: other) || mayRunTogether(rule: otherRule, winner: other, other: s)) { continue }
            best = (otherRule, e.start)
        }
        return best?.rule
    }

    /// A recognizer failed: held gestures waiting on its rules wait on them no
    /// more, even if it starts over at once (a Lua recognizer after `fail`).
    private mutating func failed(_ s: SlotID) {
        guard !held.isEmpty else { return }
        held.stopWaiting(on: rules.indices.map(RuleID.init).filter { serves(s, self[$0].spec) && !recognized[$0.index] })
    }

    /// Whether a held gesture may be released or dropped now: some recognizer
    /// whose rules a held gesture waits on changed state, or something else
    /// that decides it did. A frame that changes none costs nothing, however
    /// many gestures wait.
    private func heldMayRelease(_ changed: [SlotID]) -> Bool {
        guard !held.isEmpty else { return false }
        if held.recheck { return true }
        return changed.contains { s in held.anyWaits(on: rules.indices.map(RuleID.init).filter { serves(s, self[$0].spec) }) }
    }

    private mutating func hold(_ event: GestureEvent, slot s: SlotID) {
        held.add(event, toLatestOf: s)
    }

    private enum RuleStatus { case recognized, failed, undecided }

    /// For `requires_failure_of`: has this rule's gesture happened, failed, or not yet been decided?
    private func status(of rule: RuleID) -> RuleStatus {
        if recognized[rule.index] { return .recognized }
        guard self[rule].isActive, let s = slot(serving: self[rule].spec) else { return .failed }
        if slots[s.index].beatenBy != nil { return .failed }
        return recognizers.state(s) == .possible ? .undecided : .failed
    }

    private mutating func releaseDecided(at time: Double, into out: inout [Delivery]) {
        var k = 0
        while k < held.count {
            let entry = held[k]
            let recognizedFirst = entry.waitingOn.filter { status(of: $0) == .recognized }
            if !recognizedFirst.isEmpty {
                trace(.dropped(label(entry.rule), recognized: recognizedFirst.map(label)), at: time)
                held.remove(at: k)
                slots[entry.slot.index].isHeld = false
                slots[entry.slot.index].rule = nil
                recognized[entry.rule.index] = false
                k = 0
            } else if entry.waitingOn.allSatisfy({ status(of: $0) == .failed }) {
                // (an empty list too: everything it waited on failed)
                held.remove(at: k)
                release(entry, at: time, into: &out)
                k = 0
            } else {
                k += 1
            }
        }
    }

    private mutating func release(_ entry: Held, at time: Double, into out: inout [Delivery]) {
        trace(.released(label(entry.rule)), at: time)
        slots[entry.slot.index].isHeld = false
        if entry.sequence == tracker.sequence && tracker.isActive {
            claim(for: entry.rule, slot: entry.slot, at: time, pendingFrom: transitions.count)
        }
        // Delivered now, so dated now: actions leave in time order.
        for var event in entry.events {
            event.time = max(event.time, time)
            deliver(event, to: entry.rule, into: &out)
        }
    }

    /// A gesture won its sequence: every other recognizer that could still
    /// recognize fails, unless the two may run together.
    private mutating func claim(for rule: RuleID, slot winner: SlotID, at time: Double, pendingFrom: Int) {
        let exclusive = self[rule].exclusive
        for other in recognizers.slots where other != winner {
            if !exclusive && mayRunTogether(rule: rule, winner: winner, other: other) { continue }
            let state = recognizers.state(other)
            if state == .possible || (exclusive && state.isRunning) {
                recognizers.forceFail(other, at: time, cause: .lostTo(label(rule).description), tracker: tracker, into: &transitions)
            }
            if state == .possible || hasPendingFirstEvent(other, from: pendingFrom) {
                slots[other.index].beatenBy = rule
            }
        }
    }

    private func hasPendingFirstEvent(for rule: RuleID, from index: Int) -> Bool {
        guard let s = slot(serving: self[rule].spec) else { return false }
        return hasPendingFirstEvent(s, from: index)
    }

    /// One recognized in the same frame, whose first event is still to be resolved, loses too.
    private func hasPendingFirstEvent(_ slot: SlotID, from index: Int) -> Bool {
        let kind = slots[slot.index].kind
        let name = slots[slot.index].name
        return transitions[index...].contains { t in
            t.kind == kind && t.name == name && t.claimsSequence && t.event?.isFirstOfGesture == true
        }
    }

    /// Whether the recognizer `other` may go on while `rule` (served by `winner`)
    /// is recognized: default partners, or rules that name each other in
    /// `simultaneous_with`. An exclusive rule partners with nothing, either way.
    private func mayRunTogether(rule: RuleID, winner: SlotID, other: SlotID) -> Bool {
        // Asked for every pair of slots a frame decides on: one pass over the
        // rules where they lie, with no filtered copy of them.
        var partners = GestureArena.simultaneousByDefault(slots[winner.index].kind, slots[other.index].kind)
        let name = self[rule].name
        for r in rules.indices where rules[r].isActive && serves(other, rules[r].spec) {
            if rules[r].exclusive { return false }
            if partners { continue }
            if let n = rules[r].name, self[rule].simultaneousWith.contains(n) { partners = true }
            if let name, rules[r].simultaneousWith.contains(name) { partners = true }
        }
        return partners
    }

    /// The active rule that matches with the most context (an application, held
    /// keys), then the narrowest spec; among equals, the one defined last.
    /// `bestRule`, and in the trace the rules that match but sat out in their
    /// cooldown, as explain reads them (`held back by its cooldown`).
    private mutating func chooseRule(for event: GestureEvent, at time: Double) -> RuleID? {
        let best = bestRule(for: event)
        guard tracing else { return best }
        let floor = best.map { (context: self[$0].contextRank, spec: self[$0].spec.specificity) }
        for rule in ruleIDs where self[rule].isActive && self[rule].spec.matches(event) {
            guard let left = self[rule].cooldownLeft(at: event.time) else { continue }
            if let floor, (context: self[rule].contextRank, spec: self[rule].spec.specificity) < floor { continue }
            trace(.cooledDown(label(rule), left: left), at: time)
        }
        return best
    }

    private func bestRule(for event: GestureEvent) -> RuleID? {
        var best: RuleID?
        var bestRank = (context: Int.min, spec: -1)
        for rule in ruleIDs where self[rule].mayReceive(at: event.time) && self[rule].spec.matches(event) {
            let rank = (context: self[rule].contextRank, spec: self[rule].spec.specificity)
            if rank >= bestRank {
                best = rule
                bestRank = rank
            }
        }
        return best
    }

    /// Discrete rules get one event, as `ended`; continuous rules get `began`, or
    /// every phase when their handler is a table.
    private mutating func deliver(_ event: GestureEvent, to rule: RuleID, into out: inout [Delivery]) {
        guard var given = self[rule].delivered(event) else { return }
        // Never earlier than what was acted on before (a landing the
        // continuity stage held back is dated when it landed).
        given.time = max(given.time, now)
        if given.isFirstOfGesture { rules[rule.index].lastFired = given.time }
        out.append(Delivery(rule: rule, event: given))
    }

    private mutating func endSequence() {
        for slot in recognizers.slots where isDone(slot) {
            reset(slot)
            slots[slot.index].beatenBy = nil
            if !slots[slot.index].isHeld { slots[slot.index].rule = nil }
            for rule in ruleIDs where serves(slot, self[rule].spec) && !held.holds(rule) {
                if recognized[rule.index] && held.anyWaits(on: [rule]) { held.recheck = true }
                recognized[rule.index] = false
            }
        }
    }

    // MARK: - Trace

    private mutating func trace(_ entry: TraceEntry, at time: Double) {
        if tracing { traceRecords.append(TraceRecord(time: time, device: tracker.device, entry: entry)) }
    }

    private func label(_ rule: RuleID) -> RuleLabel {
        RuleLabel(index: rule.index, name: self[rule].name ?? self[rule].spec.phrase)
    }
}
