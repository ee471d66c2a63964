import GestureContext
import GestureCore

/// Rules of a keyboard modifier with the wheel: `on({ kind = "chord", wheel =
/// "up" }, f, { modifiers = "ctrl" })`. Whether their modifiers are held is
/// for a shared mouse's gate to judge, as each notch comes (the engine tells
/// it the keys as it reads them); so these rules count as live here whatever
/// the rules' context holds of the modifiers, and live apart from that as any
/// rule is (enabled, in its mode, for the device, in its application).
extension ScriptRuntime {
    public struct ModifierWheelRule: Equatable, Sendable {
        public var rule: RuleID
        public var modifiers: Modifiers
        public var wheel: Direction
    }

    /// The modifier wheels the rules bind for a device, live but for the modifiers.
    public func modifierWheelRules(forDevice name: String?) -> [ModifierWheelRule] {
        rules.indices.compactMap { i in
            guard isModifierWheel(i), isLiveButForModifiers(i, device: name), let modifiers = rules[i].modifiers,
                  let wheel = rules[i].core.spec.wheel else { return nil }
            return ModifierWheelRule(rule: RuleID(i), modifiers: modifiers, wheel: wheel)
        }
    }

    /// The rule a notch of `wheel` with exactly `modifiers` held goes to: out
    /// of its cooldown; the application's rule first, then the later one.
    public func modifierWheelRule(_ modifiers: Modifiers, wheel: Direction, forDevice name: String?, at time: Double) -> RuleID? {
        var best: (rule: Int, rank: Int)?
        for i in rules.indices where isModifierWheel(i) && rules[i].modifiers == modifiers && rules[i].core.spec.wheel == wheel {
            var core = rules[i].core
            core.isActive = isLiveButForModifiers(i, device: name)
            guard core.mayReceive(at: time) else { continue }
            if let b = best, b.rank > core.contextRank { continue }
            best = (i, core.contextRank)
        }
        return best.map { RuleID($0.rule) }
    }

    private func isModifierWheel(_ i: Int) -> Bool {
        rules[i].core.spec.kind == .chord && rules[i].core.spec.button == nil && rules[i].core.spec.wheel != nil
            && !(rules[i].modifiers ?? []).isEmpty
    }

    private func isLiveButForModifiers(_ i: Int, device name: String?) -> Bool {
        rules[i].enabled && !rules[i].removed && (rules[i].mode == nil || rules[i].mode == mode) && deviceMatches(i, name) && appHolds(i)
    }
}

extension ScriptRuntime {
    /// A chord of the wheel with no button is a keyboard modifier's: without
    /// the `modifiers` option it would be the bare wheel, which gesturemap
    /// never takes from the desktop.
    static func modifierWheelProblem(_ spec: GestureSpec, _ modifiers: Modifiers?) -> String? {
        guard spec.kind == .chord, spec.button == nil, let wheel = spec.wheel, (modifiers ?? []).isEmpty else { return nil }
        let turn = wheel.rawValue
        return "a chord of the wheel with no \"button\" is made with keyboard modifiers held: name them in on()'s options, "
            + "such as on({ kind = \"chord\", wheel = \"\(turn)\" }, f, { modifiers = \"ctrl\" }), or hold a mouse button: { kind = \"chord\", button = \"right\", wheel = \"\(turn)\" }"
    }
}
