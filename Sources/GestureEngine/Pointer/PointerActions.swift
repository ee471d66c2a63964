import Glibc
import GestureActions
import GestureCore
import GestureScript

/// `pointer.*` and `touchpad.*`: packets to the virtual devices, or JSON lines
/// with `--dry-run`. Every press and every landing is undone by the end of the
/// gesture that made it (`HeldButtons`), by a reload and at exit.
extension Engine {
    public func pointer(_ request: PointerRequest, origin: String) throws(HostActionError) {
        switch request {
        case let .move(dx, dy):
            try sendPointer(effects.pointer.packets.move(dx: dx, dy: dy, gain: runtime.thresholds[.pointerGain]), origin: origin)
        case let .scroll(dx, dy):
            try sendPointer(effects.pointer.packets.scroll(dx: dx, dy: dy), origin: origin)
        case .press(let button):
            if effects.pointer.buttons.press(button, by: effects.pointer.owner) {
                try sendPointer(PointerPackets.button(button, down: true), origin: origin)
            }
        case let .release(button, after):
            if let after {
                _ = effects.pointer.buttons.linger(button, until: runtime.clock + after)
            } else if effects.pointer.buttons.release(button) {
                try sendPointer(PointerPackets.button(button, down: false), origin: origin)
            }
        case let .click(button, count):
            if effects.pointer.buttons.holds[button] != nil {
                throw .failed(PointerStateError.clickWhileDown(button))
            }
            for click in 0..<count {
                // libinput takes a press 25 ms or less after a release for a
                // switch's bounce and drops it: a double click would be one.
                if click > 0, !options.dryRun { pause(nanoseconds: 30_000_000) }
                try sendPointer(PointerPackets.button(button, down: true), origin: origin)
                try sendPointer(PointerPackets.button(button, down: false), origin: origin)
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
        try sendTouchpad(events, origin: origin)
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
        for button in effects.pointer.buttons.release(ownedBy: owner) { sendQuietly(PointerPackets.button(button, down: false)) }
        if effects.pointer.touchpadOwner == owner {
            effects.pointer.touchpadOwner = nil
            sendTouchpadQuietly(effects.pointer.touchpad.end())
        }
    }

    /// Lingering buttons whose time came.
    func releaseLingering(at time: Double) {
        runtime.advanceClock(to: time)
        for button in effects.pointer.buttons.releaseDue(at: time) { sendQuietly(PointerPackets.button(button, down: false)) }
    }

    /// A reload or the end of the run: nothing stays down.
    func releaseEverything() {
        guard !effects.pointer.isIdle else { return }
        for button in effects.pointer.buttons.releaseAll() { sendQuietly(PointerPackets.button(button, down: false)) }
        effects.pointer.touchpadOwner = nil
        sendTouchpadQuietly(effects.pointer.touchpad.end())
    }

    // MARK: Devices

    /// Rules that use `pointer` or `touchpad` get the device before any
    /// gesture, as key() gets the keyboard; at start one that cannot be made
    /// stops the run.
    func makePointerDevicesIfUsed(atStart: Bool) -> ExitCode? {
        guard !options.dryRun else { return nil }
        for (user, device) in [(VirtualDeviceError.User.pointer, \PointerEffects.pointerDevice), (.touchpad, \PointerEffects.touchpadDevice)] {
            guard effects.pointer[keyPath: device] == nil, let use = runtime.firstCall(ofGlobal: user.rawValue, member: true) else { continue }
            do {
                let made = try Self.makeDevice(user)
                effects.pointer[keyPath: device] = made
                if options.verbose { console.say("gesturemap: made the virtual \(user.rawValue) \(made.node ?? "") (\(use.file):\(use.line) uses \(user.rawValue))") }
            } catch {
                console.say("gesturemap: \(use.file):\(use.line): \(error.description)")
                if atStart { return .unavailable }
            }
        }
        return nil
    }

    private static func makeDevice(_ user: VirtualDeviceError.User) throws(VirtualDeviceError) -> VirtualPointingDevice {
        switch user {
        case .pointer: return try .pointer()
        case .touchpad: return try .touchpad()
        }
    }

    private func sendPointer(_ events: [VirtualEvent], origin: String) throws(HostActionError) {
        guard !events.isEmpty else { return }
        if options.dryRun { return writeDryRun(pointer: events) }
        try send(events, to: \.pointerDevice, user: .pointer, origin: origin)
    }

    private func sendTouchpad(_ events: [VirtualEvent], origin: String) throws(HostActionError) {
        guard !events.isEmpty else { return }
        if options.dryRun { return writeDryRunTouchpad() }
        try send(events, to: \.touchpadDevice, user: .touchpad, origin: origin)
    }

    /// To the device, made at first use when the rules did not name it directly.
    private func send(_ events: [VirtualEvent], to device: WritableKeyPath<PointerEffects, VirtualPointingDevice?>,
                      user: VirtualDeviceError.User, origin: String) throws(HostActionError) {
        if effects.pointer[keyPath: device] == nil {
            do {
                effects.pointer[keyPath: device] = try Self.makeDevice(user)
                settle()
            } catch {
                console.say("gesturemap: \(origin): " + error.description)
                fatal = .unavailable
                return
            }
        }
        guard let made = effects.pointer[keyPath: device], made.send(events) else {
            throw .failed(VirtualDeviceError.stopped(user))
        }
    }

    /// The engine's own releases: no rule to tell when one fails.
    private func sendQuietly(_ events: [VirtualEvent]) {
        if options.dryRun { return writeDryRun(pointer: events) }
        _ = effects.pointer.pointerDevice?.send(events)
    }

    private func sendTouchpadQuietly(_ events: [VirtualEvent]) {
        guard !events.isEmpty else { return }
        if options.dryRun { return writeDryRunTouchpad() }
        _ = effects.pointer.touchpadDevice?.send(events)
    }

    /// A desktop opens a new device a little after it appears: events sent
    /// before are lost. Made at start, a device has that moment before any gesture.
    private func settle() { pause(nanoseconds: 200_000_000) }

    private func pause(nanoseconds: Int) {
        var pause = timespec(tv_sec: 0, tv_nsec: nanoseconds)
        nanosleep(&pause, nil)
    }

    // MARK: --dry-run

    /// One line a packet, its fields named after what they move.
    private func writeDryRun(pointer events: [VirtualEvent]) {
        var json = JSONWriter()
        json.raw("{\"action\":\"pointer\",\"t\":")
        json.time(runtime.clock)
        for field in PointerPackets.fields(of: events) {
            json.byte(0x2C)
            if field.name == "button" {
                json.raw("\"button\":")
                json.string(field.button?.rawValue ?? "unknown")
                json.raw(",\"value\":")
            } else {
                json.string(field.name)
                json.byte(0x3A)
            }
            json.integer(Int64(field.value))
        }
        json.byte(0x7D)
        write(line: json.text)
    }

    /// The fingers on the virtual touchpad after the packet, and where their middle is, mm.
    private func writeDryRunTouchpad() {
        var json = JSONWriter()
        json.raw("{\"action\":\"touchpad\",\"t\":")
        json.time(runtime.clock)
        switch effects.pointer.touchpad.phase {
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
        json.byte(0x7D)
        write(line: json.text)
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
