/// A rule as the trace names it: `rule "name"`, or its phrase when it has no name.
public struct RuleLabel: Equatable, Sendable, CustomStringConvertible {
    /// Its place in the rules as given.
    public var index: Int
    public var description: String

    public init(index: Int, description: String) {
        self.index = index
        self.description = description
    }

    /// `rule "name"`, the name quoted for a terminal: a name with a newline,
    /// a terminal escape or a bidirectional override in it (a rules file is
    /// input like any other) stays on its line, in its order, and changes no colours.
    public init(index: Int, name: String) {
        self.init(index: index, description: "rule " + TerminalText.quoted(name))
    }
}

/// One thing the arena decided, for `--trace`, `--trace=json` and `explain`.
public enum TraceEntry: Sendable {
    /// A recognizer changed state.
    case transition(Transition)
    /// The input was repaired or reinterpreted before the recognizers saw it.
    case input(InputNote)
    /// A gesture recognized after another had won the sequence; `winner` when known.
    case lostSequence(kind: String, winner: RuleLabel?)
    /// A rule's gesture was dropped: a rule it requires to fail was recognized.
    case dropped(RuleLabel, recognized: [RuleLabel])
    /// A rule's gesture waits for rules it requires to fail (`requires_failure_of`).
    case held(RuleLabel, until: [RuleLabel])
    /// What a held gesture waited for failed: it is delivered.
    case released(RuleLabel)
    /// A rule matched a gesture but sat it out: its cooldown had `left` seconds to run.
    case cooledDown(RuleLabel, left: Double)
    /// The core caught itself misbehaving and recovered.
    case bug(CoreBug)
}

public struct TraceRecord: Sendable {
    public var time: Double
    public var device: Int
    public var entry: TraceEntry

    public init(time: Double, device: Int, entry: TraceEntry) {
        self.time = time
        self.device = device
        self.entry = entry
    }

    /// The `--trace` line: `t=1.42 swipe: possible → lifted too slow: … → failed`.
    public var text: String {
        "t=\(TraceRecord.format(time)) " + words
    }

    /// The line without its time.
    public var words: String {
        switch entry {
        case .transition(let t): return TraceRecord.describe(t)
        case .input(let note): return "input: \(note)"
        case .lostSequence(let kind, let winner):
            return "\(kind): lost this sequence to \(winner.map(\.description) ?? "an earlier gesture")"
        case .dropped(let rule, let recognized):
            let names = recognized.map(\.description).joined(separator: ", ")
            return "\(rule): dropped, \(names.isEmpty ? "a rule it requires to fail" : names) was recognized"
        case .held(let rule, let until): return "\(rule): held until \(until.map(\.description).joined(separator: ", ")) fail"
        case .released(let rule): return "\(rule): released"
        case .cooledDown(let rule, let left): return "\(rule): held back by its cooldown (\(TraceRecord.oneDecimal(left)) s left)"
        case .bug(let bug): return "bug: \(bug)"
        }
    }

    static func describe(_ t: Transition) -> String {
        var line = "\(t.name ?? t.kind.rawValue): \(t.from.rawValue) → \(t.cause) → \(t.to.rawValue)"
        if let e = t.event { line += " (\(gestureWords(e)))" }
        return line
    }

    /// "2-finger left", "1-finger, 2 taps", "1-finger, circle 0.91".
    static func gestureWords(_ e: GestureEvent) -> String {
        var words = "\(e.fingers)-finger"
        if let d = e.direction { words += " \(d.rawValue)" }
        if e.kind == .tap { words += ", \(e.taps) tap\(e.taps == 1 ? "" : "s")" }
        if let edge = e.edge { words += ", from \(edge.rawValue)" }
        if e.resting > 0 { words += ", \(e.resting) resting" }
        if e.kind == .shape, let shape = e.name { words += ", \(shape) \(twoDecimals(e.score))" }
        return words
    }

    /// Seconds to a tenth, at least 0.1: "0.4".
    public static func oneDecimal(_ seconds: Double) -> String {
        let tenths = max(1, (seconds * 10).rounded(.up))
        return tenths.isFinite && tenths < 1e9 ? "\(Int(tenths) / 10).\(Int(tenths) % 10)" : "\(seconds)"
    }

    /// Seconds as JSON writes them, to the microsecond.
    public static func format(_ time: Double) -> String {
        var json = JSONWriter()
        json.time(time)
        return json.text
    }
}
