import GestureEngine
import GestureCore

/// `gesturemap explain`: for each touch sequence, what became of each rule and
/// why (ExplainSession tells them one by one; ExplanationTally sums them up).
public enum Explanation {
    /// A rule as people know it.
    public struct Rule: Sendable {
        public var index: Int
        /// `rule "name"`, or the phrase when it has none, as the trace writes it.
        public var label: String
        public var definedAt: String
        public var spec: GestureSpec
        /// Live when the input ended (modes and applications change it during a run).
        public var isActive: Bool
    }

    public struct Sequence: Sendable {
        public var number: Int
        public var captured: CapturedSequence
        public var verdicts: [(rule: Rule, verdict: RuleVerdict)]
        /// Arbitration in words: who waited for whom, who lost to whom.
        public var arbitration: [String]
    }

    /// One sequence explained. `next` is the next sequence on its device, if
    /// any: a tap is decided there when it was the first of several.
    public static func sequence(number: Int, _ captured: CapturedSequence, next: (number: Int, sequence: CapturedSequence)?,
                                rules: [Rule]) -> Sequence {
        Sequence(number: number, captured: captured,
                 verdicts: rules.map { ($0, verdict(for: $0, in: captured, next: next)) },
                 arbitration: arbitration(in: captured))
    }

    /// A verdict without its times, so that alike ones are counted together.
    static func gist(_ verdict: RuleVerdict) -> String {
        switch verdict {
        case .failed(_, let kind, let cause):
            if let m = cause.measurement { return "\(kind) failed: \(m.limitWords)" }
            return "\(kind) failed: " + TerminalText.escaped(cause.description)
        case .lost(_, let winner): return "lost to \(winner)"
        case .tooLate(_, let winner): return "came after \(winner) won"
        case .otherGesture(let e): return "the gesture was \(GestureWords.withArticle(e))"
        case .dropped(_, let recognized): return "dropped: \(recognized.joined(separator: ", ")) was recognized"
        case .cooledDown: return "held back by its cooldown"
        default: return verdict.words
        }
    }

    // MARK: - One rule in one sequence

    static func verdict(for rule: Rule, in sequence: CapturedSequence, next: (number: Int, sequence: CapturedSequence)?) -> RuleVerdict {
        if let given = sequence.gestures.first(where: { $0.ruleIndex == rule.index }) {
            let waited = sequence.records.compactMap { record -> [String]? in
                if case .held(let held, let until) = record.entry, held.index == rule.index { return until.map(\.description) }
                return nil
            }
            return .fired(given.event, waitedFor: waited.first ?? [])
        }
        // Later decisions say more than earlier ones: go from the end.
        for record in sequence.records.reversed() {
            switch record.entry {
            case .dropped(let dropped, let recognized) where dropped.index == rule.index:
                return .dropped(at: record.time, recognized: recognized.map(\.description))
            case .cooledDown(let cooling, let left) where cooling.index == rule.index:
                return .cooledDown(at: record.time, left: left)
            case .lostSequence(let kind, let winner) where kind == transitionName(rule.spec):
                return .tooLate(at: record.time, winner: winner?.description ?? "an earlier gesture")
            case .transition(let t) where belongs(t, to: rule.spec):
                if let verdict = verdict(for: rule, after: t, at: record.time, in: sequence) { return verdict }
            default:
                continue
            }
        }
        // Taps go on across sequences: the first of a double tap is decided with the second.
        if rule.spec.kind == .tap, let next, let first = firstEvent(of: rule.spec, in: next.sequence), first.taps > 1 {
            return rule.spec.fingers.matches(first.fingers) ? .continued(in: next.number) : .otherGesture(first)
        }
        return rule.isActive ? .undecided : .inactive
    }

    private static func firstEvent(of spec: GestureSpec, in sequence: CapturedSequence) -> GestureEvent? {
        for record in sequence.records {
            if case .transition(let t) = record.entry, belongs(t, to: spec), let e = t.event { return e }
        }
        return nil
    }

    private static func verdict(for rule: Rule, after t: Transition, at time: Double, in sequence: CapturedSequence) -> RuleVerdict? {
        if let e = t.event, t.to == .ended || t.to == .began {
            guard rule.spec.matches(e) else {
                if e.kind == .tap, e.taps > rule.spec.taps, rule.spec.fingers.matches(e.fingers) {
                    return .outTapped(e, by: sequence.gestures.first { $0.event.kind == .tap && $0.event.time == e.time }.map { RuleLabel(index: $0.ruleIndex, name: $0.rule).description })
                }
                return .otherGesture(e)
            }
            if let winner = sequence.gestures.first(where: { $0.event.kind == e.kind && $0.event.time == e.time }) {
                return .takenBy(RuleLabel(index: winner.ruleIndex, name: winner.rule).description, e)
            }
            return nil
        }
        guard t.to == .failed || t.to == .cancelled else { return nil }
        if case .lostTo(let winner) = t.cause { return .lost(at: time, to: winner) }
        return .failed(at: time, kind: t.name ?? t.kind.phrase, t.cause)
    }

    /// Whether a transition is of the recognizer a rule's gesture comes from.
    static func belongs(_ t: Transition, to spec: GestureSpec) -> Bool {
        guard t.kind == spec.kind else { return false }
        return spec.kind != .custom || t.name == spec.name
    }

    /// The kind as the trace names it in `lostSequence`.
    private static func transitionName(_ spec: GestureSpec) -> String {
        spec.kind == .custom ? (spec.name ?? spec.kind.rawValue) : spec.kind.rawValue
    }

    // MARK: - Arbitration

    static func arbitration(in sequence: CapturedSequence) -> [String] {
        sequence.records.compactMap { record in
            let at = "at \(fixed(record.time, 2)) s"
            switch record.entry {
            case .held(let rule, let until):
                return "\(rule) waited for \(until.map(\.description).joined(separator: ", ")) to fail (requires_failure_of), \(at)"
            case .released(let rule):
                return "\(rule) was released \(at): what it waited for failed"
            case .cooledDown(let rule, let left):
                return "\(rule) was held back by its cooldown (\(TraceRecord.oneDecimal(left)) s left) \(at)"
            case .dropped(let rule, let recognized):
                return "\(rule) lost \(at): \(recognized.map(\.description).joined(separator: ", ")) was recognized"
            case .lostSequence(let kind, let winner):
                return "\(kind) was recognized \(at), but \(winner?.description ?? "an earlier gesture") had won the sequence"
            case .transition(let t):
                guard case .lostTo(let winner) = t.cause else { return nil }
                return "\(t.name ?? t.kind.phrase) lost to \(winner) \(at)"
            default:
                return nil
            }
        }
    }
}
