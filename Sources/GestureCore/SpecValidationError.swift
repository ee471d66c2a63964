/// What makes a gesture spec impossible to match, in words for the rule author.
public enum SpecValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case fingers(Int)
    /// Pinches and rotates take two fingers or more.
    case tooFewFingers(GestureKind)
    case noDirection(GestureKind, Direction)
    case wrongDirection(Direction, GestureKind)
    case taps(Int)
    case resting(Int)
    /// An edge swipe's direction that does not lead in from its edge.
    case edgeDirection(Edge, Direction)
    case shapeFingers
    case emptyShapeName
    case minScore(Double)
    case unnamedRecognizer
    case minScoreOnRecognizer(String)
    case minScoreOnKind(GestureKind)
    case nameOnKind(GestureKind)
    case strokeFingers
    case strokeArms(Int)
    case strokeKeyOnKind(GestureKind)
    /// A mouse button's click with a touchpad's place or fingers.
    case placeOnMouseClick(MouseButton)
    case fingersOnMouseClick(MouseButton)
    case chordKeyOnKind(GestureKind)
    case chordFingers
    case chordWithoutButton
    case chordNeedsOne
    case chordBoth
    case chordSameButton(MouseButton)
    case chordWheel(Direction)
    /// `edge` on a kind other than an edge swipe or a click.
    case edgeNotOf(GestureKind)
    /// `where` on a kind other than a click.
    case sideNotOf(GestureKind)

    public var description: String {
        switch self {
        case .fingers(let n): return "fingers must be 1 to \(GestureSpec.maxFingers) or \"any\", not \(n)"
        case .tooFewFingers(let kind): return "a \(kind.rawValue) needs at least 2 fingers"
        case let .noDirection(kind, direction): return "a \(kind.phrase) has no direction; remove \"\(direction.rawValue)\""
        case let .wrongDirection(direction, kind):
            let allowed = kind.allowedDirections.map { $0.rawValue }.joined(separator: ", ")
            return "\"\(direction.rawValue)\" is not a direction of \(kind.phrase); use one of \(allowed)"
        case .taps(let n): return "taps must be 1 to \(GestureSpec.maxTaps), not \(n)"
        case .resting(let n): return "resting must be 0 to \(GestureSpec.maxResting), not \(n)"
        case let .edgeDirection(edge, direction):
            return "an edge swipe from the \(edge.rawValue) edge moves \(Direction.inward(from: edge).rawValue), not \(direction.rawValue)"
        case .shapeFingers: return "a shape is drawn with one finger; remove \"fingers\""
        case .emptyShapeName: return "a shape's name cannot be empty"
        case .minScore(let score): return "min_score must be from 0 to 1, not \(score)"
        case .unnamedRecognizer: return "a recognizer's kind needs its name"
        case .minScoreOnRecognizer(let name): return "min_score belongs to shapes, not \"\(name)\""
        case .minScoreOnKind(let kind): return "min_score belongs to shapes, not \(kind.phrase)"
        case .edgeNotOf(let kind): return "\"edge\" belongs to kinds \"edge_swipe\" and \"click\", not \"\(kind.rawValue)\""
        case .sideNotOf(let kind): return "\"where\" belongs to kind \"click\", not \"\(kind.rawValue)\""
        case .nameOnKind(let kind): return "a name belongs to shapes and recognizers, not \(kind.phrase)"
        case .strokeFingers: return "a stroke is drawn with the mouse; remove \"fingers\""
        case .strokeArms(let n): return "a stroke has 1 to \(StrokeDirections.maxArms) arms, not \(n)"
        case .strokeKeyOnKind(let kind): return "\"button\" belongs to kinds \"stroke\", \"chord\", \"shape\" (drawn with a mouse) and \"click\" (a mouse button's), not \"\(kind.rawValue)\""
        case .placeOnMouseClick(let b): return "a click with \"button\" is the mouse's \(b.rawValue) button, which has no place on a touchpad: drop \"where\" and \"edge\" (or \"button\", for a touchpad's click)"
        case .fingersOnMouseClick(let b): return "a click with \"button\" is the mouse's \(b.rawValue) button, clicked with one finger: drop \"fingers\" (or \"button\", for a touchpad's click)"
        case .chordKeyOnKind(let kind): return "\"press\" and \"wheel\" belong to kind \"chord\", not \"\(kind.rawValue)\""
        case .chordFingers: return "a chord is made with the mouse; remove \"fingers\""
        case .chordWithoutButton: return "a chord needs \"button\", the button held first, such as { kind = \"chord\", button = \"left\", press = \"right\" }"
        case .chordNeedsOne: return "a chord needs one of \"press\" (a second button, a rocker) or \"wheel\" (\"up\", \"down\", \"left\", \"right\")"
        case .chordBoth: return "a chord is a second button or the wheel, not both: keep \"press\" or \"wheel\""
        case .chordSameButton(let b): return "a chord presses a second button; \"press\" is \"\(b.rawValue)\", the button held"
        case .chordWheel(let d): return "the wheel turns up, down, left or right, not \(d.rawValue)"
        }
    }
}
