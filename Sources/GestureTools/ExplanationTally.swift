import GestureEngine
/// What `explain` keeps about the whole input once each sequence has been
/// told and let go: counts, not sequences, so a long recording costs no more
/// memory than a short one.
public struct ExplanationTally: Sendable {
    public struct RuleCount: Sendable {
        public var fired = 0
        /// Sequences in which the rule was live.
        public var live = 0
        /// Why it did not fire, each reason once with how often, in first-seen order.
        public var reasons: [(words: String, count: Int)] = []
    }

    public private(set) var sequences = 0
    /// A mouse's presses of bound buttons.
    public private(set) var presses = 0
    /// The most fingers down at once, each count seen in some sequence.
    public private(set) var fingerCounts: Set<Int> = []
    public private(set) var rules: [RuleCount]
    /// Reasons kept per rule: past these, a new reason is only counted.
    static let reasonsKept = 16

    /// Which rules are a mouse's: only they are live for a press.
    private var mouseRules: [Bool] = []

    public init(rules: [Explanation.Rule]) {
        self.rules = Array(repeating: RuleCount(), count: rules.count)
        mouseRules = rules.map(\.spec.isMouse)
    }

    public mutating func add(_ sequence: Explanation.Sequence) {
        sequences += 1
        fingerCounts.insert(sequence.captured.mostFingers)
        for (rule, verdict) in sequence.verdicts where rule.index < rules.count {
            if case .inactive = verdict { continue }
            rules[rule.index].live += 1
            if verdict.fired {
                rules[rule.index].fired += 1
                continue
            }
            let words = Explanation.gist(verdict)
            if let i = rules[rule.index].reasons.firstIndex(where: { $0.words == words }) {
                rules[rule.index].reasons[i].count += 1
            } else if rules[rule.index].reasons.count < Self.reasonsKept {
                rules[rule.index].reasons.append((words, 1))
            }
        }
    }

    /// A mouse's press: the rule that took it fired; every other mouse rule was live and did not.
    public mutating func add(_ press: Explanation.Press) {
        presses += 1
        let gist: String
        switch press.press.outcome {
        case .unnamed(_, let name): gist = "the stroke was \(name)"
        case .taken(_, let name): gist = name.isEmpty ? "another rule took the stroke" : "the stroke was \(name)"
        case .chord(let chord, _): gist = "the press was chord \(chord)"
        default: gist = Explanation.words(press)
        }
        for i in rules.indices where press.rule?.index != i && i < mouseRules.count && mouseRules[i] {
            rules[i].live += 1
            if let j = rules[i].reasons.firstIndex(where: { $0.words == gist }) {
                rules[i].reasons[j].count += 1
            } else if rules[i].reasons.count < Self.reasonsKept {
                rules[i].reasons.append((gist, 1))
            }
        }
        if let taker = press.rule, taker.index < rules.count {
            rules[taker.index].live += 1
            rules[taker.index].fired += 1
        }
    }

    /// Why a rule never fired in the whole input, or nil when it did.
    public func neverFired(_ rule: Explanation.Rule) -> String? {
        guard rule.index < rules.count else { return nil }
        let count = rules[rule.index]
        guard count.fired == 0 else { return nil }
        if rule.spec.isMouse {
            if presses == 0 { return "the input had no press of a mouse's bound button" }
        } else if sequences == 0 {
            return "the input had no touch sequence"
        }
        if !rule.spec.isMouse, case .exactly(let n) = rule.spec.fingers, !fingerCounts.contains(n) {
            let seen = fingerCounts.sorted().map(String.init).joined(separator: ", ")
            return "no touch sequence had \(n) finger\(n == 1 ? "" : "s") (they had \(seen))"
        }
        if count.live == 0 { return "it was never live (another mode, device or application)" }
        // Most common first; among equals, the first seen.
        let ranked = count.reasons.enumerated().sorted { a, b in
            a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset
        }
        return ranked.prefix(3).map { $0.element.count > 1 ? "\($0.element.words) (×\($0.element.count))" : $0.element.words }
            .joined(separator: "; ")
    }
}
