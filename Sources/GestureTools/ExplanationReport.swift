import GestureEngine
import GestureCore

/// `explain`'s output: lines for people, or JSON lines for tools.
extension Explanation {
    /// A sequence's block: its heading, a line per rule, its arbitration, a blank line.
    public static func text(_ sequence: Sequence) -> [String] {
        var lines = [heading(sequence)]
        for (rule, verdict) in sequence.verdicts {
            lines.append("  \(rule.label)\(place(rule)): \(verdict.words)")
        }
        for line in sequence.arbitration { lines.append("  arbitration: \(line)") }
        lines.append("")
        return lines
    }

    /// The tally: each rule, how often it fired, or why it never did.
    public static func summaryText(rules: [Rule], tally: ExplanationTally) -> [String] {
        var lines = ["rules:"]
        for rule in rules {
            if let why = tally.neverFired(rule) {
                lines.append("  \(rule.label)\(place(rule)): never fired: \(why)")
            } else {
                let fired = rule.index < tally.rules.count ? tally.rules[rule.index].fired : 0
                if rule.spec.isMouse {
                    let n = tally.presses
                    lines.append("  \(rule.label)\(place(rule)): fired in \(fired) of \(n) press\(n == 1 ? "" : "es") of a mouse's bound button")
                } else {
                    let n = tally.sequences
                    lines.append("  \(rule.label)\(place(rule)): fired in \(fired) of \(n) sequence\(n == 1 ? "" : "s")")
                }
            }
        }
        return lines
    }

    /// `sequence 2: 0.80–1.24 s, 2 fingers, on "Wacom Intuos", 48 mm left`
    static func heading(_ s: Sequence) -> String {
        let c = s.captured
        var text = "sequence \(s.number): \(fixed(c.start, 2))–\(fixed(c.end, 2)) s, \(c.mostFingers) finger\(c.mostFingers == 1 ? "" : "s")"
        if let name = c.deviceName { text += ", on " + TerminalText.quoted(name) }
        if let travel = travel(c) { text += ", \(travel)" }
        return text
    }

    /// How far the fingers went together, and which way: "moved 48 mm left".
    static func travel(_ c: CapturedSequence) -> String? {
        let moves = c.paths.compactMap { path -> Vector? in
            guard let first = path.points.first, let last = path.points.last else { return nil }
            return last - first
        }
        guard !moves.isEmpty else { return nil }
        var sum = Vector(0, 0)
        for m in moves { sum = sum + m }
        let mean = sum * (1 / Double(moves.count))
        guard let direction = StrokeClassifier.cardinal(of: mean) else { return "did not move" }
        return "moved \(millimetres(mean.length)) mm \(direction.rawValue)"
    }

    static func place(_ rule: Rule) -> String {
        rule.definedAt.isEmpty ? "" : " (\(rule.definedAt))"
    }

    /// One object per sequence (`--json`), then `summaryJSON`'s one per rule.
    public static func json(_ sequence: Sequence) -> String {
        var w = JSONWriter()
        let c = sequence.captured
        w.raw("{\"sequence\":")
        w.integer(Int64(sequence.number))
        w.raw(",\"device\":")
        w.integer(Int64(c.device))
        if let name = c.deviceName {
            w.raw(",\"device_name\":")
            w.string(name)
        }
        w.raw(",\"start\":")
        w.time(c.start)
        w.raw(",\"end\":")
        w.time(c.end)
        w.raw(",\"fingers\":")
        w.integer(Int64(c.mostFingers))
        w.raw(",\"rules\":[")
        for (i, entry) in sequence.verdicts.enumerated() {
            if i > 0 { w.raw(",") }
            write(entry.rule, entry.verdict, into: &w)
        }
        w.raw("],\"arbitration\":[")
        for (i, line) in sequence.arbitration.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(line)
        }
        w.raw("]}")
        return w.text
    }

    public static func summaryJSON(rules: [Rule], tally: ExplanationTally) -> [String] {
        rules.map { rule in
            var w = JSONWriter()
            w.raw("{\"rule\":")
            w.string(rule.label)
            w.raw(",\"defined_at\":")
            w.string(rule.definedAt)
            w.raw(",\"fired\":")
            w.integer(Int64(rule.index < tally.rules.count ? tally.rules[rule.index].fired : 0))
            if let why = tally.neverFired(rule) {
                w.raw(",\"never_fired\":")
                w.string(why)
            }
            w.raw("}")
            return w.text
        }
    }

    private static func write(_ rule: Rule, _ verdict: RuleVerdict, into w: inout JSONWriter) {
        w.raw("{\"rule\":")
        w.string(rule.label)
        w.raw(",\"defined_at\":")
        w.string(rule.definedAt)
        w.raw(",\"outcome\":")
        w.string(verdict.outcome)
        w.raw(",\"why\":")
        w.string(verdict.words)
        switch verdict {
        case .failed(let at, _, let cause):
            w.raw(",\"t\":")
            w.time(at)
            w.raw(",\"cause\":")
            w.string(cause.identifier)
            if let m = cause.measurement {
                w.raw(",\"measurement\":")
                m.write(into: &w)
            }
        case .fired(let e, _), .otherGesture(let e), .outTapped(let e, _), .takenBy(_, let e):
            w.raw(",\"t\":")
            w.time(e.time)
        case .lost(let at, _), .tooLate(let at, _), .dropped(let at, _):
            w.raw(",\"t\":")
            w.time(at)
        case .cooledDown(let at, let left):
            w.raw(",\"t\":")
            w.time(at)
            w.raw(",\"cooldown_left\":")
            w.time(left)
        case .inactive, .undecided, .continued:
            break
        }
        w.raw("}")
    }
}
