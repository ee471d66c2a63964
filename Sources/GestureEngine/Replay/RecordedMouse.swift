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

    init(settings: MouseStrokeGate.Settings) {
        gate = MouseShareGate(settings: settings)
    }
}

extension Engine {
    /// One event of a recorded mouse's, from its decoder.
    func recordedMouse(_ event: EvdevEvent, device: Int) {
        let lane = lanes.make(device)
        let mouse = lane.recordedMouse ?? startRecordedMouse(lane, device: device)
        if let due = mouse.gate.deadline, due <= event.time {
            // The gate's timeout passed on the recording's clock before this event.
            mouse.gate.expire(at: due, into: &mouse.scratch, signals: &mouse.signals)
            settle(mouse, device: device, at: due)
        }
        if event.type == EV.syn {
            // Timers and deadlines due by this packet fire first, as before a frame.
            if let due = nextDeadline, due <= event.time { advanceAll(to: event.time) }
            runtime.advanceClock(to: event.time)
        }
        mouse.gate.handle(event, into: &mouse.scratch, signals: &mouse.signals)
        settle(mouse, device: device, at: event.time)
    }

    /// A recorded mouse's input ended: a stroke still drawn (the button never
    /// went up) is no stroke, and is said so.
    func finishRecordedMouse(device: Int) {
        guard let lane = lanes.lane(device), let mouse = lane.recordedMouse else { return }
        if case .stroking(let hold) = mouse.gate.strokes.phase {
            let time = hold.packets.last?.time ?? hold.since
            sayStroke(at: time, device: device, button: hold.button, name: nil, outcome: "released",
                      why: "no stroke: the recording ended with the button down; a stroke ends when the button goes up")
        }
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
                return
            }
            var claimed: [MouseShareGate.Signal] = []
            mouse.gate.claim(into: &mouse.scratch, signals: &claimed)
            if claimed.contains(.gate(.claimed(button: button))) { deliverMouseGesture(delivery, device: device) }
        case .gate(.chord(let chord, claimed: true)):
            chorded(chord, at: time, device: device, deviceName: name, live: false)
        case .gate(.strokeForwarded(let button)):
            sayStroke(at: time, device: device, button: button, name: nil, outcome: "released",
                      why: "no stroke: it rested \(Self.formatTime(mouse.gate.settings.timeout)) s before the button went up; a stroke ends at the release, and a rest this long makes it a drag")
        case .gate(.strokeBegan), .gate(.chord(_, claimed: false)), .gate(.claimed):
            break
        }
    }
}
