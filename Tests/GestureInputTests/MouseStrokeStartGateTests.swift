import Testing
import GestureCore
@testable import GestureInput

/// The gate lets a stroke go as a drag once its first arm is clearly none the
/// rules start with; a stroke that starts as a rule's is held to its end.
@Suite("A shared mouse's gate lets a drag go once its start is no rule's")
struct MouseStrokeStartGateTests {
    static let settings = MouseStrokeGate.Settings(strokeStarts: [BTN.right: StrokeStart(arms: [.left, .right], eightWay: false)])

    /// Right pressed at 1 s, then `packets` packets of (dx, dy) counts 8 ms apart, not let go.
    static func drag(_ gate: inout MouseStrokeGate, dx: Int32, dy: Int32, packets: Int) -> (written: [EvdevEvent], signals: [MouseStrokeGate.Signal]) {
        var out: [EvdevEvent] = []
        var signals: [MouseStrokeGate.Signal] = []
        func send(_ time: Double, _ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events + [(EV.syn, SYN.report, 0)] {
                gate.handle(EvdevEvent(time: time, type: type, code: code, value: value), into: &out, signals: &signals)
            }
        }
        send(1, [(EV.key, BTN.right, 1)])
        for i in stride(from: 1, through: packets, by: 1) { send(1 + 0.008 * Double(i), [(EV.rel, REL.x, dx), (EV.rel, REL.y, dy)]) }
        return (out, signals)
    }

    @Test("a drag straight down with only left and right rules: the press and the motion so far reach the clone once it is 5 mm down, then the rest live")
    func dragDownLetGo() {
        var gate = MouseStrokeGate(settings: Self.settings)
        // 8 counts a packet at 1000 dpi: 0.2 mm; 5 mm after 25 packets.
        let (written, signals) = Self.drag(&gate, dx: 0, dy: 8, packets: 40)
        #expect(signals == [.strokeBegan(button: BTN.right), .strokeLetGo(button: BTN.right, start: .down)])
        #expect(gate.phase == .idle)
        let press = written.firstIndex { $0.type == EV.key && $0.code == BTN.right && $0.value == 1 }
        #expect(press == 0, "the press first")
        #expect(written.filter { $0.type == EV.rel && $0.code == REL.y }.count == 40, "every packet's motion, as it came")
        // All at once at the packet that reached 5 mm (the 25th), then one packet at a time.
        #expect(signals.count == 2)
        var second = MouseStrokeGate(settings: Self.settings)
        let upTo25 = Self.drag(&second, dx: 0, dy: 8, packets: 25)
        #expect(upTo25.written.filter { $0.type == EV.rel && $0.code == REL.y }.count == 25)
        var third = MouseStrokeGate(settings: Self.settings)
        #expect(Self.drag(&third, dx: 0, dy: 8, packets: 24).written.isEmpty, "held at 4.8 mm")
    }

    @Test("the same drag with no starts known (a rule of any direction): held until the release, as before")
    func heldWithoutStarts() {
        var gate = MouseStrokeGate(settings: MouseStrokeGate.Settings())
        let (written, signals) = Self.drag(&gate, dx: 0, dy: 8, packets: 40)
        #expect(written.isEmpty)
        #expect(signals == [.strokeBegan(button: BTN.right)])
    }

    @Test("a stroke starting left, as a rule's does, is held whole even when it turns down after")
    func boundStartHeld() {
        var gate = MouseStrokeGate(settings: Self.settings)
        var (written, signals) = Self.drag(&gate, dx: -8, dy: 0, packets: 40)
        var out: [EvdevEvent] = []
        for i in 1...40 {
            for e in [EvdevEvent(time: 2 + 0.008 * Double(i), type: EV.rel, code: REL.y, value: 8), EvdevEvent(time: 2 + 0.008 * Double(i), type: EV.syn, code: SYN.report, value: 0)] {
                gate.handle(e, into: &out, signals: &signals)
            }
        }
        written += out
        #expect(written.isEmpty)
        #expect(signals == [.strokeBegan(button: BTN.right)])
    }
}
