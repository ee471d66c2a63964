import GestureCore

/// A mouse's event as the native format writes it (an extension of the
/// contract): a button pressed or released, motion in the mouse's counts, a
/// notch of the wheel. Each is one evdev packet, as a mouse reports it.
public enum MouseLine: Equatable, Sendable {
    case press(button: UInt16)
    case release(button: UInt16)
    case motion(dx: Int32, dy: Int32)
    case wheel(WheelTurn)

    /// The `"ev"` values, in the order messages list them.
    public static let kinds = ["press", "release", "motion", "wheel"]

    /// The packet a mouse would send, ending in its SYN_REPORT.
    public func events(at time: Double) -> [EvdevEvent] {
        var out: [EvdevEvent] = []
        switch self {
        case .press(let button): out.append(EvdevEvent(time: time, type: EV.key, code: button, value: 1))
        case .release(let button): out.append(EvdevEvent(time: time, type: EV.key, code: button, value: 0))
        case let .motion(dx, dy):
            if dx != 0 { out.append(EvdevEvent(time: time, type: EV.rel, code: REL.x, value: dx)) }
            if dy != 0 { out.append(EvdevEvent(time: time, type: EV.rel, code: REL.y, value: dy)) }
        case .wheel(let turn):
            // Up and right are positive, as the kernel reports REL_WHEEL and REL_HWHEEL.
            switch turn {
            case .up: out.append(EvdevEvent(time: time, type: EV.rel, code: REL.wheel, value: 1))
            case .down: out.append(EvdevEvent(time: time, type: EV.rel, code: REL.wheel, value: -1))
            case .right: out.append(EvdevEvent(time: time, type: EV.rel, code: REL.hwheel, value: 1))
            case .left: out.append(EvdevEvent(time: time, type: EV.rel, code: REL.hwheel, value: -1))
            }
        }
        out.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0))
        return out
    }

    /// The line's fields checked: `button` for a press or release, whole
    /// `dx`/`dy` counts for motion, `dir` for the wheel. A message for people otherwise.
    static func make(kind: String, button: String?, dx: Double?, dy: Double?, dir: String?) -> Result<MouseLine, NDJSONRecord.Problem> {
        switch kind {
        case "press", "release":
            guard let button else {
                return .failure(.init(message: "a \"\(kind)\" line needs \"button\": one of \(MouseButtonName.codes.map(\.name).joined(separator: ", "))"))
            }
            guard let code = MouseButtonName.code(button) else {
                return .failure(.init(message: "unknown \"button\" \"\(TerminalText.escaped(String(button.prefix(40))))\"; use one of \(MouseButtonName.codes.map(\.name).joined(separator: ", "))"))
            }
            return .success(kind == "press" ? .press(button: code) : .release(button: code))
        case "motion":
            guard dx != nil || dy != nil else { return .failure(.init(message: "a \"motion\" line needs \"dx\" or \"dy\": the mouse's counts, as in {\"t\": 0.1, \"ev\": \"motion\", \"dx\": -3, \"dy\": 0}")) }
            guard let x = counts(dx), let y = counts(dy) else {
                return .failure(.init(message: "\"dx\" and \"dy\" must be whole counts, within ±\(Int32.max)"))
            }
            return .success(.motion(dx: x, dy: y))
        default:
            guard let dir else { return .failure(.init(message: "a \"wheel\" line needs \"dir\": up, down, left or right")) }
            guard let turn = WheelTurn(rawValue: dir) else {
                return .failure(.init(message: "\"dir\" \"\(TerminalText.escaped(String(dir.prefix(40))))\" is no turn of the wheel; use up, down, left or right"))
            }
            return .success(.wheel(turn))
        }
    }

    private static func counts(_ value: Double?) -> Int32? {
        guard let value else { return 0 }
        return Checked.exactInteger(value, as: Int32.self)
    }
}
