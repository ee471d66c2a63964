/// Why a recognizer changed state. Logic matches on the case; `--trace` prints
/// `description`, so the words live here and nowhere else.
public enum TransitionCause: Equatable, Sendable, CustomStringConvertible {
    // What moved a recognizer on.
    /// A frame's touches decided it.
    case frame
    /// A deadline passed with no frame.
    case timeout
    /// The fingers lifted and the gesture was complete.
    case lift
    /// Held long enough, seen on a frame at or after the deadline.
    case held
    /// Fingers moved while a continuous gesture ran.
    case motion
    /// Another gesture won the sequence.
    case arbitration
    case fingerLanded
    case fingerLifted
    /// A running gesture ended by a landing may begin again with the new count.
    case newFingerCount
    /// A tap recognizer reported earlier taps and goes on judging the current press.
    case nextPress
    /// A contact of the gesture came to rest while other fingers landed beside it.
    case cameToRest

    // Why a recognizer failed.
    case touchCancelled
    case tooManyFingers(Int, GestureKind)
    case noRule(fingers: Int, GestureKind)
    case movedTooFar(limit: Double)
    case heldTooLong(limit: Double)
    case liftedEarly(limit: Double)
    case liftedBeforeBegan(GestureKind)
    case tooLong(limit: Double)
    case liftedWithoutStroke
    case liftedTooSlow(speed: Double, minimum: Double)
    case notStraight(StrokeShape.Flaw)
    case notFromEdge(zone: Double)
    case wrongWayFromEdge(Direction, Edge)
    case unknownSurface
    /// A tap with another finger count than the taps before it.
    case tapWithOtherFingers(Int)
    case tapTooFar
    /// Shapes: the drawing was smaller than `shape_min_size`.
    case shapeTooSmall(size: Double, minimum: Double)
    /// Shapes: a straight stroke is a swipe or a drag, never a shape.
    case straightStroke
    /// Shapes: it went along a line, perhaps back and forth (a drag up and down).
    case flatStroke
    /// Shapes: the best template matched too poorly for any rule.
    case shapeUnmatched(best: String, score: Double, minimum: Double)
    /// Shapes: it looked most like a shape no rule binds.
    case shapeUnbound(best: String, score: Double)
    /// A Lua recognizer called `fail`, with its reason if it gave one.
    case failedInLua(String?)
    /// A Lua recognizer's deadline passed and it has no `timeout` function.
    case deadlineInLua
    /// A Lua recognizer raised an error or ran out of its budget: it is disabled.
    case luaError

    public var description: String {
        switch self {
        case .frame: return "frame"
        case .timeout: return "timeout"
        case .lift: return "lift"
        case .held: return "held"
        case .motion: return "motion"
        case .arbitration: return "arbitration"
        case .fingerLanded: return "finger landed"
        case .fingerLifted: return "finger lifted"
        case .newFingerCount: return "new finger count"
        case .nextPress: return "next press"
        case .cameToRest: return "a finger came to rest"
        case .touchCancelled: return "touch cancelled"
        case .tooManyFingers(let n, let kind): return "\(n) fingers, more than any \(kind.ruleNoun) rule"
        case .noRule(let n, let kind): return "no \(kind.ruleNoun) rule for \(n) fingers"
        case .movedTooFar(let limit): return "moved more than \(limit) mm"
        case .heldTooLong(let limit): return "held longer than \(limit) s"
        case .liftedEarly(let limit): return "lifted before \(limit) s"
        case .liftedBeforeBegan(let kind): return "a finger lifted before the \(kind.phrase) began"
        case .tooLong(let limit): return "longer than \(limit) s"
        case .liftedWithoutStroke: return "lifted without a stroke"
        case .liftedTooSlow(let speed, let minimum): return "lifted at \(Int(clamping: speed)) mm/s, slower than \(Int(clamping: minimum))"
        case .notStraight(let flaw): return "not a stroke: \(flaw)"
        case .notFromEdge(let zone): return "did not start within \(zone) mm of an edge"
        case .wrongWayFromEdge(let direction, let edge): return "moved \(direction.rawValue), not in from the \(edge.rawValue) edge"
        case .unknownSurface: return "the surface size is unknown, so there are no edges to start from"
        case .tapWithOtherFingers(let n): return "tap with \(n) finger\(n == 1 ? "" : "s")"
        case .tapTooFar: return "tap too far from the last"
        case .shapeTooSmall(let size, let minimum): return "drawn \(Int(clamping: size.rounded())) mm across, less than \(Int(clamping: minimum.rounded())) mm"
        case .straightStroke: return "a straight stroke is no shape"
        case .flatStroke: return "it went back and forth along a line, which is no shape"
        case .shapeUnmatched(let best, let score, let minimum): return "most like \(best), but scored \(twoDecimals(score)), under \(twoDecimals(minimum))"
        case .shapeUnbound(let best, let score): return "most like \(best) (\(twoDecimals(score))), which no rule binds"
        case .failedInLua(let reason): return reason.map { "fail(): \($0)" } ?? "fail()"
        case .deadlineInLua: return "its deadline passed and it has no timeout function"
        case .luaError: return "an error in its Lua disabled it"
        }
    }
}

extension GestureKind {
    /// The kind as the trace names its rules: "no long-press rule for 3 fingers".
    var ruleNoun: String { self == .longPress ? "long-press" : phrase }
}

/// "0.75": scores in messages.
func twoDecimals(_ v: Double) -> String {
    let hundredths = Int(clamping: (v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let a = hundredths.magnitude
    return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
}

extension Int {
    /// A whole number from a double that may be huge or not a number, without trapping.
    init(clamping value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Int.max) {
            self = .max
        } else if value <= Double(Int.min) {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
