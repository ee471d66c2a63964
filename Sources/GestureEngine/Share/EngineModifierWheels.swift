import GestureContext
import GestureCore
import GestureInput
import GestureSystem

/// A keyboard modifier with the wheel (`on({ kind = "chord", wheel = "up" },
/// f, { modifiers = "ctrl" })`): the engine reads the keyboards and tells each
/// shared mouse's gate the modifiers held, whenever they change; the gate
/// withholds the notches the rules claim with them and says so; the rule runs
/// here. The keyboard itself is never taken: the desktop sees ctrl go down and
/// up, and no notch.
extension Engine {
    /// The modifier wheels the rules bind on a mouse of this name, for its gate.
    func modifierWheels(forDevice name: String?) -> Set<ModifierWheel> {
        Set(runtime.modifierWheelRules(forDevice: name).compactMap { bound in
            WheelTurn(rawValue: bound.wheel.rawValue).map { ModifierWheel(modifiers: bound.modifiers.rawValue, turn: $0) }
        })
    }

    /// Every shared mouse's gate hears the modifiers as the keyboards were
    /// just read, not as the touch input's time has applied them: the gate
    /// judges each notch as it comes.
    func tellMiceModifiers() {
        guard let keys = lanes.keyboards else { return }
        let held = keys.modifiersAsRead
        var told = false
        for lane in lanes.shared where lane.share?.holdModifiers(held.rawValue) == true { told = true }
        guard told, options.trace != nil else { return }
        let names = held.names
        sayTrace(text: "the shared mice hear the modifiers held: " + (names.isEmpty ? "none" : names.joined(separator: "+")),
                 json: "{\"type\":\"mouse_modifiers\",\"held\":[\(names.map { "\"\($0)\"" }.joined(separator: ","))]}")
    }

    /// A claimed notch came with modifiers held (the desktop had none of it): its rule runs.
    func modifierWheeled(_ notch: ModifierWheel, source: Source, share: DeviceShare) {
        let time = MonotonicClock.now()
        // The keys read so far take effect, so that g.modifiers is what the hand holds.
        advanceKeys(to: time)
        let modifiers = Modifiers(rawValue: notch.modifiers)
        guard let wheel = Direction(rawValue: notch.turn.rawValue),
              let rule = runtime.modifierWheelRule(modifiers, wheel: wheel, forDevice: share.description.name, at: time) else { return }
        let event = GestureEvent(kind: .chord, phase: .ended, fingers: 1, time: time, device: source.index,
                                 fields: [GestureField(name: "wheel", value: .string(wheel.rawValue))])
        sayMouseClaim(modifiers.names.joined(separator: "+") + " + wheel " + wheel.rawValue, rule: rule, at: time, device: source.index,
                 deviceName: share.description.name, live: true)
        deliverMouseGesture(Delivery(rule: rule, event: event), device: source.index)
    }

    /// What a mouse's rule claimed: a chord, or a button's click alone.
    enum MouseClaim: String { case chord, click }

    /// `--trace` and `-v` say a claimed chord's or click's rule took it
    /// (`chord`: the chord as the gate writes it, or the clicked button);
    /// `live`: a shared mouse's, which the desktop saw none of.
    func sayMouseClaim(_ chord: String, type: MouseClaim = .chord, rule: RuleID, at time: Double, device: Int, deviceName: String?, live: Bool) {
        let origin = runtime.describeRule(rule).map { "\($0.definedAt) takes it" } ?? "\(rule) takes it"
        let text = "t=\(Self.formatTime(time)) mouse \(type.rawValue) \(chord): \(origin)\(live ? ": the desktop sees none of it" : "")"
        if options.verbose, options.trace == nil { console.note("\(deviceName ?? "the mouse"): \(text)") }
        var w = Self.mouseTrace(type.rawValue, at: time, device: device)
        switch type {
        case .chord: w.raw(",\"chord\":")
        case .click: w.raw(",\"click\":")
        }
        w.string(chord)
        w.raw(",\"outcome\":\"claimed\",\"reason\":")
        w.string(origin)
        w.raw("}")
        sayTrace(text: text, json: w.text)
    }
}

extension KeyInputs {
    /// The modifiers held as the keyboards were last read: the keys applied so
    /// far, and those still waiting for the touch input's time.
    var modifiersAsRead: Modifiers {
        var held = Modifiers()
        for keyboard in keyboards {
            var codes = keyboard.keys.held
            for event in keyboard.waiting.events {
                if event.action == .released { codes.remove(event.code) } else { codes.insert(event.code) }
            }
            for code in codes { if let m = Modifiers(keyCode: code) { held.insert(m) } }
        }
        return held
    }
}
