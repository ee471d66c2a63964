import GestureCore
import GestureInput
import GestureSystem

/// A shared mouse's strokes: the gate's settings from the rules, and what
/// the engine does when a stroke ends (a rule takes it: the gate claims it
/// and the handler runs once it has; none does: the gate lets it go).
extension Engine {
    /// The stroke buttons the rules bind on this mouse, and how many counts
    /// it reports a millimetre, from `config{ mouse_dpi }` or else udev's
    /// entry for it; `problem`: udev's `MOUSE_DPI` could not be read.
    func mouseSettings(udev: @autoclosure () -> UdevDatabase.Entry?, description: EvdevDescription) -> (settings: MouseStrokeGate.Settings, problem: String?) {
        let dpi = runtime.thresholds[.mouseDPI]
        let configured = dpi >= 1 ? Int(exactly: dpi.rounded()) : nil
        let (resolution, problem) = MouseResolution.choose(configured: configured, udev: configured == nil ? udev() : nil)
        return (mouseSettings(resolution: resolution, deviceName: description.name), problem)
    }

    /// The gate's settings for a mouse of this name and resolution, live or recorded.
    func mouseSettings(resolution: MouseResolution, deviceName: String?) -> MouseStrokeGate.Settings {
        let strokeButton = MouseButton(configValue: runtime.thresholds[.strokeButton]) ?? .right
        let rules = runtime.coreRules(forDevice: deviceName)
        var buttons: Set<UInt16> = []
        for rule in rules where rule.isActive {
            let drawn: MouseButton? = switch rule.spec.kind {
            case .stroke: rule.spec.button ?? strokeButton
            case .shape: rule.spec.button
            default: nil
            }
            if let drawn, let code = MouseButtonName.code(drawn.rawValue) { buttons.insert(code) }
        }
        let chords = Set(ChordRules.bound(rules).compactMap(Self.mouseChord))
        let clicks = Set(MouseClickRules.bound(rules).compactMap { MouseButtonName.code($0.rawValue) })
        return MouseStrokeGate.Settings(strokeButtons: buttons, threshold: runtime.thresholds[.strokeThreshold], timeout: runtime.thresholds[.strokeTimeout],
                                        countsPerMillimetre: resolution.countsPerMillimetre, claimedChords: chords,
                                        modifierWheels: modifierWheels(forDevice: deviceName), strokeStarts: Self.strokeStarts(rules, strokeButton: strokeButton),
                                        claimedClicks: clicks)
    }

    /// A rule's chord as the gate knows it, by evdev codes.
    static func mouseChord(_ chord: ChordRules.Chord) -> MouseChord? {
        guard let held = MouseButtonName.code(chord.held.rawValue) else { return nil }
        if let press = chord.press, let code = MouseButtonName.code(press.rawValue) { return MouseChord(held: held, then: .button(code)) }
        if let wheel = chord.wheel, let turn = WheelTurn(rawValue: wheel.rawValue) { return MouseChord(held: held, then: .wheel(turn)) }
        return nil
    }

    /// The gate's chord as the rules know it.
    static func ruleChord(_ chord: MouseChord) -> ChordRules.Chord? {
        guard let held = MouseButton(rawValue: MouseButtonName.of(chord.held)) else { return nil }
        switch chord.then {
        case .button(let code):
            return MouseButton(rawValue: MouseButtonName.of(code)).map { ChordRules.Chord(held: held, press: $0) }
        case .wheel(let turn):
            return Direction(rawValue: turn.rawValue).map { ChordRules.Chord(held: held, wheel: $0) }
        }
    }

    /// What a shared mouse's gate said.
    func mouseSaid(_ signal: MouseShareGate.Signal, by source: Source) {
        guard let lane = lanes.lane(source.index), let share = lane.share else { return }
        // The keys read so far take effect: g.modifiers and the rules'
        // `modifiers` are what the hand holds as the stroke or chord ends.
        advanceKeys(to: MonotonicClock.now())
        switch signal {
        case .strokeEnded(let code, let path):
            strokeEnded(button: code, path: path, source: source, lane: lane, share: share)
        case .gate(.claimed):
            guard let delivery = lane.claimedStroke else { return }
            lane.claimedStroke = nil
            deliverMouseGesture(delivery, device: source.index)
        case .gate(.strokeForwarded(let code)):
            guard let delivery = lane.claimedStroke else { return }
            lane.claimedStroke = nil
            let rule = runtime.describeRule(delivery.rule).map { " (\($0.definedAt))" } ?? ""
            let drawn = delivery.event.kind == .shape ? (name: String?.none, shape: delivery.event.name) : (name: delivery.event.name, shape: String?.none)
            sayStroke(at: delivery.event.time, device: source.index, button: code, name: drawn.name, shape: drawn.shape,
                      outcome: "forwarded", why: "the rule\(rule) came too late: the desktop had it as a drag, and the rule did not run")
        case .gate(.chord(let chord, claimed: true)):
            chorded(chord, at: MonotonicClock.now(), device: source.index, deviceName: share.description.name, live: true)
        case .gate(.modifierWheel(let notch)):
            modifierWheeled(notch, source: source, share: share)
        case .gate(.click(let code)):
            clicked(code, at: MonotonicClock.now(), device: source.index, deviceName: share.description.name, live: true)
        case .gate(.strokeLetGo(let code, let start)):
            sayStroke(at: MonotonicClock.now(), device: source.index, button: code, name: nil, outcome: "released", why: Self.letGoEarly(button: code, start: start))
        case .gate(.strokeBegan), .gate(.chord(_, claimed: false)):
            break
        }
    }

    private func strokeEnded(button code: UInt16, path: [MouseStrokeReading.Point], source: Source, lane: DeviceLane, share: DeviceShare) {
        guard let delivery = strokeDelivery(button: code, path: path, device: source.index, deviceName: share.description.name, live: true) else {
            share.release()
            return
        }
        lane.claimedStroke = delivery
        share.claim()
    }

    /// A stroke's end, live or recorded: the rule that takes it, as the
    /// delivery to run once the gate has claimed it, or nil when none does;
    /// either way `-v` and `--trace` say what became of it. `live`: a shared
    /// mouse, whose desktop gets what no rule takes.
    func strokeDelivery(button code: UInt16, path: [MouseStrokeReading.Point], device: Int, deviceName: String?, live: Bool) -> Delivery? {
        let time = path.last?.time ?? 0
        guard let button = MouseButton(rawValue: MouseButtonName.of(code)) else { return nil }
        let strokes = StrokeRules()
        let strokeButton = MouseButton(configValue: runtime.thresholds[.strokeButton]) ?? .right
        let rules = runtime.coreRules(forDevice: deviceName)
        if let match = strokes.match(path, button: button, strokeButton: strokeButton, rules: rules, at: time) {
            let event = StrokeRules.event(match.stroke, button: button, path: path, device: device)
            return claimed(Delivery(rule: match.rule, event: event), name: match.stroke.name, shape: nil, button: code, at: time, live: live)
        }
        let shapes = MouseShapeRules(templates: cores.shapeTemplates, thresholds: runtime.thresholds)
        let shape = shapes.match(path, button: button, rules: rules, at: time)
        if case .taken(let match)? = shape {
            let event = MouseShapeRules.event(match.shape, button: button, path: path, device: device)
            return claimed(Delivery(rule: match.rule, event: event), name: nil, shape: match.shape.name, button: code, at: time, live: live)
        }
        var said: String
        let name: String?
        // "no rule takes it: the desktop ..."; a reason that holds a colon of its own goes on after a semicolon.
        var joint = ":"
        switch strokes.reading(path, button: button, strokeButton: strokeButton, rules: rules, at: time) {
        case .success(let stroke):
            name = stroke.name
            said = "no rule takes it"
        case .failure(let shortfall):
            name = nil
            said = "no stroke: \(shortfall.description)"
            joint = ";"
        }
        if case .refused(let cause)? = shape {
            said += "; no shape: \(cause.description)"
            joint = ";"
        }
        if live { said += joint + " the desktop gets the press and the drag" }
        sayStroke(at: time, device: device, button: code, name: name, outcome: "released", why: said)
        return nil
    }

    /// A rule takes the stroke or shape: said, and the delivery to run once the gate has claimed it.
    private func claimed(_ delivery: Delivery, name: String?, shape: String?, button code: UInt16, at time: Double, live: Bool) -> Delivery {
        let rule = runtime.describeRule(delivery.rule).map { "\($0.definedAt) takes it" } ?? "\(delivery.rule) takes it"
        sayStroke(at: time, device: delivery.event.device, button: code, name: name, shape: shape, outcome: "claimed", why: live ? "\(rule): the desktop sees no button" : rule)
        return delivery
    }

    /// A claimed stroke or chord's rule runs (the gate has taken it from the desktop).
    func deliverMouseGesture(_ delivery: Delivery, device: Int) {
        guard !state.end.isOver else { return }
        state.gesturesDelivered += 1
        if state.watchers.observed, let observer = state.watchers.observer { observer.engine(self, delivered: delivery) }
        if let show = state.watchers.showGesture { show(delivery.event) }
        dispatchOwning(delivery, device: device)
    }

    /// A claimed chord happened (the desktop saw none of it): its rule runs.
    func chorded(_ gateChord: MouseChord, at time: Double, device: Int, deviceName: String?, live: Bool) {
        guard let chord = Self.ruleChord(gateChord),
              let rule = ChordRules.match(chord, rules: runtime.coreRules(forDevice: deviceName), at: time) else { return }
        let delivery = Delivery(rule: rule, event: ChordRules.event(chord, at: time, device: device))
        sayMouseClaim(gateChord.description, rule: rule, at: time, device: device, deviceName: deviceName, live: live)
        deliverMouseGesture(delivery, device: device)
    }

    /// A claimed button's click happened (the desktop saw none of it): its
    /// rule runs. The rule, or nil when none takes it now.
    @discardableResult
    func clicked(_ code: UInt16, at time: Double, device: Int, deviceName: String?, live: Bool) -> RuleID? {
        guard let button = MouseButton(rawValue: MouseButtonName.of(code)),
              let rule = MouseClickRules.match(button, rules: runtime.coreRules(forDevice: deviceName), at: time) else { return nil }
        sayMouseClaim(button.rawValue, type: .click, rule: rule, at: time, device: device, deviceName: deviceName, live: live)
        deliverMouseGesture(Delivery(rule: rule, event: MouseClickRules.event(button, at: time, device: device)), device: device)
        return rule
    }

    /// A mouse's `--trace=json` line up to its type: `{"t":…,"device":…,"type":"stroke"`.
    static func mouseTrace(_ type: String, at time: Double, device: Int) -> JSONWriter {
        var w = JSONWriter()
        w.raw("{\"t\":")
        w.time(time)
        w.raw(",\"device\":")
        w.integer(Int64(device))
        w.raw(",\"type\":")
        w.string(type)
        return w
    }

    /// `--trace` and `-v` say what became of a stroke.
    func sayStroke(at time: Double, device: Int, button: UInt16, name: String?, shape: String? = nil, outcome: String, why: String) {
        let drawn = shape.map { "shape \($0) " } ?? name.map { "\($0) " } ?? ""
        let text = "t=\(Self.formatTime(time)) mouse stroke \(drawn)(\(MouseButtonName.of(button)) button): \(why)"
        if options.verbose, options.trace == nil { console.note("\(lanes.name(of: device) ?? "the mouse"): \(text)") }
        var w = Self.mouseTrace("stroke", at: time, device: device)
        w.raw(",\"button\":")
        w.string(MouseButtonName.of(button))
        if let name {
            w.raw(",\"direction\":")
            w.string(name)
        }
        if let shape {
            w.raw(",\"shape\":")
            w.string(shape)
        }
        w.raw(",\"outcome\":")
        w.string(outcome)
        w.raw(",\"reason\":")
        w.string(why)
        w.raw("}")
        sayTrace(text: text, json: w.text)
    }
}
