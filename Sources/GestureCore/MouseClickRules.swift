/// Which rule a mouse button's click goes to: `{ kind = "click", button = "side" }`,
/// the button pressed alone (Easystroke's "additional buttons").
public enum MouseClickRules {
    /// The buttons live rules bind a click to, each claimed: their clicks never reach the desktop.
    public static func bound(_ rules: [GestureRule]) -> Set<MouseButton> {
        Set(rules.compactMap { rule in rule.isActive && rule.spec.kind == .click ? rule.spec.button : nil })
    }

    /// The rule a click of `button` goes to, among `rules` (index for index
    /// with the script's): live and out of its cooldown; the application's
    /// rule first, then the later one.
    public static func match(_ button: MouseButton, rules: [GestureRule], at time: Double) -> RuleID? {
        rules.mouseRule(at: time) { $0.spec.kind == .click && $0.spec.button == button }
    }

    /// The gesture a handler gets: one finger's click, with `button` as a field.
    public static func event(_ button: MouseButton, at time: Double, device: Int) -> GestureEvent {
        GestureEvent(kind: .click, phase: .ended, fingers: 1, time: time, device: device,
                     fields: [GestureField(name: "button", value: .string(button.rawValue))])
    }
}
