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

    // Why a recognizer failed. Where a number decided it, the case carries
    // the number and the limit it broke (`measurement`).
    case touchCancelled
    /// The device's physical button went down while the fingers were down.
    case clicked
    /// Clicks: every finger lifted and the button never went down.
    case liftedWithoutClick
    case tooManyFingers(Int, GestureKind)
    case noRule(fingers: Int, GestureKind)
    case movedTooFar(Measurement)
    case heldTooLong(Measurement)
    case liftedEarly(Measurement)
    /// Lifted before it began; with what fell short when one number did.
    case liftedBeforeBegan(GestureKind, Measurement?)
    case tooLong(Measurement)
    case liftedWithoutStroke(Measurement?)
    case liftedTooSlow(Measurement)
    case notStraight(StrokeShape.Flaw)
    case notFromEdge(Measurement)
    case wrongWayFromEdge(Direction, Edge)
    case unknownSurface
    /// A tap with another finger count than the taps before it.
    case tapWithOtherFingers(Int)
    case tapTooFar(Measurement)
    /// The next finger of a roll tapped: the last one's tap stands alone.
    case rolledFinger
    /// Shapes: the drawing was smaller than `shape_min_size`.
    case shapeTooSmall(Measurement)
    /// Shapes: a straight stroke is a swipe or a drag, never a shape.
    case straightStroke
    /// Shapes: it went along a line, perhaps back and forth (a drag up and down).
    case flatStroke
    /// Shapes: the best template matched too poorly for any rule.
    case shapeUnmatched(best: String, Measurement)
    /// Shapes: the best template turns sharply somewhere, and the drawing
    /// nowhere does: a smooth curve near a check or a bracket (`ShapeCorners`).
    case shapeWithoutCorner(best: String, Measurement)
    /// Shapes: the drawing scored well enough, but wanders where the shape
    /// does not: straight or bending back on its way round a circle
    /// (`ShapeBend`).
    case shapeStrays(best: String, Measurement)
    /// Shapes: it looked most like a shape no rule binds.
    case shapeUnbound(best: String, score: Double)
    /// A Lua recognizer called `fail`, with its reason if it gave one.
    case failedInLua(String?)
    /// A Lua recognizer's deadline passed and it has no `timeout` function.
    case deadlineInLua
    /// A Lua recognizer raised an error or ran out of its budget: it is disabled.
    case luaError
    /// A recognizer's deadlines would never stop: its timeout re-armed
    /// `maxDeadlineChain` times with no input between, or one was set past
    /// the end of the input, or one passed and was kept (`DeadlineMisuse`).
    case endlessDeadlines(DeadlineMisuse)
    /// A rule of another kind won the sequence (its label).
    case lostTo(String)
    /// The sequence ended with the recognizer still undecided.
    case sequenceEnded
    /// Not a change of state: a step the state machine has no edge for (a
    /// driver's `changed` before `began`), ignored. The arena traces it as a bug.
    case impossibleStep(ImpossibleStep)

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
        case .clicked: return "a physical click: the device's button went down under the fingers (a click is no tap or long press, as in libinput)"
        case .liftedWithoutClick: return "lifted without a click"
        case .tooManyFingers(let n, let kind): return "\(n) fingers, more than any \(kind.ruleNoun) rule"
        case .noRule(let n, let kind): return "no \(kind.ruleNoun) rule for \(n) finger\(n == 1 ? "" : "s")"
        case .movedTooFar(let m), .heldTooLong(let m), .liftedEarly(let m), .tooLong(let m): return m.description
        case .liftedBeforeBegan(let kind, let m):
            return "a finger lifted before the \(kind.phrase) began" + (m.map { ": \($0)" } ?? "")
        case .liftedWithoutStroke(let m): return "lifted without a stroke" + (m.map { ": \($0)" } ?? "")
        case .liftedTooSlow(let m): return "lifted too slow: \(m)"
        case .notStraight(let flaw): return "not a stroke: \(flaw)"
        case .notFromEdge(let m): return "did not start at an edge: \(m)"
        case .wrongWayFromEdge(let direction, let edge): return "moved \(direction.rawValue), not in from the \(edge.rawValue) edge"
        case .unknownSurface: return "the surface size is unknown, so there are no edges to start from"
        case .tapWithOtherFingers(let n): return "tap with \(n) finger\(n == 1 ? "" : "s")"
        case .tapTooFar(let m): return "tap too far from the last: \(m)"
        case .rolledFinger: return "the next finger of a roll tapped"
        case .shapeTooSmall(let m): return "too small for a shape: \(m)"
        case .straightStroke: return "a straight stroke is no shape"
        case .flatStroke: return "it went back and forth along a line, which is no shape"
        case .shapeUnmatched(let best, let m): return "most like \(best), but \(m)"
        case .shapeWithoutCorner(let best, let m): return "most like \(best), which has a corner where this drawing only curves: \(m)"
        case .shapeStrays(let best, let m): return "most like \(best), but it wanders where \(best) does not: \(m)"
        case .shapeUnbound(let best, let score): return "most like \(best) (\(twoDecimals(score))), which no rule binds"
        case .failedInLua(let reason): return reason.map { "fail(): \($0)" } ?? "fail()"
        case .deadlineInLua: return "its deadline passed and it has no timeout function"
        case .luaError: return "an error in its Lua disabled it"
        case .endlessDeadlines(let misuse): return misuse.description
        case .lostTo(let winner): return "lost to \(winner)"
        case .sequenceEnded: return "the fingers lifted with it undecided"
        case .impossibleStep(let step): return step.description
        }
    }
}

extension TransitionCause {
    /// The number that decided a failure, when one did.
    public var measurement: Measurement? {
        switch self {
        case .movedTooFar(let m), .heldTooLong(let m), .liftedEarly(let m), .tooLong(let m),
             .liftedTooSlow(let m), .notFromEdge(let m), .tapTooFar(let m), .shapeTooSmall(let m), .shapeUnmatched(_, let m),
             .shapeWithoutCorner(_, let m), .shapeStrays(_, let m):
            return m
        case .liftedBeforeBegan(_, let m), .liftedWithoutStroke(let m):
            return m
        default:
            return nil
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
