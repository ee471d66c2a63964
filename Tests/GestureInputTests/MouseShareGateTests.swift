import GestureCore
import Testing
@testable import GestureInput

@Suite("A shared mouse's gate hands a stroke's path on once, at the stroke button's release")
struct MouseShareGateTests {
    /// Sends packets at 8 ms apart from t = 1; the signals said.
    static func send(_ packets: [[(UInt16, UInt16, Int32)]], through gate: inout MouseShareGate, out: inout [EvdevEvent]) -> [MouseShareGate.Signal] {
        var signals: [MouseShareGate.Signal] = []
        for (i, packet) in packets.enumerated() {
            for (type, code, value) in packet + [(EV.syn, SYN.report, 0)] {
                gate.handle(EvdevEvent(time: 1 + Double(i) * 0.008, type: type, code: code, value: value), into: &out, signals: &signals)
            }
        }
        return signals
    }

    @Test("a stroke drawn left then up at 1000 dpi: its path in millimetres from the press, handed on at the release and not again")
    func strokePath() throws {
        var gate = MouseShareGate(settings: MouseStrokeGate.Settings())
        var out: [EvdevEvent] = []
        let left = [[(EV.rel, REL.x, Int32(-200))]] + Array(repeating: [(EV.rel, REL.x, Int32(-200))], count: 4)
        let up = Array(repeating: [(EV.rel, REL.y, Int32(-200))], count: 5)
        let signals = Self.send([[(EV.key, BTN.right, 1)]] + left + up + [[(EV.key, BTN.right, 0)]] + [[(EV.rel, REL.x, 3)]], through: &gate, out: &out)
        #expect(signals.first == .gate(.strokeBegan(button: BTN.right)))
        guard case .strokeEnded(let button, let path) = try #require(signals.last) else {
            Issue.record("the release should hand the stroke on: \(signals)")
            return
        }
        #expect(signals.count == 2)
        #expect(button == BTN.right)
        #expect(path.count == 12, "the press, ten moves and the release")
        let end = try #require(path.last)
        #expect(abs(end.x - -25.4) < 1e-9 && abs(end.y - -25.4) < 1e-9, "1000 counts are 25.4 mm: \(end)")
        #expect(path.first?.x == 0 && path.first?.time == 1)
        #expect(out.isEmpty, "the clone has nothing of it until the rules answer")
        #expect(try MouseStrokeReading().read(path).get().name == "left-up")
    }

    @Test("a click hands on nothing and reaches the clone at once")
    func click() {
        var gate = MouseShareGate(settings: MouseStrokeGate.Settings())
        var out: [EvdevEvent] = []
        let signals = Self.send([[(EV.key, BTN.right, 1)], [(EV.rel, REL.x, 2)], [(EV.key, BTN.right, 0)]], through: &gate, out: &out)
        #expect(signals.isEmpty)
        #expect(out.filter { $0.type == EV.key }.map(\.value) == [1, 0])
    }

    @Test("counts are millimetres at the mouse's own resolution: 800 dpi makes 800 counts 25.4 mm")
    func resolution() throws {
        var gate = MouseShareGate(settings: MouseStrokeGate.Settings(countsPerMillimetre: 800 / 25.4))
        var out: [EvdevEvent] = []
        let signals = Self.send([[(EV.key, BTN.right, 1)]] + Array(repeating: [(EV.rel, REL.x, Int32(100))], count: 8) + [[(EV.key, BTN.right, 0)]],
                                through: &gate, out: &out)
        guard case .strokeEnded(_, let path) = try #require(signals.last) else {
            Issue.record("no stroke: \(signals)")
            return
        }
        #expect(abs((path.last?.x ?? 0) - 25.4) < 1e-9)
    }
}

extension MouseShareGateTests {
    @Test("a second stroke is handed on as the first was, even stamped with the same times (a clock that went back)")
    func secondStroke() {
        var gate = MouseShareGate(settings: MouseStrokeGate.Settings())
        var out: [EvdevEvent] = []
        let stroke: [[(UInt16, UInt16, Int32)]] = [[(EV.key, BTN.right, 1)]] + Array(repeating: [(EV.rel, REL.x, Int32(-200))], count: 5) + [[(EV.key, BTN.right, 0)]]
        var ended = 0
        for _ in 0..<2 {
            for signal in Self.send(stroke, through: &gate, out: &out) {
                if case .strokeEnded = signal { ended += 1 }
            }
            gate.release(into: &out)
        }
        #expect(ended == 2)
    }
}
