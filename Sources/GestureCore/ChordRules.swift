/// Which rule a mouse chord goes to: a button held, then another pressed (a
/// rocker) or the wheel turned.
public enum ChordRules {
    /// What the hand did: `held` first, then `press` or a `wheel` turn.
    public struct Chord: Equatable, Sendable {
        public var held: MouseButton
        public var press: MouseButton?
        public var wheel: Direction?

        public init(held: MouseButton, press: MouseButton? = nil, wheel: Direction? = nil) {
            self.held = held
            self.press = press
            self.wheel = wheel
        }
    }

    /// The chords live rules bind, each claimed: their parts never reach the desktop.
    public static func bound(_ rules: [GestureRule]) -> [Chord] {
        rules.compactMap { rule in
            guard rule.isActive, rule.spec.kind == .chord, let held = rule.spec.button else { return nil }
            return Chord(held: held, press: rule.spec.press, wheel: rule.spec.wheel)
        }
    }

    /// The rule a chord goes to, among `rules` (index for index with the
    /// script's): live and out of its cooldown; the application's rule first,
    /// then the later one.
    public static func match(_ chord: Chord, rules: [GestureRule], at time: Double) -> RuleID? {
        rules.mouseRule(at: time) { rule in
            rule.spec.kind == .chord && rule.spec.button == chord.held && rule.spec.press == chord.press && rule.spec.wheel == chord.wheel
        }
    }

    /// The gesture a handler gets: `button`, and `press` or `wheel`, as fields.
    public static func event(_ chord: Chord, at time: Double, device: Int) -> GestureEvent {
        var fields = [GestureField(name: "button", value: .string(chord.held.rawValue))]
        if let press = chord.press { fields.append(GestureField(name: "press", value: .string(press.rawValue))) }
        if let wheel = chord.wheel { fields.append(GestureField(name: "wheel", value: .string(wheel.rawValue))) }
        return GestureEvent(kind: .chord, phase: .ended, fingers: 1, time: time, device: device, fields: fields)
    }
}
