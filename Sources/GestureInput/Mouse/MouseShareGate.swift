import GestureCore

/// A shared mouse's gate as its thread runs it: `MouseStrokeGate`, and the
/// stroke's path handed on when the stroke button goes up after a stroke, so
/// that the rules can read it (`MouseStrokeReading`) and answer `claim()` or
/// `release()` while the gate still holds the press.
public struct MouseShareGate: Sendable {
    public enum Signal: Equatable, Sendable {
        case gate(MouseStrokeGate.Signal)
        /// A stroke ended: the button, and its path from the press, seconds
        /// and millimetres of mouse travel (y down). The gate holds it until
        /// `claim()`, `release()`, or the timeout after the release.
        case strokeEnded(button: UInt16, path: [MouseStrokeReading.Point])
    }

    public private(set) var strokes: MouseStrokeGate
    /// The stroke held now was handed on: once a stroke, whatever its times.
    private var handedOn = false

    public init(settings: MouseStrokeGate.Settings, state: [EvdevEvent] = []) {
        strokes = MouseStrokeGate(settings: settings, state: state)
    }

    public var settings: MouseStrokeGate.Settings { strokes.settings }
    public var deadline: Double? { strokes.deadline }

    public mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent], signals: inout [Signal]) {
        var said: [MouseStrokeGate.Signal] = []
        strokes.handle(event, into: &out, signals: &said)
        for s in said { signals.append(.gate(s)) }
        guard event.type == EV.syn else { return }
        guard case .stroking(let hold) = strokes.phase, let up = hold.up else {
            handedOn = false
            return
        }
        guard !handedOn else { return }
        handedOn = true
        signals.append(.strokeEnded(button: hold.button, path: Self.path(of: hold.packets[...up.index], countsPerMillimetre: strokes.settings.countsPerMillimetre)))
    }

    public mutating func expire(at now: Double, into out: inout [EvdevEvent], signals: inout [Signal]) {
        if let s = strokes.expire(at: now, into: &out) { signals.append(.gate(s)) }
    }

    public mutating func claim(into out: inout [EvdevEvent], signals: inout [Signal]) {
        if let s = strokes.claim(into: &out) { signals.append(.gate(s)) }
    }

    public mutating func release(into out: inout [EvdevEvent]) { strokes.release(into: &out) }
    public mutating func update(_ settings: MouseStrokeGate.Settings) { strokes.update(settings) }
    public mutating func holdModifiers(_ modifiers: UInt8) { strokes.holdModifiers(modifiers) }
    public mutating func end(into out: inout [EvdevEvent]) { strokes.end(into: &out) }

    /// Where the pointer went from the press, packet by packet, in millimetres.
    static func path(of packets: ArraySlice<MouseStrokeGate.Packet>, countsPerMillimetre: Double) -> [MouseStrokeReading.Point] {
        let scale = countsPerMillimetre > 0 ? 1 / countsPerMillimetre : 0
        var x: Int64 = 0, y: Int64 = 0
        var out: [MouseStrokeReading.Point] = []
        out.reserveCapacity(packets.count)
        for p in packets {
            for e in p.events where e.type == EV.rel {
                if e.code == REL.x { x = x.saturatingAdd(Int64(e.value)) }
                if e.code == REL.y { y = y.saturatingAdd(Int64(e.value)) }
            }
            out.append(MouseStrokeReading.Point(time: p.time, x: Double(x) * scale, y: Double(y) * scale))
        }
        return out
    }
}
