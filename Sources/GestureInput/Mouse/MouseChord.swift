/// A mouse chord: while one button is down, another button is pressed (a
/// rocker: hold left, click right) or the wheel turns ("right + wheel up").
public struct MouseChord: Hashable, Sendable, CustomStringConvertible {
    /// What joins the held button.
    public enum Part: Hashable, Sendable {
        case button(UInt16)
        case wheel(WheelTurn)
    }

    /// The button that was down first (BTN_LEFT, BTN_RIGHT...).
    public var held: UInt16
    public var then: Part

    public init(held: UInt16, then: Part) {
        self.held = held
        self.then = then
    }

    public var description: String {
        switch then {
        case .button(let b): return "\(MouseButtonName.of(held)) then \(MouseButtonName.of(b))"
        case .wheel(let turn): return "\(MouseButtonName.of(held)) + wheel \(turn.rawValue)"
        }
    }
}

/// Which way a wheel turned: REL_WHEEL counts up away from the user,
/// REL_HWHEEL counts up to the right (Documentation/input/event-codes.rst).
public enum WheelTurn: String, Hashable, Sendable, CaseIterable {
    case up, down, left, right

    /// The turn a packet's wheel events show: the classic notches when there
    /// are some, else the high-resolution part of one; nil when none turned.
    static func of(_ events: [EvdevEvent]) -> WheelTurn? {
        var fine: WheelTurn?
        for e in events where e.type == EV.rel && e.value != 0 {
            switch e.code {
            case REL.wheel: return e.value > 0 ? .up : .down
            case REL.hwheel: return e.value > 0 ? .right : .left
            case REL.wheelHiRes: fine = fine ?? (e.value > 0 ? .up : .down)
            case REL.hwheelHiRes: fine = fine ?? (e.value > 0 ? .right : .left)
            default: continue
            }
        }
        return fine
    }

    static func isWheel(_ e: EvdevEvent) -> Bool {
        e.type == EV.rel && (e.code == REL.wheel || e.code == REL.hwheel || e.code == REL.wheelHiRes || e.code == REL.hwheelHiRes)
    }
}

/// The rule language's names of mouse buttons, and the evdev codes they stand for.
public enum MouseButtonName {
    public static let codes: [(name: String, code: UInt16)] = [
        ("left", BTN.left), ("right", BTN.right), ("middle", BTN.middle), ("side", BTN.side), ("extra", BTN.extra),
    ]

    public static func code(_ name: String) -> UInt16? { codes.first { $0.name == name }?.code }

    public static func of(_ code: UInt16) -> String {
        codes.first { $0.code == code }?.name ?? "button 0x" + String(code, radix: 16)
    }
}
