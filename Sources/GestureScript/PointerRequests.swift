import GestureCore

/// What `pointer.*` asks the host for. Amounts are checked before they get here:
/// finite, and within `PointerLimits`.
public enum PointerRequest: Equatable, Sendable {
    /// Millimetres of finger travel; the host multiplies by `pointer_gain`.
    case move(dx: Double, dy: Double)
    case press(PointerButton)
    /// `after`: seconds the button stays down first, during which a press
    /// takes it back (a drag resumed); nil releases now.
    case release(PointerButton, after: Double?)
    case click(PointerButton, count: Int)
    /// Wheel notches; positive `dy` scrolls down, positive `dx` right.
    case scroll(dx: Double, dy: Double)

    /// The Lua function that asked, as messages name it.
    var callName: String {
        switch self {
        case .move: return "pointer.move()"
        case .press: return "pointer.press()"
        case .release: return "pointer.release()"
        case .click: return "pointer.click()"
        case .scroll: return "pointer.scroll()"
        }
    }
}

/// What `touchpad.*` asks the host for.
public enum TouchpadRequest: Equatable, Sendable {
    case begin(fingers: Int)
    /// Millimetres, every finger together.
    case move(dx: Double, dy: Double)
    case end

    /// The Lua function that asked, as messages name it.
    var callName: String {
        switch self {
        case .begin: return "touchpad.begin()"
        case .move: return "touchpad.move()"
        case .end: return "touchpad.finish()"
        }
    }
}

/// The bounds the rule API holds `pointer.*` and `touchpad.*` to: beyond them a
/// number is a mistake (a unit confused, a division by zero), never a gesture.
public enum PointerLimits {
    /// Millimetres one move may carry.
    public static let maxMove = 1000.0
    /// Notches one scroll may carry.
    public static let maxScroll = 100.0
    /// Clicks one click() may make.
    public static let maxClicks = 3
    /// Seconds a release may wait (`after`).
    public static let maxLinger = 5.0
    /// Pointer and touchpad packets the rules may send at one input instant
    /// (a frame, or a timer's time). Releases and lifts always go through:
    /// a button is never left down by the budget.
    public static let packetsPerInstant = 64
}
