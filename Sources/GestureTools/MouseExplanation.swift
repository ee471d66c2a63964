import GestureCore
import GestureEngine

/// `explain` on a mouse's recording: for each press of a bound button, the
/// stroke and the rule that took it, or why it was no stroke, or which stroke
/// it was and the rule nearest to it.
extension Explanation {
    public struct Press: Sendable {
        public var number: Int
        public var press: MousePress
        /// The rule that took it, as `explain` names rules.
        public var rule: Rule?
        /// For a stroke no rule names: the stroke rule whose arms agree with it most.
        public var nearest: Rule?
    }

    static func press(number: Int, _ press: MousePress, rules: [Rule]) -> Press {
        var taker: Rule?
        var nearest: Rule?
        switch press.outcome {
        case .taken(let rule, _), .chord(_, rule: let rule?), .clicked(rule: let rule?):
            taker = rules.first { $0.index == rule.index }
        case .unnamed(let directions, _):
            nearest = nearestRule(to: directions, button: press.button, rules: rules)
        default:
            break
        }
        return Press(number: number, press: press, rule: taker, nearest: nearest)
    }

    /// The live stroke rule for this button (or for any) whose arms agree with
    /// the stroke's at the most places, fewer arms apart breaking a tie.
    static func nearestRule(to directions: [Direction], button: String, rules: [Rule]) -> Rule? {
        var best: (rule: Rule, score: Int)?
        for rule in rules where rule.isActive && rule.spec.kind == .stroke && (rule.spec.button.map { $0.rawValue == button } ?? true) {
            guard let arms = rule.spec.arms else { continue }
            let agree = zip(arms, directions).filter { $0 == $1 }.count
            let score = agree * 10 - abs(arms.count - directions.count)
            if best.map({ score > $0.score }) ?? true { best = (rule, score) }
        }
        return best?.rule
    }

    /// What became of the press, in words.
    public static func words(_ p: Press) -> String {
        switch p.press.outcome {
        case .taken(_, let name):
            return "\(name.isEmpty ? "a stroke" : "stroke \(name)"), taken by \(label(p.rule))"
        case .unnamed(_, let name):
            let nearest = p.nearest.map { "; the nearest: \($0.label)\(place($0)), \($0.spec.arms.map(StrokeDirections.name) ?? "")" } ?? "; no stroke rule binds the \(p.press.button) button"
            return "stroke \(name), which no rule names\(nearest)"
        case .noStroke(let why):
            return why
        case .click(let threshold):
            return "a click: it moved less than \(fixed(threshold, 2)) mm, so it is no stroke"
        case .held(let timeout):
            return "held still \(fixed(timeout, 2)) s: a long press or a drag, no stroke"
        case .chord(let chord, _):
            return "chord \(chord), taken by \(label(p.rule))"
        case .clicked:
            return "a click, taken by \(label(p.rule)): the desktop sees none of it"
        }
    }

    private static func label(_ rule: Rule?) -> String {
        guard let rule else { return "a rule" }
        return rule.label + place(rule)
    }

    /// `press 1: right button, 0.62–0.86 s, on "USB Mouse", 15.2 mm from the press: stroke left, taken by rule "stroke left" (r.lua:1)`
    public static func text(_ p: Press) -> [String] {
        let m = p.press
        var head = "press \(p.number): \(m.button) button, \(fixed(m.start, 2))–\(fixed(m.end, 2)) s"
        if let name = m.deviceName { head += ", on " + TerminalText.quoted(name) }
        head += ", \(millimetres(m.distance)) mm from the press"
        return ["\(head): \(words(p))", ""]
    }

    static func outcomeName(_ outcome: MousePress.Outcome) -> String {
        switch outcome {
        case .taken: return "taken"
        case .unnamed: return "unnamed"
        case .noStroke: return "no_stroke"
        case .click: return "click"
        case .held: return "held"
        case .chord: return "chord"
        case .clicked: return "clicked"
        }
    }

    /// One object per press (`--json`).
    public static func json(_ p: Press) -> String {
        let m = p.press
        var w = JSONWriter()
        w.raw("{\"press\":")
        w.integer(Int64(p.number))
        w.raw(",\"device\":")
        w.integer(Int64(m.device))
        if let name = m.deviceName {
            w.raw(",\"device_name\":")
            w.string(name)
        }
        w.raw(",\"button\":")
        w.string(m.button)
        w.raw(",\"start\":")
        w.time(m.start)
        w.raw(",\"end\":")
        w.time(m.end)
        w.raw(",\"distance\":")
        w.time(m.distance)
        w.raw(",\"outcome\":")
        w.string(outcomeName(m.outcome))
        switch m.outcome {
        case .taken(_, let name) where !name.isEmpty, .unnamed(_, let name):
            w.raw(",\"stroke\":")
            w.string(name)
        case .chord(let chord, _):
            w.raw(",\"chord\":")
            w.string(chord)
        default:
            break
        }
        if let rule = p.rule ?? p.nearest {
            w.raw(p.rule == nil ? ",\"nearest\":" : ",\"rule\":")
            w.string(rule.label)
            w.raw(",\"defined_at\":")
            w.string(rule.definedAt)
        }
        w.raw(",\"why\":")
        w.string(words(p))
        w.raw("}")
        return w.text
    }
}
