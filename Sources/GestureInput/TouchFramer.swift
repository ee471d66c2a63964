import GestureCore

/// What a per-touch event does to one contact.
public enum TouchEventKind: UInt8, Sendable {
    case down, move, up, cancel, sync
}

/// Input that the framer repaired rather than dropped; the decoder reports each
/// kind once, with its line.
public enum FramingAnomaly: Int, CaseIterable, Sendable {
    case upForUnknownTouch
    case moveForUnknownTouch
    case downForTouchAlreadyDown
    case timeWentBackwards
    case downWithoutPosition

    public var message: String {
        switch self {
        case .upForUnknownTouch: return "\"up\" or \"cancel\" for a touch id that is not down; ignored (reported once)"
        case .moveForUnknownTouch: return "\"move\" for a touch id that is not down; treated as \"down\" (reported once)"
        case .downForTouchAlreadyDown: return "\"down\" for a touch id that is already down; treated as \"move\" (reported once)"
        case .timeWentBackwards: return "\"t\" went backwards; using the previous time instead (reported once)"
        case .downWithoutPosition: return "\"move\" for a touch id that is not down, without both x and y; ignored (reported once)"
        }
    }
}

/// Groups per-touch events (down/move/up/cancel by id, in millimetres) into
/// `TouchFrame`s. A frame closes on `sync`, on a change of time, on `flush()`
/// (input not yet available, end of input), and before a contact that landed in
/// it lifts or one that lifted in it lands again. Moves of one contact within a
/// frame merge: the last position wins.
///
/// The frame handed out is reused: copy it to keep it.
public struct TouchFramer: Sendable {
    private struct Contact: Sendable {
        var id: Int
        var position: Vector
        var phase: TouchPhase
        var changed: Bool
    }

    private var contacts: [Contact] = []
    private var frame = TouchFrame(time: 0)
    private var frameTime: Double?
    private var open = false
    private var lastTime = -Double.infinity
    public var surface: Surface?
    public var device = 0
    /// Fingers reported by the hardware beyond tracked contacts (BTN_TOOL_*).
    public var reportedFingers = 0

    public init(surface: Surface? = nil, device: Int = 0) {
        self.surface = surface
        self.device = device
    }

    /// Contacts currently down.
    public var downCount: Int {
        var n = 0
        for c in contacts where c.phase.isActive { n += 1 }
        return n
    }

    public var lastEventTime: Double? { lastTime.isFinite ? lastTime : nil }

    /// Applies one event; `emit` receives every frame this closes.
    @discardableResult
    public mutating func apply(
        _ kind: TouchEventKind, time rawTime: Double, id: Int, x: Double?, y: Double?,
        emit: (TouchFrame) -> Void
    ) -> FramingAnomaly? {
        var anomaly: FramingAnomaly?
        var time = rawTime
        if time < lastTime {
            anomaly = .timeWentBackwards
            time = lastTime
        }
        if open, let frameTime, time != frameTime { close(emit: emit) }
        lastTime = time

        switch kind {
        case .sync:
            close(emit: emit)
        case .down, .move:
            if let i = index(of: id) {
                if kind == .down { anomaly = anomaly ?? .downForTouchAlreadyDown }
                begin(time)
                if let x { contacts[i].position.x = x }
                if let y { contacts[i].position.y = y }
                if contacts[i].phase != .began { contacts[i].phase = .moved }
                contacts[i].changed = true
            } else {
                if kind == .move { anomaly = anomaly ?? .moveForUnknownTouch }
                guard let x, let y else {
                    return anomaly == .moveForUnknownTouch ? .downWithoutPosition : anomaly
                }
                // An id that lifted in this frame lands again in the next one, so
                // no frame holds the same id twice.
                if open, contacts.contains(where: { $0.id == id && $0.changed && !$0.phase.isActive }) { close(emit: emit) }
                begin(time)
                contacts.append(Contact(id: id, position: Vector(x, y), phase: .began, changed: true))
            }
        case .up, .cancel:
            guard let i = index(of: id) else { return anomaly ?? .upForUnknownTouch }
            // A contact that lands and lifts at one instant still shows as down
            // in one frame, so recognizers see it.
            if contacts[i].changed && contacts[i].phase == .began { close(emit: emit) }
            begin(time)
            guard let j = index(of: id) else { return anomaly }
            if let x { contacts[j].position.x = x }
            if let y { contacts[j].position.y = y }
            contacts[j].phase = kind == .up ? .ended : .cancelled
            contacts[j].changed = true
        }
        return anomaly
    }

    /// Closes the open frame, if any.
    public mutating func flush(emit: (TouchFrame) -> Void) {
        close(emit: emit)
    }

    /// End of input: closes the open frame, then lifts every contact still down
    /// as cancelled, in a frame of its own at the last event's time.
    public mutating func finish(emit: (TouchFrame) -> Void) {
        close(emit: emit)
        guard downCount > 0 else { return }
        let time = lastTime.isFinite ? lastTime : 0
        begin(time)
        for i in contacts.indices {
            contacts[i].phase = .cancelled
            contacts[i].changed = true
        }
        close(emit: emit)
    }

    private func index(of id: Int) -> Int? {
        for i in contacts.indices where contacts[i].id == id && contacts[i].phase.isActive { return i }
        return nil
    }

    private mutating func begin(_ time: Double) {
        if !open {
            open = true
            frameTime = time
        }
    }

    private mutating func close(emit: (TouchFrame) -> Void) {
        guard open else { return }
        open = false
        frame.time = frameTime ?? 0
        frame.surface = surface
        frame.device = device
        frame.reportedFingers = reportedFingers
        frame.touches.removeAll(keepingCapacity: true)
        for c in contacts {
            frame.touches.append(Touch(id: c.id, position: c.position, phase: c.changed ? c.phase : .stationary))
        }
        emit(frame)
        var k = 0
        for i in contacts.indices where contacts[i].phase.isActive {
            contacts[k] = contacts[i]
            contacts[k].changed = false
            if contacts[k].phase == .began { contacts[k].phase = .moved }
            k += 1
        }
        contacts.removeLast(contacts.count - k)
    }
}
