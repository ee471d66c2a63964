/// Who gets a touch sequence: the rules, which recognizer serves which rule's
/// gesture, which gestures were recognized, and the gestures held by
/// `requires_failure_of`. The arena hands it the recognizers' transitions
/// (`resolve`); it answers with deliveries, and fails the recognizers that
/// lost. Arbitration is done here and only here (docs/state-machine.md).
struct Arbitration: Sendable {
    /// Arbitration state of one recognizer.
    struct Slot: Sendable {
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

    private(set) var rules: [GestureRule]
    private(set) var slots: [Slot] = []
    private var held = HeldDeliveries()
    /// Rules matched by a gesture since their kind's recognizer last reset, by rule index.
    private var recognized: [Bool] = []
    private var rulesByName: [String: [RuleID]] = [:]
    /// The latest input time the arena has acted at (a frame or a deadline):
    /// what it delivers is dated no earlier (docs/state-machine.md, "Time order").
    var now = -Double.infinity

    init(rules: [GestureRule]) {
        self.rules = rules
    }

    /// No gesture is held.
    var holdsNothing: Bool { held.isEmpty }

    /// Something besides a transition may decide a held gesture: the next
    /// resolve must run even with no transition.
    var mustRecheck: Bool { !held.isEmpty && held.recheck }

    // Borrowed, not copied: a rule carries strings and arrays, and arbitration
    // reads a field of one several times a frame.
    subscript(rule: RuleID) -> GestureRule {
        _read { yield rules[rule.index] }
    }
    private var ruleIDs: LazyMapSequence<Range<Int>, RuleID> { rules.indices.lazy.map(RuleID.init) }

    // MARK: - Rules

    /// Rules turned on or off (a mode, a cooldown); true when any changed.
    mutating func setActive(_ active: [Bool]) -> Bool {
        var changed = false
        for i in rules.indices where i < active.count && rules[i].isActive != active[i] {
            rules[i].isActive = active[i]
            changed = true
        }
        if changed { held.recheck = true }
        return changed
    }

    mutating func replaceRules(_ newRules: [GestureRule]) {
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
        // A rule turned off (a mode, a cooldown) or on decides what waits on it.
        if !held.isEmpty { held.recheck = true }
        if !sameShape {
            held.removeAll()
            recognized = Array(repeating: false, count: rules.count)
            for i in slots.indices { slots[i].rule = nil; slots[i].isHeld = false }
        }
        indexNames()
    }

    /// A rule fired on another device: its cooldown runs here too.
    mutating func ruleFired(_ rule: RuleID, at time: Double) {
        guard rules.indices.contains(rule.index) else { return }
        rules[rule.index].lastFired = Self.later(rules[rule.index].lastFired, time)
    }

    private static func later(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }

    /// The recognizers were made again, one per slot: nothing is held or recognized.
    mutating func rebuilt(_ newSlots: [Slot]) {
        slots = newSlots
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

    // MARK: - Slots and the rules they serve

    func slot(of kind: GestureKind, name: String? = nil) -> SlotID? {
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

    func label(_ rule: RuleID) -> RuleLabel {
        RuleLabel(index: rule.index, name: self[rule].name ?? self[rule].spec.phrase)
    }

    /// The slot's sequence is over and its recognizer reset: what it won, lost
    /// or recognized is forgotten, except a gesture still held.
    mutating func sequenceEnded(for slot: SlotID) {
        slots[slot.index].beatenBy = nil
        if !slots[slot.index].isHeld { slots[slot.index].rule = nil }
        for rule in ruleIDs where serves(slot, self[rule].spec) && !held.holds(rule) {
            if recognized[rule.index] && held.anyWaits(on: [rule]) { held.recheck = true }
            recognized[rule.index] = false
        }
    }

    // MARK: - Resolving transitions

    /// Every transition, in order: its event delivered, held or dropped, and
    /// the recognizers that lost failed (whose transitions are resolved too).
    mutating func resolve(_ transitions: inout [Transition], in stage: inout ArenaStage, at time: Double, into out: inout [Delivery]) {
        let from = out.count
        defer { if out.count - from > 1 { Self.orderInstant(&out, from: from) } }
        repeat {
            var i = 0
            var changed: [SlotID] = []
            while i < transitions.count {
                let transition = transitions[i]
                i += 1
                if case .impossibleStep(let step) = transition.cause {
                    trace(.bug(.impossibleStep(step)), at: time, in: &stage)
                    continue
                }
                // Every transition passes here: untraced, it costs one check, not a copy.
                if stage.trace.isOn { trace(.transition(transition), at: time, in: &stage) }
                guard let s = slot(of: transition.kind, name: transition.name) else { continue }
                // Only while something waits: the frames of a run with nothing held pay nothing.
                if !held.isEmpty && !changed.contains(s) { changed.append(s) }
                if transition.to == .failed { failed(s) }
                guard let event = transition.event else { continue }
                if event.isFirstOfGesture {
                    start(event, slot: s, claims: transition.claimsSequence, at: time, pending: &transitions, from: i, in: &stage, into: &out)
                } else if let rule = slots[s.index].rule {
                    if slots[s.index].isHeld {
                        held.add(event, toLatestOf: s)
                    } else {
                        deliver(event, to: rule, into: &out)
                    }
                }
            }
            transitions.removeAll(keepingCapacity: true)
            if heldMayRelease(changed) {
                held.recheck = false
                releaseDecided(at: time, pending: &transitions, in: &stage, into: &out)
            }
        } while !transitions.isEmpty
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
    private mutating func start(_ event: GestureEvent, slot s: SlotID, claims: Bool, at time: Double,
                                pending transitions: inout [Transition], from pendingFrom: Int,
                                in stage: inout ArenaStage, into out: inout [Delivery]) {
        slots[s.index].rule = nil
        if let winner = slots[s.index].beatenBy, claims {
            trace(.lostSequence(kind: event.name ?? event.kind.rawValue, winner: label(winner)), at: time, in: &stage)
            return
        }
        guard let rule = chooseRule(for: event, at: time, in: &stage) else { return }
        if claims, let rival = earlierRival(of: event, rule: rule, slot: s, among: transitions, from: pendingFrom) {
            // A tie: recognized in the same frame, the gesture that began first
            // covers more of the sequence and wins it.
            trace(.lostSequence(kind: event.name ?? event.kind.rawValue, winner: label(rival)), at: time, in: &stage)
            slots[s.index].beatenBy = rival
            return
        }
        slots[s.index].rule = rule
        recognized[rule.index] = true
        let prerequisites = self[rule].requiresFailureOf.flatMap { rulesByName[$0] ?? [] }
        let recognizedFirst = prerequisites.filter { status(of: $0, stage.recognizers) == .recognized }
        if !recognizedFirst.isEmpty {
            trace(.dropped(label(rule), recognized: recognizedFirst.map(label)), at: time, in: &stage)
            slots[s.index].rule = nil
            recognized[rule.index] = false
            return
        }
        // One recognized in this same frame, whose event is still to be
        // resolved, is undecided too: it may yet be recognized for its rule.
        let waiting = prerequisites.filter {
            status(of: $0, stage.recognizers) == .undecided || hasPendingFirstEvent(for: $0, among: transitions, from: pendingFrom)
        }
        if !waiting.isEmpty {
            trace(.held(label(rule), until: waiting.map(label)), at: time, in: &stage)
            slots[s.index].isHeld = true
            // The first to wait was not waiting for this pass's earlier
            // transitions, which went unrecorded: it is looked at whole, and
            // it is all there is to look at.
            if held.isEmpty { held.recheck = true }
            held.append(Held(slot: s, rule: rule, sequence: stage.tracker.sequence, events: [event], waitingOn: waiting))
            return
        }
        if claims { claim(for: rule, slot: s, at: time, pending: &transitions, from: pendingFrom, in: &stage) }
        deliver(event, to: rule, into: &out)
    }

    /// A gesture recognized in the same frame, still to be resolved, that began
    /// earlier than `event` and may not run with it: its rule wins the tie.
    private func earlierRival(of event: GestureEvent, rule: RuleID, slot s: SlotID, among transitions: [Transition], from index: Int) -> RuleID? {
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

    private enum RuleStatus { case recognized, failed, undecided }

    /// For `requires_failure_of`: has this rule's gesture happened, failed, or not yet been decided?
    private func status(of rule: RuleID, _ recognizers: RecognizerSet) -> RuleStatus {
        if recognized[rule.index] { return .recognized }
        guard self[rule].isActive, let s = slot(serving: self[rule].spec) else { return .failed }
        if slots[s.index].beatenBy != nil { return .failed }
        return recognizers.state(s) == .possible ? .undecided : .failed
    }

    private mutating func releaseDecided(at time: Double, pending transitions: inout [Transition], in stage: inout ArenaStage, into out: inout [Delivery]) {
        var k = 0
        while k < held.count {
            let entry = held[k]
            let recognizedFirst = entry.waitingOn.filter { status(of: $0, stage.recognizers) == .recognized }
            if !recognizedFirst.isEmpty {
                trace(.dropped(label(entry.rule), recognized: recognizedFirst.map(label)), at: time, in: &stage)
                held.remove(at: k)
                slots[entry.slot.index].isHeld = false
                slots[entry.slot.index].rule = nil
                recognized[entry.rule.index] = false
                k = 0
            } else if entry.waitingOn.allSatisfy({ status(of: $0, stage.recognizers) == .failed }) {
                // (an empty list too: everything it waited on failed)
                held.remove(at: k)
                release(entry, at: time, pending: &transitions, in: &stage, into: &out)
                k = 0
            } else {
                k += 1
            }
        }
    }

    /// The input ended: what the held gestures waited for can no longer
    /// happen, so each is released, in the order they were held.
    mutating func releaseAll(at time: Double, pending transitions: inout [Transition], in stage: inout ArenaStage, into out: inout [Delivery]) {
        for entry in held.entries { release(entry, at: time, pending: &transitions, in: &stage, into: &out) }
        held.removeAll()
    }

    private mutating func release(_ entry: Held, at time: Double, pending transitions: inout [Transition], in stage: inout ArenaStage, into out: inout [Delivery]) {
        trace(.released(label(entry.rule)), at: time, in: &stage)
        slots[entry.slot.index].isHeld = false
        if entry.sequence == stage.tracker.sequence && stage.tracker.isActive {
            claim(for: entry.rule, slot: entry.slot, at: time, pending: &transitions, from: transitions.count, in: &stage)
        }
        // Delivered now, so dated now: actions leave in time order.
        for var event in entry.events {
            event.time = max(event.time, time)
            deliver(event, to: entry.rule, into: &out)
        }
    }

    /// A gesture won its sequence: every other recognizer that could still
    /// recognize fails, unless the two may run together.
    private mutating func claim(for rule: RuleID, slot winner: SlotID, at time: Double,
                                pending transitions: inout [Transition], from pendingFrom: Int, in stage: inout ArenaStage) {
        let exclusive = self[rule].exclusive
        for other in stage.recognizers.slots where other != winner {
            if !exclusive && mayRunTogether(rule: rule, winner: winner, other: other) { continue }
            let state = stage.recognizers.state(other)
            if state == .possible || (exclusive && state.isRunning) {
                stage.recognizers.forceFail(other, at: time, cause: .lostTo(label(rule).description), tracker: stage.tracker, into: &transitions)
            }
            if state == .possible || hasPendingFirstEvent(other, among: transitions, from: pendingFrom) {
                slots[other.index].beatenBy = rule
            }
        }
    }

    private func hasPendingFirstEvent(for rule: RuleID, among transitions: [Transition], from index: Int) -> Bool {
        guard let s = slot(serving: self[rule].spec) else { return false }
        return hasPendingFirstEvent(s, among: transitions, from: index)
    }

    /// One recognized in the same frame, whose first event is still to be resolved, loses too.
    private func hasPendingFirstEvent(_ slot: SlotID, among transitions: [Transition], from index: Int) -> Bool {
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

    // MARK: - Rules for a gesture

    /// The active rule that matches with the most context (an application, held
    /// keys), then the narrowest spec; among equals, the one defined last.
    /// `bestRule`, and in the trace the rules that match but sat out in their
    /// cooldown, as explain reads them (`held back by its cooldown`).
    private func chooseRule(for event: GestureEvent, at time: Double, in stage: inout ArenaStage) -> RuleID? {
        let best = bestRule(for: event)
        guard stage.trace.isOn else { return best }
        let floor = best.map { (context: self[$0].contextRank, spec: self[$0].spec.specificity) }
        for rule in ruleIDs where self[rule].isActive && self[rule].spec.matches(event) {
            guard let left = self[rule].cooldownLeft(at: event.time) else { continue }
            if let floor, (context: self[rule].contextRank, spec: self[rule].spec.specificity) < floor { continue }
            trace(.cooledDown(label(rule), left: left), at: time, in: &stage)
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

    private func trace(_ entry: TraceEntry, at time: Double, in stage: inout ArenaStage) {
        stage.trace(entry, at: time)
    }
}
