import GestureCore
@testable import GestureInput
import Testing

/// After SYN_DROPPED, a live device read through libevdev gives its state as
/// the kernel has it, then one SYN_REPORT (DropRecovery.kernelState): touches
/// in progress are cancelled, fingers still down are ignored until they lift,
/// and the next stroke is exact.
@Suite("SYN_DROPPED on a live device: the kernel's state, then exact strokes")
struct DropRecoveryTests {
    /// A protocol-B device at 10 units/mm read as libevdev delivers it.
    struct Device {
        var assembler: SlotAssembler
        var frames: [TouchFrame] = []
        var t = 0.0

        init(slots: Int = 10, recovery: DropRecovery = .kernelState) {
            assembler = SlotAssembler(converter: UnitConverter(device: nil, override: (x: 10, y: 10), transform: .identity))
            assembler.slotCount = slots
            assembler.dropRecovery = recovery
        }

        mutating func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            var out: [TouchFrame] = []
            assembler.handle(EvdevEvent(time: t, type: type, code: code, value: value)) { out.append($0) }
            frames += out
        }
        mutating func slot(_ n: Int32) { send(EV.abs, ABS.mtSlot, n) }
        mutating func id(_ n: Int32) { send(EV.abs, ABS.mtTrackingID, n) }
        mutating func at(_ x: Int32, _ y: Int32) {
            send(EV.abs, ABS.mtPositionX, x)
            send(EV.abs, ABS.mtPositionY, y)
        }
        mutating func report() {
            send(EV.syn, SYN.report, 0)
            t += 0.01
        }
        mutating func dropped() { send(EV.syn, SYN.dropped, 0) }

        /// A clean two-finger stroke in slots 0 and 1 with new tracking ids.
        mutating func twoFingerStroke(ids: (Int32, Int32), dx: Int32, steps: Int = 10) {
            slot(0); id(ids.0); at(500, 500)
            slot(1); id(ids.1); at(500, 800)
            report()
            for step in 1...steps {
                let x = 500 + dx * Int32(step) / Int32(steps)
                slot(0); send(EV.abs, ABS.mtPositionX, x)
                slot(1); send(EV.abs, ABS.mtPositionX, x)
                report()
            }
            slot(0); id(-1)
            slot(1); id(-1)
            report()
        }

        /// Touches the core would still have down: those of the last frame
        /// that did not end there.
        var stillDown: [Int] {
            (frames.last?.touches ?? []).filter { $0.phase != .ended && $0.phase != .cancelled }.map(\.id)
        }

        /// Every change of a touch from frame `index` on, as "id:phase".
        func touches(from index: Int = 0) -> [String] {
            frames[index...].flatMap { $0.touches.filter { $0.phase != .stationary }.map { "\($0.id):\($0.phase)" } }
        }
    }

    @Test("touches in progress are cancelled at the drop; the kernel's state moves nothing; the next stroke is exact")
    func cancelThenExact() {
        var d = Device()
        d.slot(0); d.id(10); d.at(300, 300)
        d.slot(1); d.id(11); d.at(300, 600)
        d.report()
        d.slot(0); d.send(EV.abs, ABS.mtPositionX, 320)
        d.report()
        d.dropped()
        // The kernel's state: slot 0's finger moved on, slot 1's lifted.
        d.slot(0); d.send(EV.abs, ABS.mtPositionX, 900)
        d.slot(1); d.id(-1)
        d.send(EV.syn, SYN.report, 0)
        let afterDrop = d.frames.count
        d.t += 0.01
        // Slot 0's finger goes on moving, then lifts: still ignored.
        d.slot(0); d.send(EV.abs, ABS.mtPositionX, 950)
        d.report()
        d.slot(0); d.id(-1)
        d.report()
        let beforeStroke = d.frames.count
        d.twoFingerStroke(ids: (12, 13), dx: 400)

        #expect(d.touches().prefix(5) == ["1:began", "2:began", "1:moved", "1:cancelled", "2:cancelled"])
        #expect(d.touches(from: afterDrop).allSatisfy { !$0.hasPrefix("1:") && !$0.hasPrefix("2:") })
        let stroke = d.frames[beforeStroke...].flatMap(\.touches)
        #expect(Set(stroke.map(\.id)).count == 2)
        #expect(stroke.filter { $0.phase == .began }.count == 2)
        #expect(stroke.filter { $0.phase == .ended }.count == 2)
        #expect(stroke.filter { $0.phase == .cancelled }.isEmpty)
        // The stroke starts where its own events put it, not where the old finger was.
        let began = stroke.filter { $0.phase == .began }.map(\.position)
        #expect(began.contains(Vector(50, 50)) && began.contains(Vector(50, 80)))
        let ended = d.frames[beforeStroke...].last { !$0.touches.isEmpty }
        #expect(ended?.touches.allSatisfy { $0.position.x == 90 } == true)
        d.report()
        #expect(d.stillDown.isEmpty)
        // The drop's note, once.
        #expect(d.assembler.takeAnomalies() == [AssemblyAnomaly.eventsDropped.message])
    }

    @Test("a lift in the packet the drop cut off: that contact is cancelled too, and no touch stays down", arguments: [DropRecovery.kernelState, .skipToReport])
    func liftCutOff(_ recovery: DropRecovery) {
        var d = Device(recovery: recovery)
        d.slot(0); d.id(1); d.at(100, 100)
        d.slot(1); d.id(2); d.at(300, 100)
        d.report()
        // Slot 0 lifts; the drop comes before the packet's SYN_REPORT.
        d.slot(0); d.id(-1)
        d.dropped()
        if recovery == .kernelState { d.slot(1); d.id(-1) }
        d.send(EV.syn, SYN.report, 0)
        d.t += 0.01
        if recovery == .skipToReport {
            d.slot(1); d.id(-1)
            d.report()
        }
        d.report()
        #expect(d.touches() == ["1:began", "2:began", "1:cancelled", "2:cancelled"])
        #expect(d.stillDown.isEmpty, "\(d.frames.last?.touches ?? [])")
    }

    @Test("a finger that landed during the drop is ignored until it lifts; its slot then serves a new finger")
    func landedDuringDrop() {
        var d = Device()
        d.dropped()
        d.slot(2); d.id(40); d.at(100, 100)
        d.send(EV.syn, SYN.report, 0)
        d.t += 0.01
        for x: Int32 in [150, 200, 250] {
            d.slot(2); d.send(EV.abs, ABS.mtPositionX, x)
            d.report()
        }
        d.slot(2); d.id(-1)
        d.report()
        #expect(d.touches().isEmpty)
        d.slot(2); d.id(41); d.at(700, 700)
        d.report()
        d.slot(2); d.id(-1)
        d.report()
        #expect(d.touches().map { $0.split(separator: ":")[1] } == ["began", "ended"])
        #expect(d.assembler.takeAnomalies() == [AssemblyAnomaly.eventsDropped.message])
    }

    @Test("a finger that lifted and landed again in its slot during the drop is one new, ignored finger; no lift is missed")
    func replacedDuringDrop() {
        var d = Device()
        d.slot(0); d.id(5); d.at(100, 100)
        d.report()
        d.dropped()
        // libevdev ends the old touch and reports the new one in the same state.
        d.slot(0); d.id(-1); d.id(6); d.at(600, 600)
        d.send(EV.syn, SYN.report, 0)
        d.t += 0.01
        d.slot(0); d.send(EV.abs, ABS.mtPositionY, 650)
        d.report()
        d.slot(0); d.id(-1)
        d.report()
        d.twoFingerStroke(ids: (7, 8), dx: -300)
        let phases = d.touches()
        #expect(phases.first == "1:began")
        #expect(phases.filter { $0.hasPrefix("1:") } == ["1:began", "1:cancelled"])
        #expect(phases.filter { $0.hasSuffix(":ended") }.count == 2)
        // No repair notes: the state was read, nothing was guessed.
        #expect(d.assembler.takeAnomalies() == [AssemblyAnomaly.eventsDropped.message])
    }

    @Test("a single-touch device: the contact is cancelled and ignored until BTN_TOUCH is released")
    func singleTouch() {
        var d = Device()
        d.send(EV.abs, ABS.x, 100); d.send(EV.abs, ABS.y, 100); d.send(EV.key, BTN.touch, 1)
        d.report()
        d.dropped()
        d.send(EV.abs, ABS.x, 400)
        d.send(EV.syn, SYN.report, 0)
        d.t += 0.01
        d.send(EV.abs, ABS.x, 450)
        d.report()
        d.send(EV.key, BTN.touch, 0)
        d.report()
        d.send(EV.abs, ABS.x, 200); d.send(EV.key, BTN.touch, 1)
        d.report()
        d.send(EV.key, BTN.touch, 0)
        d.report()
        #expect(d.touches() == ["1:began", "1:cancelled", "2:began", "2:ended"])
    }

    @Test("protocol A: the contacts of the first packet after the drop are ignored while they last")
    func protocolA() {
        var d = Device()
        func packet(_ contacts: [(Int32, Int32)]) {
            for (x, y) in contacts {
                d.send(EV.abs, ABS.mtPositionX, x)
                d.send(EV.abs, ABS.mtPositionY, y)
                d.send(EV.syn, SYN.mtReport, 0)
            }
            d.report()
        }
        packet([(100, 100)])
        packet([(110, 100)])
        d.dropped()
        d.send(EV.syn, SYN.report, 0)
        packet([(400, 100)])
        packet([(420, 100)])
        packet([])
        packet([(800, 800)])
        packet([])
        #expect(d.touches() == ["1:began", "1:moved", "1:cancelled", "3:began", "3:ended"])
    }

    @Test("a recording's SYN_DROPPED skips the cut-off packet; a finger still down afterwards is ignored, and lifting it is no anomaly")
    func recording() {
        var d = Device(recovery: .skipToReport)
        d.slot(0); d.id(1); d.at(100, 100)
        d.report()
        d.dropped()
        d.slot(0); d.send(EV.abs, ABS.mtPositionX, 999)
        d.report()
        d.slot(0); d.send(EV.abs, ABS.mtPositionX, 300)
        d.report()
        d.slot(0); d.id(-1)
        d.report()
        d.slot(0); d.id(2); d.at(500, 500)
        d.report()
        d.slot(0); d.id(-1)
        d.report()
        #expect(d.touches() == ["1:began", "1:cancelled", "2:began", "2:ended"])
        #expect(d.assembler.takeAnomalies() == [AssemblyAnomaly.eventsDropped.message])
    }
}
