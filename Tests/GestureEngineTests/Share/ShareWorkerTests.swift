import Glibc
@testable import GestureEngine
import GestureInput
import Testing

/// The share's thread as it runs for a live device, with a pipe for the device
/// and a recorder for the clone: the engine's side takes what the thread hands
/// over on its wakeup, as the loop does.
@Suite("A shared device's thread, driven through a pipe")
struct ShareWorkerTests {
    static let start = 100.0

    static func share(_ device: any SharedDevice, _ clone: any CloneWriter, settings: ShareGate.Settings = ShareGate.Settings(),
                      capacity: Int = ShareMailbox.capacity) throws -> DeviceShare {
        try DeviceShare(reading: device, path: "pipe", description: EvdevDescription(name: "pipe pad"), clone: clone, node: nil,
                        gate: ShareGate(settings: settings), capacity: capacity)
    }

    static func packet(at time: Double, _ events: [(UInt16, UInt16, Int32)]) -> [EvdevEvent] {
        (events + [(EV.syn, SYN.report, 0)]).map { EvdevEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
    }

    /// `fingers` land together in slots 0 up, 100 units apart.
    static func land(_ fingers: Int, at time: Double, x: Int32 = 1000) -> [EvdevEvent] {
        var events: [(UInt16, UInt16, Int32)] = []
        for slot in 0..<fingers {
            events += [(EV.abs, ABS.mtSlot, Int32(slot)), (EV.abs, ABS.mtTrackingID, Int32(10 + slot)),
                       (EV.abs, ABS.mtPositionX, x + Int32(100 * slot)), (EV.abs, ABS.mtPositionY, 500)]
        }
        return packet(at: time, events + [(EV.key, BTN.touch, 1)])
    }

    /// Slot 0's finger moves to `x` (the slot is the current one).
    static func move(to x: Int32, at time: Double) -> [EvdevEvent] {
        packet(at: time, [(EV.abs, ABS.mtPositionX, x)])
    }

    static func lift(_ fingers: Int, at time: Double) -> [EvdevEvent] {
        var events: [(UInt16, UInt16, Int32)] = []
        for slot in 0..<fingers { events += [(EV.abs, ABS.mtSlot, Int32(slot)), (EV.abs, ABS.mtTrackingID, -1)] }
        return packet(at: time, events + [(EV.key, BTN.touch, 0)])
    }

    static func bytes(_ packets: [[EvdevEvent]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for e in packets.joined() { e.appendStampedRecord(to: &bytes) }
        return bytes
    }

    @Test("every packet is on the clone when the engine hears of it, and the engine gets every record, in order")
    func recordsFlow() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log))
        #expect(share.start())
        defer { share.stop() }
        let packets = [Self.land(1, at: 100)] + (1...5).map { Self.move(to: 1000 + 40 * Int32($0), at: 100 + 0.01 * Double($0)) }
        var taken = Taken()
        var cloneX: [Int32?] = []
        for (i, packet) in packets.enumerated() {
            device.send(packet)
            share.take(into: &taken) { $0.records.count == Self.bytes(Array(packets[...i])).count }
            // Before the engine took it, the thread had written it to the clone.
            cloneX.append(log.state.slotValue(0, ABS.mtPositionX))
        }
        #expect(taken.records == Self.bytes(packets))
        #expect(cloneX == [1000, 1040, 1080, 1120, 1160, 1200])
        #expect(log.state.fingers == 1)
        #expect(taken.end == nil && taken.dropped.isEmpty)
    }

    @Test("a claim reaches the gate: the held sequence is gesturemap's and the engine is told")
    func claimReachesGate() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log), settings: ShareGate.Settings(pendingFingers: [3]))
        #expect(share.start())
        defer { share.stop() }
        device.send(Self.land(3, at: 100))
        var taken = Taken()
        share.take(into: &taken) { !$0.records.isEmpty }
        #expect(taken.events.count == 14)
        // Three fingers are a claimed count: held from the desktop while the recognizers decide.
        #expect(log.all.isEmpty)
        share.claim()
        share.take(into: &taken) { !$0.signals.isEmpty }
        #expect(taken.signals == [.touch(.claimed(fingers: 3))])
        #expect(log.state.fingers == 0)
    }

    @Test("a release reaches the gate: the held sequence goes to the desktop")
    func releaseReachesGate() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log), settings: ShareGate.Settings(pendingFingers: [3]))
        #expect(share.start())
        defer { share.stop() }
        device.send(Self.land(3, at: 100))
        var taken = Taken()
        share.take(into: &taken) { !$0.records.isEmpty }
        #expect(log.all.isEmpty)
        // Past the landing's hold, short of the claim's wait (0.4 s): only a release gives it to the desktop now.
        device.move(to: 100.2)
        share.release()
        #expect(log.wait { $0.state.fingers == 3 })
        #expect(log.state.activeSlots == [0, 1, 2])
        #expect(taken.signals.isEmpty)
    }

    @Test("new settings reach the gate: a claim_fingers set by a reload takes the next sequence")
    func updateReachesGate() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log))
        #expect(share.start())
        defer { share.stop() }
        device.send(Self.land(2, at: 100))
        #expect(log.wait { $0.state.fingers == 2 })
        device.send(Self.lift(2, at: 100.1))
        #expect(log.wait { $0.state.fingers == 0 })
        share.update(.touch(ShareGate.Settings(claimFingers: 2)))
        let written = log.all.count
        device.send(Self.land(2, at: 100.2))
        var taken = Taken()
        share.take(into: &taken) { !$0.signals.isEmpty }
        #expect(taken.signals == [.touch(.claimed(fingers: 2))])
        #expect(log.all.count == written)
    }

    @Test("an engine that falls behind: the records past the mailbox are dropped for the rules, then a SYN_DROPPED and the device's state follow")
    func behindDropsThenResyncs() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let size = RawEventDecoder.recordSize
        let share = try Self.share(device, RecordingClone(log), capacity: 10 * size)
        #expect(share.start())
        defer { share.stop() }
        // 6 + 2 + 2 records fill the mailbox; the next two moves (4 records) are dropped.
        let kept = [Self.land(1, at: 100), Self.move(to: 1010, at: 100.01), Self.move(to: 1020, at: 100.02)]
        let dropped = [Self.move(to: 1030, at: 100.03), Self.move(to: 1040, at: 100.04)]
        for (i, packet) in (kept + dropped).enumerated() {
            device.send(packet)
            // The desktop has every one, whatever the engine does.
            #expect(log.wait { $0.state.slotValue(0, ABS.mtPositionX) == 1000 + 10 * Int32(i) })
        }
        // The clone has a packet before the mailbox does: wait for the thread to have dropped both.
        #expect(share.wait(untilFlow: .dropping(records: 4)))
        var taken = Taken()
        share.take(into: &taken) { !$0.records.isEmpty }
        #expect(taken.records == Self.bytes(kept))
        #expect(taken.dropped.isEmpty)
        // Having taken what waited, the engine gets the device's state, and the size of the drop.
        var after = Taken()
        share.take(into: &after) { !$0.dropped.isEmpty }
        #expect(after.dropped == [4])
        let state = after.events
        #expect(state.first.map { [$0.type, $0.code] } == [EV.syn, SYN.dropped])
        #expect(state.last.map { [$0.type, $0.code] } == [EV.syn, SYN.report])
        #expect(state.contains { $0.type == EV.abs && $0.code == ABS.mtPositionX && $0.value == 1040 })
        #expect(state.contains { $0.type == EV.key && $0.code == BTN.touch && $0.value == 1 })
        // And records flow again.
        device.send(Self.move(to: 1050, at: 100.05))
        share.take(into: &after) { $0.events.last?.time == 100.05 }
        #expect(Array(after.records.suffix(2 * size)) == Self.bytes([Self.move(to: 1050, at: 100.05)]))
    }

    @Test("the device's end: the records before it reach the engine, the clone is gone, then the engine hears .unplugged")
    func unplugged() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log))
        #expect(share.start())
        defer { share.stop() }
        let packets = [Self.land(1, at: 100), Self.move(to: 1100, at: 100.01)]
        for packet in packets { device.send(packet) }
        device.unplug()
        var taken = Taken()
        var releasedWhenHeard = false
        share.take(into: &taken) { taken in
            if taken.end != nil { releasedWhenHeard = log.isReleased }
            return taken.end != nil
        }
        #expect(taken.end == .unplugged)
        #expect(taken.records == Self.bytes(packets))
        #expect(releasedWhenHeard)
    }

    @Test("stop: the engine hears .stopped, and the clone is let go with nothing down on it")
    func stopLeavesNothingDown() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let share = try Self.share(device, RecordingClone(log))
        #expect(share.start())
        device.send(Self.land(2, at: 100))
        #expect(log.wait { $0.state.fingers == 2 })
        share.stop()
        var taken = Taken()
        share.take(into: &taken) { $0.end != nil }
        #expect(taken.end == .stopped)
        #expect(taken.records == Self.bytes([Self.land(2, at: 100)]))
        #expect(log.state.fingers == 0 && log.state.keysUp)
        #expect(log.state.activeSlots.isEmpty)
        #expect(log.isReleased)
    }

    @Test("a descriptor poll refuses ends the thread with the reason, rather than spinning")
    func waitFails() throws {
        let log = CloneLog()
        let share = try Self.share(UnwatchableDevice(), RecordingClone(log))
        #expect(share.start())
        defer { share.stop() }
        var taken = Taken()
        share.take(into: &taken) { $0.end != nil }
        #expect(taken.end == .waitFailed(EBADF))
        #expect(log.isReleased)
    }

    @Test("a clone that cannot be written is news for the engine once, and the records still reach it")
    func writeFailureSaidOnce() throws {
        let device = PipeDevice(time: Self.start)
        let log = CloneLog()
        let failure = UinputAccessError.stopped(.share(device: "/dev/input/event9"), reason: "Input/output error")
        let share = try Self.share(device, RecordingClone(log, failing: failure))
        #expect(share.start())
        defer { share.stop() }
        let packets = [Self.land(1, at: 100), Self.move(to: 1100, at: 100.01), Self.lift(1, at: 100.02)]
        var taken = Taken()
        for (i, packet) in packets.enumerated() {
            device.send(packet)
            share.take(into: &taken) { $0.records.count == Self.bytes(Array(packets[...i])).count }
        }
        #expect(taken.records == Self.bytes(packets))
        #expect(taken.news == [.cloneWriteFailed(failure)])
    }
}
