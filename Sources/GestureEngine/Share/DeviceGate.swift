import GestureInput

/// What a share's thread runs between a device and its clone: a touch
/// device's `ShareGate` or a mouse's `MouseShareGate`. The thread hands it
/// every event and the engine's commands, writes what it lets through to the
/// clone, and passes its signals on.
protocol DeviceGate: Sendable {
    /// The next moment `expire` has work.
    var deadline: Double? { get }
    mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent], signals: inout [ShareSignal])
    mutating func expire(at now: Double, into out: inout [EvdevEvent], signals: inout [ShareSignal])
    mutating func claim(into out: inout [EvdevEvent], signals: inout [ShareSignal])
    mutating func release(into out: inout [EvdevEvent])
    /// New claims from a rules reload; settings of the other kind of gate are ignored.
    mutating func update(_ settings: ShareSettings)
    /// The keyboards' modifiers held now; only a mouse's gate needs them.
    mutating func holdModifiers(_ modifiers: UInt8)
    /// Sharing ends: nothing is left down on the clone.
    mutating func stop(into out: inout [EvdevEvent])
    /// A pass through a copy, written nowhere, so the first real one finds its paths ready (`ShareWorker.run`).
    func warmUp()
}

/// What a gate said, for the engine.
enum ShareSignal: Equatable, Sendable {
    case touch(ShareGate.Signal)
    case mouse(MouseShareGate.Signal)
}

/// A gate's settings, as the rules make them.
enum ShareSettings: Equatable, Sendable {
    case touch(ShareGate.Settings)
    case mouse(MouseStrokeGate.Settings)
}

extension ShareGate: DeviceGate {
    mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        if let s = handle(event, into: &out) { signals.append(.touch(s)) }
    }

    mutating func expire(at now: Double, into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        if let s = expire(at: now, into: &out) { signals.append(.touch(s)) }
    }

    mutating func claim(into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        if let s = claim(into: &out) { signals.append(.touch(s)) }
    }

    mutating func update(_ settings: ShareSettings) {
        if case .touch(let s) = settings { update(s) }
    }

    mutating func holdModifiers(_ modifiers: UInt8) {}

    /// A landing and a lift. The first pass through a gate costs 0.1 to 0.3 ms
    /// on a real machine, release or debug build, against 1 to 3 µs for the
    /// next; under QEMU's TCG, as the kernel suite runs, it costs 14 to 41 ms
    /// in the release build too (qemu-x86_64 on the same code), which libinput
    /// sees as a late first packet.
    func warmUp() {
        var copy = self
        var out: [EvdevEvent] = []
        let landing: [(UInt16, UInt16, Int32)] = [(EV.abs, ABS.mtSlot, 0), (EV.abs, ABS.mtTrackingID, 1), (EV.abs, ABS.mtPositionX, 1),
                                                  (EV.abs, ABS.mtPositionY, 1), (EV.key, BTN.touch, 1), (EV.syn, SYN.report, 0)]
        let lift: [(UInt16, UInt16, Int32)] = [(EV.abs, ABS.mtTrackingID, -1), (EV.key, BTN.touch, 0), (EV.syn, SYN.report, 0)]
        for (type, code, value) in landing + lift {
            _ = copy.handle(EvdevEvent(time: 0, type: type, code: code, value: value), into: &out)
        }
        _ = copy.expire(at: 1, into: &out)
    }
}

extension MouseShareGate: DeviceGate {
    mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        var said: [MouseShareGate.Signal] = []
        handle(event, into: &out, signals: &said)
        for s in said { signals.append(.mouse(s)) }
    }

    mutating func expire(at now: Double, into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        var said: [MouseShareGate.Signal] = []
        expire(at: now, into: &out, signals: &said)
        for s in said { signals.append(.mouse(s)) }
    }

    mutating func claim(into out: inout [EvdevEvent], signals: inout [ShareSignal]) {
        var said: [MouseShareGate.Signal] = []
        claim(into: &out, signals: &said)
        for s in said { signals.append(.mouse(s)) }
    }

    mutating func update(_ settings: ShareSettings) {
        if case .mouse(let s) = settings { update(s) }
    }

    mutating func stop(into out: inout [EvdevEvent]) { end(into: &out) }

    /// A click, and a stroke let go, for the same reason as a touch gate's landing.
    func warmUp() {
        var copy = self
        var out: [EvdevEvent] = []
        var said: [MouseShareGate.Signal] = []
        let button = copy.settings.strokeButtons.first ?? BTN.right
        let packets: [[(UInt16, UInt16, Int32)]] = [[(EV.key, button, 1)], [(EV.key, button, 0)], [(EV.key, button, 1)],
                                                    [(EV.rel, REL.x, 200), (EV.rel, REL.y, 10)], [(EV.key, button, 0)]]
        for (i, packet) in packets.enumerated() {
            for (type, code, value) in packet + [(EV.syn, SYN.report, 0)] {
                copy.handle(EvdevEvent(time: Double(i) * 0.01, type: type, code: code, value: value), into: &out, signals: &said)
            }
        }
        copy.release(into: &out)
        copy.expire(at: 1, into: &out, signals: &said)
    }
}
