import GestureCore

/// What a per-touch event does to one contact.
public enum TouchEventKind: UInt8, Sendable {
    case down, move, up, cancel, sync
    /// The surface's button went down under the fingers (a clickpad's click).
    case click
}

/// Input that the framer repaired rather than dropped; the decoder reports each
/// kind once, with its line.
public enum FramingAnomaly: Int, CaseIterable, Sendable {
    case upForUnknownTouch
    case moveForUnknownTouch
    case downForTouchAlreadyDown
    case timeWentBackwards
    case downWithoutPosition
    case clockJumped
    case tooManyContacts
    case positionOutOfRange

    public var message: String {
        switch self {
        case .upForUnknownTouch: return "\"up\" or \"cancel\" for a touch id that is not down; ignored (reported once)"
        case .moveForUnknownTouch: return "\"move\" for a touch id that is not down; treated as \"down\" (reported once)"
        case .downForTouchAlreadyDown: return "\"down\" for a touch id that is already down; treated as \"move\" (reported once)"
        case .timeWentBackwards: return "\"t\" went backwards; using the previous time instead (reported once)"
        case .downWithoutPosition: return "\"move\" for a touch id that is not down, without both x and y; ignored (reported once)"
        case .clockJumped:
            return "the time jumped by more than a day; taken as a clock change: the clock goes on from the previous time (a second later if no touch is down) (reported once)"
        case .tooManyContacts:
            return "more than \(InputLimits.maxContacts) touches down at once; the extra ones are ignored until they lift (reported once)"
        case .positionOutOfRange:
            return "a position more than a kilometre from the surface's origin; the event is ignored (reported once)"
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
    /// Contacts down now, kept as they change: the cap is checked per landing.
    private var activeCount = 0
    /// Ids whose events are dropped until they lift: palms, and contacts past
    /// the cap. Bounded, so a stream of ids that never lift cannot grow it.
    private var ignored: Set<Int> = []
    private static let maxIgnored = 4096
    private var frame = TouchFrame(time: 0)
    private var frameTime: Double?
    private var open = false
    private var lastTime = -Double.infinity
    /// Added to every input time after a clock change, so time goes on from where it was.
    private var clockOffset = 0.0
    public var surface: Surface?
    public var device = 0
    /// Fingers reported by the hardware beyond tracked contacts (BTN_TOOL_*).
    public var reportedFingers = 0
    /// The positions are a semi-mt pad's bounding-box corners (see TouchFrame.boundingBox).
    public var boundingBox = false
    /// A physical button is down.
    public var buttonHeld = false
    /// A physical button went down while a contact was down: the frame of
    /// its packet says so, however soon it goes up again (see TouchFrame.clicked).
    private var clickPending = false

    /// Some contact is down.
    public var hasContactsDown: Bool { activeCount > 0 }

    public init(surface: Surface? = nil, device: Int = 0) {
        self.surface = surface
        self.device = device
    }

    /// Contacts currently down.
    public var downCount: Int { activeCount }

    public var lastEventTime: Double? { lastTime.isFinite ? lastTime : nil }

    /// Applies one event; `emit` receives every frame this closes.
    ///
    /// Most events move a contact that is down, on a clock that runs as it
    /// should, with nothing ignored: that case is taken here, inlined into
    /// the decoders' loops, and does exactly what `applyInGeneral` would.
    @discardableResult
    @inline(__always)
    public mutating func apply(
        _ kind: TouchEventKind, time rawTime: Double, id: Int, x: Double?, y: Double?,
        emit: (TouchFrame) -> Void
    ) -> FramingAnomaly? {
        if kind == .move, ignored.isEmpty, let x, let y,
           abs(x) <= InputLimits.maxMillimetres, abs(y) <= InputLimits.maxMillimetres {
            let time = rawTime + clockOffset
            // The clock keeps this time (no step back, no jump): the steps
            // below are the general path's, which repeats them harmlessly when
            // the contact is not down. While a frame is open, `lastTime` is its time.
            if time >= lastTime && time - lastTime <= InputLimits.maxTimeJump {
                if open, time != frameTime { close(emit: emit) }
                lastTime = time
                if let i = index(of: id) {
                    begin(time)
                    move(i, x: x, y: y)
                    return nil
                }
            }
        }
        return applyInGeneral(kind, time: rawTime, id: id, x: x, y: y, emit: emit)
    }

    /// `apply(.sync, ...)`, for the evdev packet's end: on a clock running
    /// forward, the general path's steps inline (a separate entry, so that the
    /// decoders that pass their kind as a value do not carry it).
    @inline(__always)
    public mutating func sync(time rawTime: Double, emit: (TouchFrame) -> Void) -> FramingAnomaly? {
        let time = rawTime + clockOffset
        guard time >= lastTime && time - lastTime <= InputLimits.maxTimeJump else {
            return applyInGeneral(.sync, time: rawTime, id: 0, x: nil, y: nil, emit: emit)
        }
        lastTime = time
        if clickPending { begin(time) }
        close(emit: emit)
        return nil
    }

    @inline(never)
    private mutating func applyInGeneral(
        _ kind: TouchEventKind, time rawTime: Double, id: Int, x: Double?, y: Double?,
        emit: (TouchFrame) -> Void
    ) -> FramingAnomaly? {
        var anomaly: FramingAnomaly?
        let time = clock(rawTime, anomaly: &anomaly)
        if open, let frameTime, time != frameTime { close(emit: emit) }
        lastTime = time

        if kind == .sync {
            if clickPending { begin(time) }
            close(emit: emit)
            return anomaly
        }
        if kind == .click {
            click()
            begin(time)
            return anomaly
        }
        if !ignored.isEmpty, ignored.contains(id) {
            if kind == .up || kind == .cancel { ignored.remove(id) }
            return anomaly
        }
        if let x, !(abs(x) <= InputLimits.maxMillimetres) { return .positionOutOfRange }
        if let y, !(abs(y) <= InputLimits.maxMillimetres) { return .positionOutOfRange }

        switch kind {
        case .sync, .click:
            break
        case .down, .move:
            if let i = index(of: id) {
                if kind == .down { anomaly = anomaly ?? .downForTouchAlreadyDown }
                begin(time)
                move(i, x: x, y: y)
            } else {
                if kind == .move { anomaly = anomaly ?? .moveForUnknownTouch }
                guard let x, let y else {
                    return anomaly == .moveForUnknownTouch ? .downWithoutPosition : anomaly
                }
                guard activeCount < InputLimits.maxContacts else {
                    ignore(id)
                    return .tooManyContacts
                }
                // An id that lifted in this frame lands again in the next one, so
                // no frame holds the same id twice.
                if open, contacts.contains(where: { $0.id == id && $0.changed && !$0.phase.isActive }) { close(emit: emit) }
                begin(time)
                contacts.append(Contact(id: id, position: Vector(x, y), phase: .began, changed: true))
                activeCount += 1
            }
        case .up, .cancel:
            guard let i = index(of: id) else { return anomaly ?? .upForUnknownTouch }
            // A contact that lands and lifts at one instant still shows as down
            // in one frame, so recognizers see it.
            if contacts[i].changed && contacts[i].phase == .began { close(emit: emit) }
            begin(time)
            guard let j = index(of: id) else { return anomaly }
            var contact = contacts[j]
            if let x { contact.position.x = x }
            if let y { contact.position.y = y }
            contact.phase = kind == .up ? .ended : .cancelled
            contact.changed = true
            contacts[j] = contact
            activeCount -= 1
        }
        return anomaly
    }

    /// A contact that is a palm, not a finger: cancelled if it is down (it must
    /// not complete a tap), and its events ignored until it lifts.
    public mutating func palm(time rawTime: Double, id: Int, emit: (TouchFrame) -> Void) -> FramingAnomaly? {
        if !ignored.isEmpty, ignored.contains(id) { return nil }
        var anomaly: FramingAnomaly?
        if index(of: id) != nil {
            anomaly = apply(.cancel, time: rawTime, id: id, x: nil, y: nil, emit: emit)
        } else {
            let time = clock(rawTime, anomaly: &anomaly)
            if open, let frameTime, time != frameTime { close(emit: emit) }
            lastTime = time
        }
        ignore(id)
        return anomaly
    }

    /// The input's time on the framer's clock. A jump of more than a day either
    /// way is a clock change (two recordings joined, a corrupt stamp): the clock
    /// goes on from the previous time, at once while a touch is down (so the
    /// stroke keeps its shape), a second later when none is (so gestures either
    /// side of the jump stay apart). A smaller step back is held at the previous time.
    @inline(__always)
    private mutating func clock(_ rawTime: Double, anomaly: inout FramingAnomaly?) -> Double {
        let time = rawTime + clockOffset
        guard time < lastTime || time - lastTime > InputLimits.maxTimeJump, lastTime.isFinite else { return time }
        if abs(time - lastTime) > InputLimits.maxTimeJump {
            let resumed = lastTime + (activeCount > 0 ? 0 : TouchFramer.idleGapAfterClockChange)
            // From the raw time, not by adding to the old offset: no rounding builds up.
            clockOffset = resumed - rawTime
            anomaly = .clockJumped
            return resumed
        }
        // Below a microsecond a step back is the offset's rounding, not the input's.
        if lastTime - time > 1e-6 { anomaly = .timeWentBackwards }
        return lastTime
    }

    /// Longer than any multi-gesture window (double tap, settling), so that a
    /// clock change between gestures does not join them.
    static let idleGapAfterClockChange = 1.0

    private mutating func ignore(_ id: Int) {
        if ignored.count < TouchFramer.maxIgnored { ignored.insert(id) }
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
        activeCount = 0
        ignored.removeAll()
        close(emit: emit)
    }

    // Inlined: a call from a mutating method would copy the whole framer.
    @inline(__always)
    private func index(of id: Int) -> Int? {
        for i in contacts.indices where contacts[i].id == id && contacts[i].phase.isActive { return i }
        return nil
    }

    /// Contact `i` moves (an axis without a value keeps its last one).
    @inline(__always)
    private mutating func move(_ i: Int, x: Double?, y: Double?) {
        // Changed as a copy and stored once: each write in place checks
        // that the array is not shared.
        var contact = contacts[i]
        if let x { contact.position.x = x }
        if let y { contact.position.y = y }
        if contact.phase != .began { contact.phase = .moved }
        contact.changed = true
        contacts[i] = contact
    }

    /// A click of the fingers down: its packet makes a frame, with the
    /// contacts as they are, that says so (opened at the packet's end, whose
    /// time is checked as every frame's is).
    public mutating func click() {
        clickPending = true
    }

    @inline(__always)
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
        frame.boundingBox = boundingBox
        frame.clicked = buttonHeld || clickPending
        clickPending = false
        // Overwritten where they lie: emptying the array first goes through
        // replaceSubrange, which costs more than the frame's touches.
        let count = contacts.count
        if frame.touches.count > count { frame.touches.removeLast(frame.touches.count - count) }
        while frame.touches.count < count { frame.touches.append(Touch(id: 0, position: .zero, phase: .stationary)) }
        // One pass, one uniqueness check each: the frame's touches are written,
        // and the contacts made ready for the next frame (those that lifted
        // dropped, the rest unchanged). `emit` cannot see the contacts, so
        // they may change before it runs.
        let kept = contacts.withUnsafeMutableBufferPointer { all in
            frame.touches.withUnsafeMutableBufferPointer { to in
                var k = 0
                for i in 0..<count {
                    var contact = all[i]
                    to[i] = Touch(id: contact.id, position: contact.position, phase: contact.changed ? contact.phase : .stationary)
                    guard contact.phase.isActive else { continue }
                    contact.changed = false
                    if contact.phase == .began { contact.phase = .moved }
                    all[k] = contact
                    k += 1
                }
                return k
            }
        }
        // No call to shorten them when no contact lifted (most frames):
        // removeLast(0) still goes through replaceSubrange.
        if kept < contacts.count { contacts.removeLast(contacts.count - kept) }
        emit(frame)
    }
}
