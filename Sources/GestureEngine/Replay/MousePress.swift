import GestureCore

/// What became of one press of a bound button in a mouse's recording, for
/// the author tools (`explain`, `draw`): the path drawn from the press, and
/// the stroke, chord, click or hold it was.
public struct MousePress: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// A stroke or shape a rule took (`name`: its directions or shape).
        case taken(rule: RuleID, name: String)
        /// A stroke, read as `directions`, that no rule names.
        case unnamed(directions: [Direction], name: String)
        /// No stroke, and why (`MouseStrokeReading.Shortfall`'s words, a rest, the input's end).
        case noStroke(String)
        /// Let go before it moved `threshold` mm: a click, the desktop's.
        case click(threshold: Double)
        /// Held still past `timeout` s: a long press or a drag, the desktop's.
        case held(timeout: Double)
        /// A chord a rule took, as the gate writes it ("right+wheel up").
        case chord(String, rule: RuleID?)
        /// The button's click, which a rule took (`{ kind = "click", button = ... }`).
        case clicked(rule: RuleID?)
    }

    public var device: Int
    public var deviceName: String?
    public var button: String
    public var start: Double
    public var end: Double
    /// Where the pointer went from the press, seconds and millimetres (y down).
    public var path: [MouseStrokeReading.Point]
    public var outcome: Outcome

    /// The straight distance from the press to the release, mm.
    public var distance: Double {
        guard let last = path.last else { return 0 }
        return (last.x * last.x + last.y * last.y).squareRoot()
    }
}

/// What a recorded mouse's press did so far, until its button goes up.
struct PressWatch {
    var button: UInt16
    var start: Double
    var x: Int64 = 0
    var y: Int64 = 0
    var moved = false
    var path: [MouseStrokeReading.Point]
    var outcome: MousePress.Outcome?
    /// The button went up in the packet now being read.
    var released = false
    /// Points kept: past them the path is thinned no more, only not grown.
    static let maxPoints = 4096

    init(button: UInt16, at time: Double) {
        self.button = button
        start = time
        path = [MouseStrokeReading.Point(time: time, x: 0, y: 0)]
    }
}
