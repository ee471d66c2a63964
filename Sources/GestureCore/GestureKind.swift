/// The gesture kinds of the rule language (contract names in `rawValue`).
public enum GestureKind: String, CaseIterable, Sendable {
    case swipe
    case tap
    case longPress = "long_press"
    case pan
    case pinch
    case rotate
    case edgeSwipe = "edge_swipe"
    /// A shape drawn with one finger, matched against templates (docs/shapes.md).
    case shape
    /// A stroke drawn with a held mouse button, read as directions
    /// (`MouseStrokeReading`); its rules carry `button` and `arms`.
    case stroke
    /// A mouse chord: a button held, then another pressed (a rocker) or the
    /// wheel turned; its rules carry `button` and `press` or `wheel`.
    case chord
    /// A touchpad's physical click, by the fingers down and where they are
    /// (`ClickRecognizer`); its rules may carry `where` and `edge`.
    case click
    /// A kind defined by the rules with `recognizer(name, ...)`: the rule language
    /// knows it by that name, never by this one.
    case custom

    /// The kinds a rule names by their own name.
    public static let builtIn: [GestureKind] = allCases.filter { $0 != .custom }

    /// Continuous kinds report began/changed/ended; discrete ones are recognized once.
    /// A recognizer defined in Lua may be either: each of its gestures says (`GestureEvent.isDiscrete`).
    public var isContinuous: Bool {
        switch self {
        case .longPress, .pan, .pinch, .rotate, .custom: return true
        case .swipe, .tap, .edgeSwipe, .shape, .stroke, .chord, .click: return false
        }
    }

    public var allowedDirections: [Direction] {
        switch self {
        case .swipe, .edgeSwipe: return Direction.swipeDirections
        case .pan: return Direction.swipeDirections
        case .pinch: return [.in, .out]
        case .rotate: return [.clockwise, .counterclockwise]
        case .tap, .longPress, .shape, .stroke, .chord, .click, .custom: return []
        }
    }
}

/// Directions of every kind; the raw values are the rule language's spellings.
public enum Direction: String, CaseIterable, Sendable {
    case left, right, up, down
    case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
    case `in`, out
    case clockwise, counterclockwise

    public static let cardinals: [Direction] = [.right, .down, .left, .up]
    public static let swipeDirections: [Direction] = [
        .left, .right, .up, .down, .upLeft, .upRight, .downLeft, .downRight,
    ]

    public var isDiagonal: Bool {
        switch self {
        case .upLeft, .upRight, .downLeft, .downRight: return true
        default: return false
        }
    }

    /// The screen angle (degrees, clockwise from +x, y down) of a swipe direction.
    public var screenAngle: Double? {
        switch self {
        case .right: return 0
        case .downRight: return 45
        case .down: return 90
        case .downLeft: return 135
        case .left: return 180
        case .upLeft: return -135
        case .up: return -90
        case .upRight: return -45
        default: return nil
        }
    }

    /// The direction at the other side of a surface edge: an edge swipe from the
    /// left edge moves right.
    public static func inward(from edge: Edge) -> Direction {
        switch edge {
        case .left: return .right
        case .right: return .left
        case .top: return .down
        case .bottom: return .up
        }
    }
}

public enum Edge: String, CaseIterable, Sendable {
    case left, right, top, bottom

    /// Whether a point (0...1 on each axis, y down) lies on this side's half.
    public func holdsHalf(_ normalized: Vector) -> Bool {
        switch self {
        case .left: return normalized.x < 0.5
        case .right: return normalized.x >= 0.5
        case .top: return normalized.y < 0.5
        case .bottom: return normalized.y >= 0.5
        }
    }
}

/// The phase a handler sees: continuous gestures go through all four,
/// discrete ones are delivered once as `ended`.
public enum GesturePhase: String, Sendable {
    case began, changed, ended, cancelled
}
