import GestureActions
import GestureCore
import GestureInput
import GestureScript
import GestureSystem

/// `pointer.*` and `touchpad.*`: packets to the virtual devices, or JSON lines
/// with `--dry-run`. Every press and every landing is undone by the end of the
/// gesture that made it (`HeldButtons`), by a reload and at exit.
extension Engine {
    public func pointer(_ request: PointerRequest, origin: String) throws(HostActionError) {
        switch request {
        case let .move(dx, dy):
            _ = try sendPointer(effects.pointer.packets.move(dx: dx, dy: dy, gain: runtime.thresholds[.pointerGain]), origin: origin)
        case let .scroll(dx, dy):
            _ = try sendPointer(effects.pointer.packets.scroll(dx: dx, dy: dy), origin: origin)
        case .press(let button):
            guard effects.pointer.buttons.holds[button] == nil else {
                _ = effects.pointer.buttons.press(button, by: effects.pointer.owner)
                return
            }
            if try sendButton(button, down: true, origin: origin) {
                _ = effects.pointer.buttons.press(button, by: effects.pointer.owner)
            }
        case let .release(button, after):
            if let after {
                _ = effects.pointer.buttons.linger(button, until: runtime.clock + after)
            } else if effects.pointer.buttons.release(button) {
                _ = try sendButton(button, down: false, origin: origin)
            }
        case let .click(button, count):
            if effects.pointer.buttons.holds[button] != nil {
                throw .failed(PointerStateError.clickWhileDown(button))
            }
            // Each press goes out 30 ms after the release before it (PacketAgenda), from the loop.
            for _ in 0..<count {
                guard try sendButton(button, down: true, origin: origin) else { return }
                _ = try sendButton(button, down: false, origin: origin)
            }
        }
    }

    public func touchpad(_ request: TouchpadRequest, origin: String) throws(HostActionError) {
        let events: [VirtualEvent]
        switch request {
        case .begin(let fingers):
            events = effects.pointer.touchpad.begin(fingers: fingers)
            effects.pointer.touchpadOwner = effects.pointer.owner
        case let .move(dx, dy):
            guard effects.pointer.touchpad.isDown else { throw .failed(PointerStateError.touchpadUp) }
            events = effects.pointer.touchpad.move(dx: dx, dy: dy)
        case .end:
            events = effects.pointer.touchpad.end()
            effects.pointer.touchpadOwner = nil
        }
        try sendTouchpad(events, origin: origin, always: request == .end)
    }

    // MARK: Ownership

    /// Runs a delivery's handler with its presses and landings belonging to its
    /// gesture, and undoes what is left of them when the gesture ends.
    func dispatchOwning(_ delivery: Delivery, device: Int) {
        effects.pointer.owner = .gesture(device: device, rule: delivery.rule.index, start: delivery.event.start)
        runtime.dispatch(delivery)
        let owner = effects.pointer.owner
        effects.pointer.owner = .outside
        if !effects.pointer.isIdle, delivery.event.endsGesture { undo(ownedBy: owner) }
    }

    /// Undoes the presses and landings of `owner`, whose gesture or call is over.
    func undo(ownedBy owner: ActionOwner) {
        for button in effects.pointer.buttons.release(ownedBy: owner) { sendQuietly(PointerPackets.button(button, down: false), releasing: button) }
        if effects.pointer.touchpadOwner == owner {
            effects.pointer.touchpadOwner = nil
            sendQuietly(effects.pointer.touchpad.end(), to: .touchpad)
        }
    }

    /// Lingering buttons whose time came.
    func releaseLingering(at time: Double) {
        runtime.advanceClock(to: time)
        for button in effects.pointer.buttons.releaseDue(at: time) { sendQuietly(PointerPackets.button(button, down: false), releasing: button) }
    }

    /// A reload or the end of the run: nothing stays down.
    func releaseEverything() {
        guard !effects.pointer.isIdle else { return }
        for button in effects.pointer.buttons.releaseAll() { sendQuietly(PointerPackets.button(button, down: false), releasing: button) }
        effects.pointer.touchpadOwner = nil
        sendQuietly(effects.pointer.touchpad.end(), to: .touchpad)
    }

    // MARK: Devices

    /// Rules that use `pointer` or `touchpad` get the device before any
    /// gesture, as key() gets the keyboard; at start one that cannot be made
    /// stops the run.
    func makePointerDevicesIfUsed(atStart: Bool) -> ExitCode? {
        guard sink.makesDevices else { return nil }
        for target in [PacketAgenda.Target.pointer, .touchpad] {
            let device = Self.device(target), name = target == .pointer ? "pointer" : "touchpad"
            guard effects.pointer[keyPath: device] == nil, let use = runtime.firstCall(ofGlobal: name, member: true) else { continue }
            do {
                let made = try Self.makeDevice(target)
                effects.pointer[keyPath: device] = made
                if options.verbose { console.note("made the virtual \(name) \(made.node ?? "") (\(use.file):\(use.line) uses \(name))") }
            } catch {
                console.note("\(use.file):\(use.line): \(error.message)")
                if atStart { return .unavailable }
            }
        }
        return nil
    }

    /// The pointer, or else the touchpad.
    static func makeDevice(_ target: PacketAgenda.Target) throws(UinputAccessError) -> VirtualPointingDevice {
        target == .pointer ? try .pointer() : try .touchpad()
    }

    /// True when the packet went out or waits its turn; false when it was
    /// dropped (too many waiting).
    @discardableResult
    private func sendPointer(_ events: [VirtualEvent], origin: String) throws(HostActionError) -> Bool {
        try sink.send(events, to: .pointer, origin: origin, button: nil, always: false, in: self)
    }

    /// A button's press or release; a release is never dropped.
    private func sendButton(_ button: PointerButton, down: Bool, origin: String) throws(HostActionError) -> Bool {
        try sink.send(PointerPackets.button(button, down: down), to: .pointer, origin: origin, button: (button, down), always: false, in: self)
    }

    private func sendTouchpad(_ events: [VirtualEvent], origin: String, always: Bool) throws(HostActionError) {
        _ = try sink.send(events, to: .touchpad, origin: origin, button: nil, always: always, in: self)
    }

    static func device(_ target: PacketAgenda.Target) -> WritableKeyPath<PointerEffects, VirtualPointingDevice?> {
        target == .pointer ? \.pointerDevice : \.touchpadDevice
    }

    enum PacketFate { case sent, queued, full, failed }

    /// A packet to its virtual device now; false when the device is not there
    /// or would not take it.
    func writeNow(_ events: [VirtualEvent], to target: PacketAgenda.Target) -> Bool {
        switch target {
        case .pointer: return effects.pointer.pointerDevice?.send(events) == true
        case .touchpad: return effects.pointer.touchpadDevice?.send(events) == true
        case .keyboard:
            guard let keyboard = effects.keyboard else { return false }
            return events.allSatisfy { keyboard.write(type: $0.type, code: $0.code, value: $0.value) }
        }
    }

    /// Now, or after what waits its turn (nothing overtakes a press), or at its
    /// moment: a press 30 ms after the same button's release, a new device's
    /// first packets after it settled. Without the loop (a replay as fast as
    /// it reads) everything goes now.
    func deliver(_ events: [VirtualEvent], to target: PacketAgenda.Target, button: (PointerButton, down: Bool)?,
                         notBefore given: Double = -.infinity, always: Bool) -> PacketFate {
        let now = MonotonicClock.now()
        var notBefore = given
        if let (which, down) = button, down, let released = effects.pointer.lastRelease[which] {
            notBefore = max(notBefore, released + PacketAgenda.clickGap)
        }
        var due = now
        if effects.defersOnLoop, notBefore > now || !effects.agenda.isEmpty {
            guard effects.agenda.add(events, to: target, now: now, notBefore: notBefore, always: always) else { return .full }
            due = effects.agenda.lastDue ?? now
        } else if !writeNow(events, to: target) {
            return .failed
        }
        if let (which, down) = button, !down { effects.pointer.lastRelease[which] = due }
        return due > now ? .queued : .sent
    }

    /// The engine's own releases and lifts: no rule to tell when one fails.
    private func sendQuietly(_ events: [VirtualEvent], to target: PacketAgenda.Target = .pointer, releasing button: PointerButton? = nil) {
        _ = try? sink.send(events, to: target, origin: nil, button: button.map { ($0, down: false) }, always: true, in: self)
    }

    /// The loop's deadline came: what waited for it goes out.
    func sendDuePackets(at now: Double) {
        var clock = now
        while let entry = effects.agenda.takeNext(at: clock) {
            sendLate(entry)
            clock = MonotonicClock.now()
            effects.agenda.sent(at: clock)
        }
    }

    /// The run ends: what still waits goes out now, in order, before the devices go.
    func flushPacketAgenda() {
        for entry in effects.agenda.takeAll() { sendLate(entry) }
    }

    private func sendLate(_ entry: PacketAgenda.Entry) {
        guard !writeNow(entry.events, to: entry.target), !effects.agendaTroubleSaid else { return }
        effects.agendaTroubleSaid = true
        console.note(UinputAccessError.stopped(entry.target.user, reason: nil).message + " (said once)")
    }
}

extension PacketAgenda.Target {
    /// Who needed the device, as uinput's messages name it.
    var user: UinputUser {
        switch self {
        case .pointer: return .pointer
        case .touchpad: return .touchpad
        case .keyboard: return .key
        }
    }
}

/// A pointer or touchpad call that makes no sense in the state they are in.
enum PointerStateError: Error, CustomStringConvertible {
    case clickWhileDown(PointerButton)
    case touchpadUp

    var description: String {
        switch self {
        case .clickWhileDown(let button):
            return "pointer.click(\"\(button.rawValue)\"): the \(button.rawValue) button is down; release it first (pointer.release(\"\(button.rawValue)\"))"
        case .touchpadUp:
            return "touchpad.move(): no fingers are on the virtual touchpad; call touchpad.begin(fingers) first, as the gesture begins"
        }
    }
}
