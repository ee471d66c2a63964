import Glibc
@testable import GestureEngine
import GestureCore
import GestureInput
import Testing

/// A shared mouse's thread, with a pipe for the mouse and a recorder for its
/// clone: what the desktop gets for a click, a stroke the rules claim and one
/// they let go, and the stroke's path handed to the engine.
@Suite("A shared mouse's thread, driven through a pipe")
struct MouseShareWorkerTests {
    static func share(_ device: PipeDevice, _ log: CloneLog) throws -> DeviceShare {
        try DeviceShare(reading: device, path: "pipe", description: EvdevDescription(name: "pipe mouse"), clone: RecordingClone(log), node: nil,
                        gate: MouseShareGate(settings: MouseStrokeGate.Settings()))
    }

    static func packet(at time: Double, _ events: [(UInt16, UInt16, Int32)]) -> [EvdevEvent] {
        (events + [(EV.syn, SYN.report, 0)]).map { EvdevEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
    }

    /// The clone's right button, press by release, as written.
    static func rightButton(_ log: CloneLog) -> [Int32] {
        log.all.filter { $0.type == EV.key && $0.code == BTN.right }.map(\.value)
    }

    /// A right-button stroke left, 40 mm at 1000 dpi, let go: its packets.
    static func strokeLeft(from t: Double) -> [[EvdevEvent]] {
        [packet(at: t, [(EV.key, BTN.right, 1)])] + (1...8).map { packet(at: t + 0.01 * Double($0), [(EV.rel, REL.x, -200)]) }
            + [packet(at: t + 0.1, [(EV.key, BTN.right, 0)])]
    }

    @Test("a right click reaches the clone as one press and one release, and the engine hears of no stroke")
    func click() throws {
        let device = PipeDevice(time: 100)
        let log = CloneLog()
        let share = try Self.share(device, log)
        #expect(share.isMouse)
        #expect(share.start())
        defer { share.stop() }
        device.send(Self.packet(at: 100, [(EV.key, BTN.right, 1)]))
        device.send(Self.packet(at: 100.08, [(EV.key, BTN.right, 0)]))
        #expect(log.wait { Self.rightButton($0) == [1, 0] })
        var taken = Taken()
        share.take(into: &taken) { $0.events.count == 4 }
        #expect(taken.signals.isEmpty)
    }

    @Test("a stroke: the engine gets its path at the release; claimed, the clone never sees the button")
    func claimed() throws {
        let device = PipeDevice(time: 100)
        let log = CloneLog()
        let share = try Self.share(device, log)
        #expect(share.start())
        defer { share.stop() }
        for p in Self.strokeLeft(from: 100) { device.send(p) }
        var taken = Taken()
        share.take(into: &taken) { $0.signals.count == 2 }
        #expect(taken.signals.first == .mouse(.gate(.strokeBegan(button: BTN.right))))
        guard case .mouse(.strokeEnded(BTN.right, let path)) = taken.signals.last else {
            Issue.record("no stroke handed on: \(taken.signals)")
            return
        }
        #expect(try MouseStrokeReading().read(path).get().name == "left")
        share.claim()
        share.take(into: &taken) { $0.signals.count == 3 }
        #expect(taken.signals.last == .mouse(.gate(.claimed(button: BTN.right))))
        device.send(Self.packet(at: 100.2, [(EV.rel, REL.x, 5)]))
        #expect(log.wait { $0.all.contains { $0.type == EV.rel && $0.value == 5 } }, "then live again")
        #expect(Self.rightButton(log).isEmpty, "no button for a claimed stroke")
    }

    @Test("a stroke no rule takes: released, the clone gets the press, the motion and the release as they came")
    func released() throws {
        let device = PipeDevice(time: 100)
        let log = CloneLog()
        let share = try Self.share(device, log)
        #expect(share.start())
        defer { share.stop() }
        let sent = Self.strokeLeft(from: 100)
        for p in sent { device.send(p) }
        var taken = Taken()
        share.take(into: &taken) { $0.signals.count == 2 }
        #expect(log.all.isEmpty, "held while the rules decide")
        share.release()
        #expect(log.wait { Self.rightButton($0) == [1, 0] })
        #expect(log.all.filter { $0.type == EV.rel }.map(\.value) == Array(repeating: -200, count: 8))
    }

    @Test("new settings reach a mouse's gate: with no stroke rule left, a right press reaches the clone at once")
    func update() throws {
        let device = PipeDevice(time: 100)
        let log = CloneLog()
        let share = try Self.share(device, log)
        #expect(share.start())
        defer { share.stop() }
        share.update(.touch(ShareGate.Settings(claimFingers: 3)))
        share.update(.mouse(MouseStrokeGate.Settings(strokeButtons: [])))
        device.send(Self.packet(at: 100, [(EV.key, BTN.right, 1)]))
        #expect(log.wait { Self.rightButton($0) == [1] })
        share.stop()
        #expect(Self.rightButton(log) == [1, 0], "stopping leaves no button down")
    }
}
