/// A keyboard modifier held while the wheel turns: "ctrl + wheel up". The gate
/// sees only the mouse; the engine reads the keyboards and tells each shared
/// mouse's gate the modifiers held (`MouseStrokeGate.holdModifiers`), as the
/// bits of GestureContext's `Modifiers` (ctrl 1, shift 2, alt 4, super 8).
public struct ModifierWheel: Hashable, Sendable {
    /// Exactly these modifiers are held, as the rule's `modifiers` option asks.
    public var modifiers: UInt8
    public var turn: WheelTurn

    public init(modifiers: UInt8, turn: WheelTurn) {
        self.modifiers = modifiers
        self.turn = turn
    }
}

extension WheelTurn {
    /// The notch a packet's classic wheel events show, nil when none: a
    /// high-resolution wheel sends parts of a notch before each whole one, and
    /// a rule runs once a notch, not once a part.
    static func notch(of events: [EvdevEvent]) -> WheelTurn? {
        for e in events where e.type == EV.rel && e.value != 0 {
            if e.code == REL.wheel { return e.value > 0 ? .up : .down }
            if e.code == REL.hwheel { return e.value > 0 ? .right : .left }
        }
        return nil
    }
}
