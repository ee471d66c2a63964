import GestureCore
import GestureInput

/// A recorded mouse (an evemu recording, raw evdev records, NDJSON mouse
/// lines) run through the same gate as a shared mouse's, with no clone: its
/// strokes and chords go to the rules as a live mouse's do, on the
/// recording's own clock. The gate's timeout runs from the events' times,
/// so a replay never waits, and a stroke that rests undecided is a drag here
/// as it would have been live.
final class RecordedMouse {
    var gate: MouseShareGate
    /// What the gate would have sent the clone: nobody's, emptied each time.
    var scratch: [EvdevEvent] = []
    var signals: [MouseShareGate.Signal] = []
    /// The press of a bound button now down, for the author tools; nil when nobody watches.
    var watch: PressWatch?
    /// The buttons the author tools follow: those whose press the gate holds
    /// (strokes' and chords' first), and those whose click a rule takes.
    let leads: Set<UInt16>

    init(settings: MouseStrokeGate.Settings) {
        gate = MouseShareGate(settings: settings)
        leads = settings.strokeButtons.union(settings.claimedChords.map(\.held)).union(settings.claimedClicks)
    }
}

extension Engine {
    /// One event of a recorded mouse's, from its decoder.
    func recordedMouse(_ event: EvdevEvent, device: Int) {
        let lane = lanes.make(device)
        let mouse = lane.recordedMouse ?? startRecordedMouse(lane, device: device)
        if let due = mouse.gate.deadline, due <= event.time {
            // The gate's timeout passed on the recording's clock before this event.
            if case .holding = mouse.gate.strokes.phase, mouse.watch?.outcome == nil { mouse.watch?.outcome = .held(timeout: mouse.gate.settings.timeout) }
            mouse.gate.expire(at: due, into: &mouse.scratch, signals: &mouse.signals)
            settle(mouse, device: device, at: due)
        }
        if event.type == EV.syn {
            // Timers and deadlines due by this packet fire first, as before a frame.
            if let due = nextDeadline, due <= event.time { advanceAll(to: event.time) }
            runtime.advanceClock(to: event.time)
        }
        if state.watchers.observed { watch(event, of: mouse) }
        mouse.gate.handle(event, into: &mouse.scratch, signals: &mouse.signals)
        settle(mouse, device: device, at: event.time)
        if event.type == EV.syn, let watch = mouse.watch, watch.released {
            mouse.watch = nil
            tell(watch, of: mouse, device: device, at: event.time)
        }
    }

    /// A recorded mouse's input ended: a stroke still drawn (the button never
    /// went up) is no stroke, and is said so.
    func finishRecordedMouse(device: Int) {
        guard let lane = lanes.lane(device), let mouse = lane.recordedMouse else { return }
        if case .stroking(let hold) = mouse.gate.strokes.phase {
            let time = hold.packets.last?.time ?? hold.since
            let why = "no stroke: the recording ended with the button down; a stroke ends when the button goes up"
            sayStroke(at: time, device: device, button: hold.button, name: nil, outcome: "released", why: why)
            if mouse.watch?.outcome == nil { mouse.watch?.outcome = .noStroke(why) }
        }
        if let watch = mouse.watch { tell(watch, of: mouse, device: device, at: watch.path.last?.time ?? watch.start) }
        mouse.gate.end(into: &mouse.scratch)
        mouse.scratch.removeAll(keepingCapacity: true)
        lane.recordedMouse = nil
    }

    private func startRecordedMouse(_ lane: DeviceLane, device: Int) -> RecordedMouse {
        let dpi = runtime.thresholds[.mouseDPI]
        let configured = dpi >= 1 ? Int(exactly: dpi.rounded()) : nil
        let resolution = configured.map { MouseResolution(dotsPerInch: $0, source: .config) } ?? .fallback
        if options.verbose {
            let name = lanes.name(of: device) ?? "the mouse"
            let why = configured == nil
                ? "a recording carries no MOUSE_DPI; set config{ mouse_dpi = N } to give the mouse's own"
                : "config{ mouse_dpi }"
            console.note("\(name): a mouse's recording: its strokes are read at \(resolution.dotsPerInch) dpi (\(why))")
        }
        let mouse = RecordedMouse(settings: mouseSettings(resolution: resolution, deviceName: lanes.lane(device)?.deviceName))
        lane.recordedMouse = mouse
        return mouse
    }

    /// What the gate said, answered at once: a stroke a rule takes is claimed
    /// and its handler runs; one no rule takes is let go.
    private func settle(_ mouse: RecordedMouse, device: Int, at time: Double) {
        mouse.scratch.removeAll(keepingCapacity: true)
        while !mouse.signals.isEmpty {
            let said = mouse.signals
            mouse.signals.removeAll()
            for signal in said { answer(signal, of: mouse, device: device, at: time) }
            mouse.scratch.removeAll(keepingCapacity: true)
        }
    }

    private func answer(_ signal: MouseShareGate.Signal, of mouse: RecordedMouse, device: Int, at time: Double) {
        let name = lanes.lane(device)?.deviceName
        switch signal {
        case .strokeEnded(let button, let path):
            guard let delivery = strokeDelivery(button: button, path: path, device: device, deviceName: name, live: false) else {
                mouse.gate.release(into: &mouse.scratch)
                if mouse.watch != nil { mouse.watch?.outcome = unclaimed(path, button: button, deviceName: name, at: time) }
                return
            }
            var claimed: [MouseShareGate.Signal] = []
            mouse.gate.claim(into: &mouse.scratch, signals: &claimed)
            mouse.watch?.outcome = .taken(rule: delivery.rule, name: delivery.event.name ?? "")
            if claimed.contains(.gate(.claimed(button: button))) { deliverMouseGesture(delivery, device: device) }
        case .gate(.chord(let chord, claimed: true)):
            if mouse.watch != nil, let ruleChord = Self.ruleChord(chord) {
                mouse.watch?.outcome = .chord(chord.description, rule: ChordRules.match(ruleChord, rules: runtime.coreRules(forDevice: name), at: time))
            }
            chorded(chord, at: time, device: device, deviceName: name, live: false)
        case .gate(.strokeForwarded(let button)):
            let why = "no stroke: it rested \(Self.formatTime(mouse.gate.settings.timeout)) s before the button went up; a stroke ends at the release, and a rest this long makes it a drag"
            sayStroke(at: time, device: device, button: button, name: nil, outcome: "released", why: why)
            if mouse.watch?.outcome == nil { mouse.watch?.outcome = .noStroke(why) }
        case .gate(.strokeLetGo(let button, let start)):
            sayStroke(at: time, device: device, button: button, name: nil, outcome: "released", why: Self.letGoEarly(button: button, start: start))
            // What explain can say of it: its first arm, which no rule names, and the nearest rule.
            if mouse.watch?.outcome == nil { mouse.watch?.outcome = .unnamed(directions: [start], name: StrokeDirections.name([start])) }
        case .gate(.click(let button)):
            let rule = clicked(button, at: time, device: device, deviceName: name, live: false)
            if mouse.watch?.button == button { mouse.watch?.outcome = .clicked(rule: rule) }
        // A recording's gate is told no keyboard's modifiers, so it claims no modifier wheel.
        case .gate(.strokeBegan), .gate(.chord(_, claimed: false)), .gate(.claimed), .gate(.modifierWheel):
            break
        }
    }

    /// A stroke no rule took: which it was, or why it was none.
    private func unclaimed(_ path: [MouseStrokeReading.Point], button code: UInt16, deviceName: String?, at time: Double) -> MousePress.Outcome {
        guard let button = MouseButton(rawValue: MouseButtonName.of(code)) else { return .noStroke("no rule binds the \(MouseButtonName.of(code))") }
        let strokeButton = MouseButton(configValue: runtime.thresholds[.strokeButton]) ?? .right
        switch StrokeRules().reading(path, button: button, strokeButton: strokeButton, rules: runtime.coreRules(forDevice: deviceName), at: time) {
        case .success(let stroke): return .unnamed(directions: stroke.directions, name: stroke.name)
        case .failure(let shortfall): return .noStroke("no stroke: \(shortfall.description)")
        }
    }

    /// The author tools' view of a press: where it went, in millimetres from the press.
    private func watch(_ event: EvdevEvent, of mouse: RecordedMouse) {
        switch event.type {
        case EV.key where event.value != 0:
            if mouse.watch == nil, mouse.leads.contains(event.code), mouse.gate.strokes.phase == .idle {
                mouse.watch = PressWatch(button: event.code, at: event.time)
            }
        case EV.key:
            if event.code == mouse.watch?.button { mouse.watch?.released = true }
        case EV.rel where event.code == REL.x || event.code == REL.y:
            guard var watch = mouse.watch else { return }
            if event.code == REL.x { watch.x = Self.sum(watch.x, event.value) } else { watch.y = Self.sum(watch.y, event.value) }
            watch.moved = true
            mouse.watch = watch
        case EV.syn where event.code == SYN.report:
            guard var watch = mouse.watch, watch.moved, watch.path.count < PressWatch.maxPoints else { return }
            let scale = mouse.gate.settings.countsPerMillimetre > 0 ? 1 / mouse.gate.settings.countsPerMillimetre : 0
            watch.path.append(MouseStrokeReading.Point(time: event.time, x: Double(watch.x) * scale, y: Double(watch.y) * scale))
            watch.moved = false
            mouse.watch = watch
        default:
            break
        }
    }

    /// Counts added up: a hostile recording's overflow stops at the bound.
    private static func sum(_ a: Int64, _ b: Int32) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(Int64(b))
        return overflow ? (b > 0 ? .max : .min) : total
    }

    private func tell(_ watch: PressWatch, of mouse: RecordedMouse, device: Int, at time: Double) {
        guard state.watchers.observed, let observer = state.watchers.observer else { return }
        let outcome = watch.outcome ?? .click(threshold: mouse.gate.settings.threshold)
        let press = MousePress(device: device, deviceName: lanes.lane(device)?.deviceName, button: MouseButtonName.of(watch.button),
                               start: watch.start, end: time, path: watch.path, outcome: outcome)
        observer.engine(self, mouse: press)
    }
}
