import GestureCore
import GestureInput

/// Strokes no rule can become are let go early: the gate knows, for each
/// stroke button, the first arms the button's rules start with (`StrokeStart`),
/// and a stroke whose first arm is clearly none of them reaches the desktop
/// at once, as the drag it is, instead of at the release or a 250 ms rest.
extension Engine {
    /// Each stroke button's starts, by evdev code, for the gate.
    static func strokeStarts(_ rules: [GestureRule], strokeButton: MouseButton) -> [UInt16: StrokeStart] {
        var out: [UInt16: StrokeStart] = [:]
        for (button, start) in StrokeStart.bound(rules, strokeButton: strokeButton) {
            if let code = MouseButtonName.code(button.rawValue) { out[code] = start }
        }
        return out
    }

    /// Why a stroke was let go before its end, for `--trace`, `-v` and `explain`.
    static func letGoEarly(button: UInt16, start: Direction) -> String {
        "its first arm goes \(start.rawValue), and no rule for the \(MouseButtonName.of(button)) button starts so: the desktop gets the press and the drag at once"
    }
}
