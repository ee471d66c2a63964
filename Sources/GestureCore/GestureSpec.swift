/// How many fingers a rule asks for.
public enum FingerCount: Equatable, Hashable, Sendable {
    case exactly(Int)
    case any

    public func matches(_ fingers: Int) -> Bool {
        switch self {
        case .any: return true
        case .exactly(let n): return n == fingers
        }
    }

    public var description: String {
        switch self {
        case .any: return "any"
        case .exactly(let n): return String(n)
        }
    }
}

/// What a rule matches: the pure-data half of a rule, shared by the Lua layer,
/// `check`, `synth` and arbitration.
public struct GestureSpec: Equatable, Hashable, Sendable {
    public var kind: GestureKind
    public var fingers: FingerCount
    public var direction: Direction?
    public var taps: Int
    public var edge: Edge?
    /// Contacts resting still beside the gesture's fingers (a thumb, a palm's
    /// heel); nil: any number, so a rule that does not ask still fires beside one.
    public var resting: Int?
    /// The shape (kind `shape`; nil: any shape) or the Lua recognizer (kind `custom`).
    public var name: String?
    /// Shapes: the least score a match needs; nil takes `shape_min_score`.
    public var minScore: Double?
    /// Strokes: the button held (nil: `config{ stroke_button }`); chords: the button held first.
    public var button: MouseButton?
    /// Chords: the button pressed while `button` is held (a rocker).
    public var press: MouseButton?
    /// Chords: the way the wheel turns while `button` is held (up, down, left, right).
    public var wheel: Direction?
    /// Strokes: the directions in order (nil: any stroke).
    public var arms: [Direction]?
    /// Clicks: the half of the surface the fingers are on (`where`; nil: anywhere).
    public var side: Edge?

    public static let maxFingers = 5
    public static let maxTaps = 3
    public static let maxResting = 4

    public init(kind: GestureKind, fingers: FingerCount? = nil, direction: Direction? = nil, taps: Int? = nil, edge: Edge? = nil, resting: Int? = nil,
                name: String? = nil, minScore: Double? = nil, button: MouseButton? = nil, arms: [Direction]? = nil, side: Edge? = nil,
                press: MouseButton? = nil, wheel: Direction? = nil) {
        self.kind = kind
        self.press = press
        self.wheel = wheel
        self.side = side
        self.button = button
        self.arms = arms
        // A Lua recognizer decides for itself how many fingers its gesture takes.
        self.fingers = fingers ?? (kind == .custom ? .any : .exactly(GestureSpec.defaultFingers(for: kind)))
        self.name = name
        self.minScore = minScore
        self.direction = direction
        self.taps = kind == .tap ? (taps ?? 1) : 0
        self.edge = edge
        self.resting = resting
    }

    /// One finger, as UIKit's `numberOfTouchesRequired`; pinch and rotate need two
    /// to mean anything, so they start there.
    public static func defaultFingers(for kind: GestureKind) -> Int {
        kind == .pinch || kind == .rotate ? 2 : 1
    }

    /// Pinch and rotate rules with a direction fire once, as discrete gestures.
    public var isDiscrete: Bool {
        !kind.isContinuous || ((kind == .pinch || kind == .rotate) && direction != nil)
    }

    /// A mouse's rule: a stroke, a chord, a shape drawn with a held button,
    /// or a button's click. Touch recognizers never serve it, and a mouse's
    /// drawing serves no other.
    public var isMouse: Bool {
        kind == .stroke || kind == .chord || ((kind == .shape || kind == .click) && button != nil)
    }

    public func matches(_ event: GestureEvent) -> Bool {
        guard event.kind == kind, fingers.matches(event.fingers) else { return false }
        // A mouse's shape or click is its button's; a finger's has none.
        if kind == .shape || kind == .click, button.map({ GestureField.Value.string($0.rawValue) }) != event.fields?.first(where: { $0.name == "button" })?.value { return false }
        if let direction, event.direction != direction { return false }
        if kind == .tap, event.taps != taps { return false }
        if let edge, event.edge != edge { return false }
        if let resting, event.resting != resting { return false }
        if let name, event.name != name { return false }
        if let minScore, event.score < minScore { return false }
        if let side, !(event.normalized.map(side.holdsHalf) ?? false) { return false }
        return true
    }

    /// Higher for narrower rules: when several rules match one gesture, the
    /// narrowest serves it.
    public var specificity: Int {
        var s = 0
        if case .exactly = fingers { s += 1 }
        if direction != nil { s += 1 }
        if edge != nil { s += 1 }
        if resting != nil { s += 1 }
        if name != nil && kind == .shape { s += 1 }
        if button != nil { s += 1 }
        if arms != nil { s += 1 }
        if side != nil { s += 1 }
        return s
    }

    /// Throws what makes the spec impossible to match.
    public func validate() throws(SpecValidationError) {
        try validateUserGesture()
        if case .exactly(let n) = fingers, n < 1 || n > GestureSpec.maxFingers { throw .fingers(n) }
        if case .exactly(let n) = fingers, n < 2, kind == .pinch || kind == .rotate { throw .tooFewFingers(kind) }
        if let direction, !kind.allowedDirections.contains(direction) {
            throw kind.allowedDirections.isEmpty ? .noDirection(kind, direction) : .wrongDirection(direction, kind)
        }
        if kind == .tap, taps < 1 || taps > GestureSpec.maxTaps { throw .taps(taps) }
        if let resting, resting < 0 || resting > GestureSpec.maxResting { throw .resting(resting) }
        if edge != nil, kind != .edgeSwipe, kind != .click { throw .edgeNotOf(kind) }
        if side != nil, kind != .click { throw .sideNotOf(kind) }
        if kind == .click, let button {
            if side != nil || edge != nil { throw .placeOnMouseClick(button) }
            if fingers != .exactly(1) { throw .fingersOnMouseClick(button) }
        }
        if let edge, kind == .edgeSwipe, let direction, direction != Direction.inward(from: edge) {
            throw .edgeDirection(edge, direction)
        }
    }

    /// The spec in the shorthand the rule language reads back, e.g. "2-finger swipe left".
    public var phrase: String {
        if let custom = userGesturePhrase { return custom }
        var words: [String] = []
        switch fingers {
        case .any: words.append("any-finger")
        case .exactly(let n) where n != GestureSpec.defaultFingers(for: kind): words.append("\(n)-finger")
        case .exactly: break
        }
        if kind == .tap {
            switch taps {
            case 2: words.append("double")
            case 3: words.append("triple")
            default: break
            }
        }
        words.append(kind.phrase)
        if kind == .edgeSwipe, let edge { words.append("from \(edge.rawValue)") }
        if kind == .click, let side { words.append("on the \(side.rawValue) half") }
        if kind == .click, let edge { words.append("on the \(edge.rawValue) edge") }
        if let direction, kind != .edgeSwipe || edge == nil { words.append(direction.rawValue) }
        if let resting { words.append("with \(resting) resting") }
        return words.joined(separator: " ")
    }
}

extension GestureKind {
    /// The kind as people write it in a phrase.
    public var phrase: String {
        switch self {
        case .longPress: return "long press"
        case .edgeSwipe: return "edge swipe"
        default: return rawValue
        }
    }
}
