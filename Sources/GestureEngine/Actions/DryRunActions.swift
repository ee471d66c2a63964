import GestureActions
import GestureCore
import GestureScript

/// `--dry-run`: each action as one JSON line on stdout, in the output's order,
/// with the input's time; nothing runs and no device is made.
struct DryRunActions: ActionSink {
    var makesDevices: Bool { false }

    func exec(_ request: ExecRequest, in engine: Engine) throws(HostActionError) {
        var json = Self.line("exec", at: request.gesture?.time ?? engine.runtime.clock)
        json.raw(",\"argv\":[")
        for (i, arg) in request.argv.enumerated() {
            if i > 0 { json.raw(",") }
            json.string(arg)
        }
        json.raw("]}")
        engine.write(line: json.text)
    }

    /// One line a key's press or release.
    func key(_ keys: KeyCombo, combo: String, origin: String, in engine: Engine) throws(HostActionError) {
        for e in keys.events where e.type == 1 {
            var json = Self.line("key", at: engine.runtime.clock)
            json.raw(",\"key\":")
            json.string(KeyCombo.name(of: e.code) ?? String(e.code))
            json.raw(",\"value\":")
            json.integer(Int64(e.value))
            json.raw("}")
            engine.write(line: json.text)
        }
    }

    func send(_ events: [VirtualEvent], to target: PacketAgenda.Target, origin: String?,
              button: (PointerButton, down: Bool)?, always: Bool, in engine: Engine) throws(HostActionError) -> Bool {
        guard !events.isEmpty else { return true }
        switch target {
        case .pointer: engine.write(line: Self.pointerLine(events, at: engine.runtime.clock))
        case .touchpad: engine.write(line: Self.touchpadLine(engine.effects.pointer.touchpad.phase, at: engine.runtime.clock))
        case .keyboard: break
        }
        return true
    }

    /// `{"action":NAME,"t":T` — the fields and the closing brace follow.
    private static func line(_ action: String, at time: Double) -> JSONWriter {
        var json = JSONWriter()
        json.raw("{\"action\":")
        json.string(action)
        json.raw(",\"t\":")
        json.time(time)
        return json
    }

    /// One line a packet, its fields named after what they move.
    private static func pointerLine(_ events: [VirtualEvent], at time: Double) -> String {
        var json = line("pointer", at: time)
        for field in PointerPackets.fields(of: events) {
            json.raw(",")
            if field.name == "button" {
                json.raw("\"button\":")
                json.string(field.button?.rawValue ?? "unknown")
                json.raw(",\"value\":")
            } else {
                json.string(field.name)
                json.raw(":")
            }
            json.integer(Int64(field.value))
        }
        json.raw("}")
        return json.text
    }

    /// The fingers on the virtual touchpad after the packet, and where their middle is, mm.
    private static func touchpadLine(_ phase: TouchpadPackets.Phase, at time: Double) -> String {
        var json = line("touchpad", at: time)
        switch phase {
        case .up:
            json.raw(",\"fingers\":0")
        case let .down(fingers, centre):
            json.raw(",\"fingers\":")
            json.integer(Int64(fingers))
            json.raw(",\"x\":")
            json.number(centre.x)
            json.raw(",\"y\":")
            json.number(centre.y)
        }
        json.raw("}")
        return json.text
    }
}
