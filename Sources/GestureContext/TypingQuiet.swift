/// What kind of surface a gesture came from: quiet while typing covers touchpads
/// (under the typing hands), never touchscreens.
public enum TouchSurface: Sendable {
    case touchpad, touchscreen
}

/// Quiet while typing, as libinput's disable-while-typing does it: after a key
/// press on a built-in keyboard, gestures that start on a touchpad are
/// suppressed for a short time, so a resting palm does not tap or swipe.
///
/// - A lone key press quiets the touchpad for 40% of `duration` (libinput:
///   200 ms); presses while already quiet extend it by `duration` (500 ms).
/// - A key held down keeps it quiet, in steps of `duration`.
/// - Modifiers (ctrl, shift, alt, super, fn, caps lock, tab, compose) do not
///   count, nor do keys pressed while a modifier is held (ctrl-click, a
///   gesture with a held key), nor Escape, F-keys and keys above them.
/// - External keyboards do not count; touchscreens are never quiet.
/// docs/defaults.md gives the sources of these numbers.
///
/// A value type, fed key transitions in time order and asked about gestures:
/// the policy only, no I/O.
public struct TypingQuiet: Sendable, Equatable {
    /// `config{ typing_quiet = ... }` in seconds; 0 turns it off.
    public var duration: Double
    public static let defaultDuration = 0.5
    /// A lone key press quiets for this share of `duration`: libinput's 200 ms of 500.
    public static let loneShare = 0.4

    /// The quiet stretch: from the press that began it to its end.
    public private(set) var quietFrom: Double?
    public private(set) var quietUntil: Double?
    /// Typing keys down now that began or extended the quiet.
    private var held: Set<UInt16> = []
    /// Modifiers down now, on built-in keyboards.
    private var heldModifiers: Set<UInt16> = []

    public init(duration: Double = TypingQuiet.defaultDuration) {
        self.duration = duration.isFinite ? max(0, duration) : TypingQuiet.defaultDuration
    }

    /// Whether a key counts as typing at all.
    public static func isTyping(_ code: UInt16) -> Bool {
        if isModifier(code) { return false }
        return code != KeyCode.esc && code != KeyCode.kpAsterisk && code < KeyCode.f1
    }

    static func isModifier(_ code: UInt16) -> Bool {
        Modifiers(keyCode: code) != nil || [KeyCode.fn, KeyCode.capsLock, KeyCode.tab, KeyCode.compose].contains(code)
    }

    /// A key went down (`pressed`) or up at `time` (the input clock, seconds).
    public mutating func key(_ code: UInt16, pressed: Bool, at time: Double, builtIn: Bool) {
        guard builtIn else { return }
        if TypingQuiet.isModifier(code) {
            if pressed { heldModifiers.insert(code) } else { heldModifiers.remove(code) }
            return
        }
        guard TypingQuiet.isTyping(code) else { return }
        guard pressed else {
            guard held.remove(code) != nil else { return }
            // Held past the end of the quiet: it lasted in steps of `duration`.
            if held.isEmpty, duration > 0, var until = quietUntil, until < time {
                while until < time { until += duration }
                quietUntil = until
            }
            return
        }
        guard duration > 0, heldModifiers.isEmpty else { return }
        held.insert(code)
        if let until = quietUntil, let from = quietFrom, from <= time, time <= until {
            quietUntil = max(until, time + duration)
        } else {
            quietFrom = time
            quietUntil = time + duration * TypingQuiet.loneShare
        }
    }

    /// Whether a gesture whose first touch came down at `time` on `surface` is
    /// suppressed.
    public func suppresses(gestureStartingAt time: Double, on surface: TouchSurface) -> Bool {
        guard surface == .touchpad, duration > 0, let from = quietFrom, let until = quietUntil else { return false }
        guard time >= from else { return false }
        return time <= until || !held.isEmpty
    }
}
