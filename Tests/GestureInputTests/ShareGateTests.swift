import Testing
@testable import GestureInput

/// A touchpad's packets, written as the kernel sends them: only what changed.
private struct Pad {
    var time = 1.0
    var device = EvdevState()
    var slot = 0
    var nextID: Int32 = 10
    var gate: ShareGate
    /// The clone as the kernel would hold it, from everything the gate wrote.
    var clone = EvdevState()
    var written: [EvdevEvent] = []
    var signals: [ShareGate.Signal] = []

    init(_ settings: ShareGate.Settings) {
        gate = ShareGate(settings: settings)
    }

    mutating func send(_ events: [(UInt16, UInt16, Int32)], after gap: Double = 0.008) {
        var packet: [EvdevEvent] = []
        for (type, code, value) in events {
            let e = EvdevEvent(time: time, type: type, code: code, value: value)
            // The kernel drops what repeats the device's value.
            if type == EV.abs && code == ABS.mtSlot {
                guard Int(value) != slot else { continue }
                slot = Int(value)
            } else if type == EV.abs && ABS.isMultiTouch(code) {
                guard device.slotValue(slot, code) != value else { continue }
            } else if type == EV.key {
                guard (device.keys[code] ?? 0) != value else { continue }
            }
            packet.append(e)
            device.apply(e)
        }
        packet.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0))
        for e in packet { feed(e) }
        time += gap
    }

    mutating func feed(_ e: EvdevEvent) {
        var out: [EvdevEvent] = []
        if let s = gate.handle(e, into: &out) { signals.append(s) }
        take(out)
    }

    mutating func wait(_ seconds: Double) {
        time += seconds
        var out: [EvdevEvent] = []
        if let s = gate.expire(at: time, into: &out) { signals.append(s) }
        take(out)
    }

    mutating func take(_ out: [EvdevEvent]) {
        if let last = out.last { #expect(last.type == EV.syn && last.code == SYN.report, "a write ends its packet") }
        for e in out { clone.apply(e) }
        written += out
    }

    /// Fingers land in free slots at these points (device units).
    mutating func land(_ points: [(Int32, Int32)], tool: UInt16? = nil) {
        var events: [(UInt16, UInt16, Int32)] = []
        var free = 0
        for (x, y) in points {
            while (device.slotValue(free, ABS.mtTrackingID) ?? -1) >= 0 { free += 1 }
            events += [(EV.abs, ABS.mtSlot, Int32(free)), (EV.abs, ABS.mtTrackingID, nextID), (EV.abs, ABS.mtPositionX, x), (EV.abs, ABS.mtPositionY, y)]
            nextID += 1
            free += 1
        }
        let fingers = device.fingers + points.count
        events += [(EV.key, BTN.touch, 1)] + Self.tools(fingers)
        events += [(EV.abs, ABS.x, points[0].0), (EV.abs, ABS.y, points[0].1)]
        send(events)
    }

    static func tools(_ fingers: Int) -> [(UInt16, UInt16, Int32)] {
        [BTN.toolFinger, BTN.toolDoubleTap, BTN.toolTripleTap, BTN.toolQuadTap, BTN.toolQuintTap].enumerated().map { i, code in
            (EV.key, code, Int32(i + 1 == min(fingers, 5) ? 1 : 0))
        }
    }

    mutating func move(dx: Int32, dy: Int32, frames: Int) {
        for _ in 0..<frames {
            var events: [(UInt16, UInt16, Int32)] = []
            for s in device.activeSlots {
                events += [(EV.abs, ABS.mtSlot, Int32(s)),
                           (EV.abs, ABS.mtPositionX, (device.slotValue(s, ABS.mtPositionX) ?? 0) + dx),
                           (EV.abs, ABS.mtPositionY, (device.slotValue(s, ABS.mtPositionY) ?? 0) + dy)]
            }
            send(events)
        }
    }

    mutating func liftAll() {
        var events: [(UInt16, UInt16, Int32)] = []
        for s in device.activeSlots { events += [(EV.abs, ABS.mtSlot, Int32(s)), (EV.abs, ABS.mtTrackingID, -1)] }
        events += [(EV.key, BTN.touch, 0)] + Self.tools(0)
        send(events)
    }

    /// The clone holds what the device holds: contacts, their positions, keys.
    var cloneMatchesDevice: Bool {
        guard clone.activeSlots == device.activeSlots else { return false }
        for s in device.activeSlots {
            for code in [ABS.mtTrackingID, ABS.mtPositionX, ABS.mtPositionY] where clone.slotValue(s, code) != device.slotValue(s, code) { return false }
        }
        for (code, value) in device.keys where (clone.keys[code] ?? 0) != value { return false }
        return true
    }

    var cloneIsEmpty: Bool { clone.activeSlots.isEmpty && clone.keysUp }
}

@Suite("Sharing a device: what its clone gets")
struct ShareGateTests {
    @Test("without claims every packet goes to the clone as it comes, and the clone holds what the device holds after each")
    func noClaims() {
        var pad = Pad(ShareGate.Settings())
        pad.land([(1000, 1000)])
        #expect(pad.cloneMatchesDevice)
        for _ in 0..<10 {
            pad.move(dx: 7, dy: -3, frames: 1)
            #expect(pad.cloneMatchesDevice)
        }
        pad.land([(2000, 1500)])
        #expect(pad.cloneMatchesDevice && pad.clone.fingers == 2)
        pad.liftAll()
        #expect(pad.cloneIsEmpty && pad.gate.phase == .idle)
    }

    @Test("claim_fingers 3: three fingers landing within the hold reach the clone not at all, and the next touch arrives whole")
    func claimedAtLanding() {
        var pad = Pad(ShareGate.Settings(claimFingers: 3))
        pad.land([(1000, 1000)])
        pad.land([(1500, 1000)])
        pad.land([(2000, 1000)])
        #expect(pad.signals == [.claimed(fingers: 3)])
        pad.move(dx: 40, dy: 0, frames: 20)
        pad.liftAll()
        #expect(pad.written.isEmpty, "nothing of the claimed sequence: \(pad.written)")
        #expect(pad.gate.phase == .idle)
        // The device's next touch in slot 0 lands where slot 0 last was on x: the
        // kernel sends no x for it, and the clone, told of neither, still gets it.
        pad.send([(EV.abs, ABS.mtSlot, 0), (EV.abs, ABS.mtTrackingID, 50), (EV.abs, ABS.mtPositionX, 1800), (EV.abs, ABS.mtPositionY, 1000),
                  (EV.key, BTN.touch, 1)] + Pad.tools(1))
        #expect(pad.device.slotValue(0, ABS.mtPositionX) == 1800)
        pad.wait(ShareGate.defaultHoldBack)
        #expect(pad.cloneMatchesDevice && pad.clone.slotValue(0, ABS.mtPositionX) == 1800)
    }

    @Test("a claim after the hold, with contacts forwarded: they end on the clone at once, keys up, and nothing more comes until every finger is up")
    func claimedLate() {
        var pad = Pad(ShareGate.Settings(claimFingers: 3))
        pad.land([(1000, 1000), (1500, 1000)])
        pad.wait(0.2)
        pad.move(dx: 0, dy: 30, frames: 5)
        #expect(pad.clone.fingers == 2 && pad.cloneMatchesDevice)
        pad.land([(2000, 1000)])
        #expect(pad.signals == [.claimed(fingers: 3)])
        #expect(pad.cloneIsEmpty)
        let count = pad.written.count
        pad.move(dx: 0, dy: 30, frames: 5)
        pad.liftAll()
        #expect(pad.written.count == count)
        pad.land([(900, 900)])
        pad.wait(0.2)
        #expect(pad.cloneMatchesDevice && pad.clone.fingers == 1)
    }

    @Test("a tap shorter than the hold reaches the clone whole: down, then up")
    func quickTap() {
        var pad = Pad(ShareGate.Settings(claimFingers: 3))
        pad.land([(1000, 1000)])
        #expect(pad.written.isEmpty)
        pad.liftAll()
        let touches = pad.written.filter { $0.type == EV.key && $0.code == BTN.touch }.map(\.value)
        #expect(touches == [1, 0])
        #expect(pad.cloneIsEmpty)
    }

    @Test("motion past the release distance ends the hold early: the pointer starts where the finger is")
    func motionReleases() {
        var pad = Pad(ShareGate.Settings(claimFingers: 3, releaseDistance: (16, 16)))
        pad.land([(1000, 1000)])
        pad.move(dx: 5, dy: 0, frames: 2)
        #expect(pad.written.isEmpty)
        pad.move(dx: 8, dy: 0, frames: 1)
        #expect(pad.gate.phase == .forwarding && pad.cloneMatchesDevice)
    }

    @Test("a claimed rule's count waits for the recognizers: claimed, nothing reached the clone; released, the clone gets the state as it is")
    func pending() {
        var claimed = Pad(ShareGate.Settings(pendingFingers: [3]))
        claimed.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        claimed.wait(0.2)
        guard case .pending = claimed.gate.phase else { Issue.record("not pending: \(claimed.gate.phase)"); return }
        claimed.move(dx: 30, dy: 0, frames: 3)
        var out: [EvdevEvent] = []
        #expect(claimed.gate.claim(into: &out) == .claimed(fingers: 3))
        claimed.take(out)
        claimed.liftAll()
        #expect(claimed.written.isEmpty)

        var released = Pad(ShareGate.Settings(pendingFingers: [3]))
        released.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        released.wait(0.2)
        released.move(dx: 30, dy: 0, frames: 3)
        out = []
        released.gate.release(into: &out)
        released.take(out)
        #expect(released.cloneMatchesDevice && released.clone.fingers == 3)
        released.liftAll()
        #expect(released.cloneIsEmpty)
    }

    @Test("released while still held at its landing (the claims failed at once: an edge swipe's finger away from the edge): the hold's end forwards it, live, rather than waiting for a second word")
    func releasedWhileHeld() {
        var pad = Pad(ShareGate.Settings(claimFingers: 3, pendingFingers: [1], releaseDistance: (16, 16)))
        pad.land([(1000, 1000)])
        var out: [EvdevEvent] = []
        pad.gate.release(into: &out)
        pad.take(out)
        #expect(pad.written.isEmpty)
        // 1.5 mm on: the hold ends, and the clone follows the finger from then on, packet by packet.
        pad.move(dx: 8, dy: 0, frames: 2)
        #expect(pad.gate.phase == .forwarding && pad.cloneMatchesDevice)
        let before = pad.written.count
        pad.move(dx: 8, dy: 0, frames: 5)
        #expect(pad.written.count > before && pad.cloneMatchesDevice)
        pad.liftAll()
        #expect(pad.cloneIsEmpty)

        // Not released: the same finger waits for the recognizers past the hold.
        var waiting = Pad(ShareGate.Settings(claimFingers: 3, pendingFingers: [1], releaseDistance: (16, 16)))
        waiting.land([(1000, 1000)])
        waiting.move(dx: 8, dy: 0, frames: 2)
        guard case .pending = waiting.gate.phase else { Issue.record("not pending: \(waiting.gate.phase)"); return }
        #expect(waiting.written.isEmpty)
    }

    @Test("a claim that has not fired 0.4 s after the landing gives the sequence back: the clone follows it live from then on")
    func claimWaitRunsOut() {
        var pad = Pad(ShareGate.Settings(pendingFingers: [3]))
        pad.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        // A slow pan: 3 units a frame, 8 ms apart.
        pad.move(dx: 0, dy: -3, frames: 40)
        #expect(pad.written.isEmpty)
        pad.move(dx: 0, dy: -3, frames: 20)
        #expect(pad.gate.phase == .forwarding && pad.cloneMatchesDevice)
        let before = pad.written.count
        pad.move(dx: 0, dy: -3, frames: 10)
        #expect(pad.written.count > before && pad.cloneMatchesDevice)

        // Time alone ends the wait too, with no packet coming.
        var still = Pad(ShareGate.Settings(pendingFingers: [3]))
        still.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        still.wait(0.2)
        guard case .pending = still.gate.phase else { Issue.record("not pending: \(still.gate.phase)"); return }
        #expect(still.gate.deadline != nil)
        still.wait(0.25)
        #expect(still.gate.phase == .forwarding && still.cloneMatchesDevice)
    }

    @Test("a pending sequence that ends with no rule claiming it reaches the clone whole: a 3-finger tap stays a 3-finger tap")
    func pendingEndsUndecided() {
        var pad = Pad(ShareGate.Settings(pendingFingers: [3]))
        pad.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        pad.wait(0.2)
        pad.move(dx: 2, dy: 0, frames: 3)
        #expect(pad.written.isEmpty)
        pad.liftAll()
        let landed = pad.written.filter { $0.type == EV.abs && $0.code == ABS.mtTrackingID && $0.value >= 0 }.count
        let lifted = pad.written.filter { $0.type == EV.abs && $0.code == ABS.mtTrackingID && $0.value < 0 }.count
        #expect(landed == 3 && lifted == 3)
        #expect(pad.written.contains { $0.type == EV.key && $0.code == BTN.toolTripleTap && $0.value == 1 })
        #expect(pad.cloneIsEmpty && pad.gate.phase == .idle)
    }

    @Test("a pending sequence past the packets it may keep goes to the clone from then on")
    func pendingTooLong() {
        var pad = Pad(ShareGate.Settings(pendingFingers: [3]))
        pad.land([(1000, 1000), (1500, 1000), (2000, 1000)])
        pad.wait(0.2)
        pad.move(dx: 1, dy: 0, frames: ShareGate.maxPendingPackets)
        #expect(pad.gate.phase == .forwarding && pad.cloneMatchesDevice)
    }

    @Test("five fingers held still for 3 s: the escape, with the clone left empty")
    func escape() {
        var pad = Pad(ShareGate.Settings())
        pad.land([(100, 100), (300, 100), (500, 100), (700, 100), (900, 100)])
        #expect(pad.clone.fingers == 5)
        pad.wait(2.9)
        #expect(pad.signals.isEmpty)
        #expect(pad.gate.deadline.map { abs($0 - (pad.time + 0.1)) < 0.02 } == true)
        pad.wait(0.2)
        #expect(pad.signals == [.escape])
        #expect(pad.cloneIsEmpty)
    }

    @Test("five fingers that keep moving are a gesture, not the escape: the 3 s count from when they rest")
    func movingHandIsNoEscape() {
        var pad = Pad(ShareGate.Settings())
        pad.land([(100, 100), (300, 100), (500, 100), (700, 100), (900, 100)])
        for _ in 0..<40 {
            pad.move(dx: 20, dy: 0, frames: 1)
            pad.wait(0.1)
        }
        #expect(pad.signals.isEmpty, "4 s of a moving hand")
        pad.wait(3.1)
        #expect(pad.signals == [.escape])
    }

    @Test("after SYN_DROPPED the state libevdev brings passes as one packet; the SYN_DROPPED itself does not")
    func dropped() {
        var pad = Pad(ShareGate.Settings())
        pad.land([(1000, 1000)])
        pad.feed(EvdevEvent(time: pad.time, type: EV.syn, code: SYN.dropped, value: 0))
        pad.send([(EV.abs, ABS.mtPositionX, 1400)])
        #expect(!pad.written.contains { $0.type == EV.syn && $0.code == SYN.dropped })
        #expect(pad.cloneMatchesDevice && pad.clone.slotValue(0, ABS.mtPositionX) == 1400)
    }

    @Test("random packets and claims: the clone ends every sequence with nothing down, holds nothing while withheld, and each write is a packet",
          arguments: 0..<40)
    func randomSequences(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var pad = Pad(ShareGate.Settings(claimFingers: random.next(2) == 0 ? 3 : nil, pendingFingers: random.next(2) == 0 ? [2] : []))
        for _ in 0..<60 {
            switch random.next(7) {
            case 0, 1:
                if pad.device.fingers < 5 { pad.land([(Int32(random.next(3000)), Int32(random.next(2000)))]) }
            case 2, 3:
                pad.move(dx: Int32(random.next(40) - 20), dy: Int32(random.next(40) - 20), frames: 1 + random.next(4))
            case 4:
                pad.wait(Double(random.next(100)) / 1000)
            case 5:
                var out: [EvdevEvent] = []
                if random.next(2) == 0 { _ = pad.gate.claim(into: &out) } else { pad.gate.release(into: &out) }
                pad.take(out)
            default:
                pad.liftAll()
                #expect(pad.cloneIsEmpty, "seed \(seed): the sequence ended with the clone holding \(pad.clone)")
            }
            if pad.gate.phase == .withholding { #expect(pad.clone.activeSlots.isEmpty, "seed \(seed)") }
            if pad.gate.phase == .forwarding { #expect(pad.cloneMatchesDevice, "seed \(seed)") }
        }
        pad.liftAll()
        #expect(pad.cloneIsEmpty)
    }
}

@Suite("A clone's fuzz from libinput's udev rule")
struct CloneFuzzTests {
    @Test("LIBINPUT_FUZZ_* entries of udev's database: axis code in hex, the fuzz; others and nonsense ignored")
    func parse() {
        let data = "S:input/by-path/x\nE:ID_INPUT=1\nE:LIBINPUT_FUZZ_35=8\nE:LIBINPUT_FUZZ_36=6\nE:LIBINPUT_FUZZ_00=0\nE:LIBINPUT_FUZZ_zz=3\nE:LIBINPUT_FUZZ_30=x\n"
        let fuzz = DeviceClone.fuzz(in: UdevDatabase.Entry(text: data))
        #expect(fuzz.map(\.code) == [0x35, 0x36] && fuzz.map(\.fuzz) == [8, 6])
    }
}
