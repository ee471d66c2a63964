import Testing
@testable import GestureInput

/// A keyboard modifier with the wheel, at the gate: the engine says which
/// modifiers are held, and the gate withholds the notches a rule claims with
/// exactly those, every part of them, and says so once a notch.
@Suite("A shared mouse's gate: modifiers held with the wheel")
struct MouseModifierWheelTests {
    static let ctrl: UInt8 = 1
    static let shift: UInt8 = 2
    static let ctrlUp = ModifierWheel(modifiers: ctrl, turn: .up)

    /// A gate claiming ctrl + wheel up, its packets, and what it wrote and said.
    struct Gate {
        var gate = MouseStrokeGate(settings: MouseStrokeGate.Settings(modifierWheels: [MouseModifierWheelTests.ctrlUp]))
        var written: [EvdevEvent] = []
        var signals: [MouseStrokeGate.Signal] = []
        var time = 1.0

        mutating func send(_ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events + [(EV.syn, SYN.report, 0)] {
                gate.handle(EvdevEvent(time: time, type: type, code: code, value: value), into: &written, signals: &signals)
            }
            time += 0.01
        }

        /// A notch as a high-resolution wheel sends it: three parts, the last with the classic notch.
        mutating func notch(_ sign: Int32, code: UInt16 = REL.wheel, fine: UInt16 = REL.wheelHiRes) {
            send([(EV.rel, fine, sign * 40)])
            send([(EV.rel, fine, sign * 40)])
            send([(EV.rel, code, sign), (EV.rel, fine, sign * 40)])
        }

        var wheelWritten: [Int32] { written.filter { $0.type == EV.rel && $0.code == REL.wheel }.map(\.value) }
        var fineWritten: Int { written.filter { $0.type == EV.rel && $0.code == REL.wheelHiRes }.count }
    }

    @Test("ctrl held: a notch up reaches the clone not at all, and is said once, however many parts it came in")
    func claimed() {
        var g = Gate()
        g.gate.holdModifiers(Self.ctrl)
        g.notch(1)
        #expect(g.written.isEmpty, "no packet at all: the notch was all the packets had")
        #expect(g.signals == [.modifierWheel(Self.ctrlUp)])
        g.notch(1)
        #expect(g.signals == [.modifierWheel(Self.ctrlUp), .modifierWheel(Self.ctrlUp)])
    }

    @Test("ctrl held: a notch down, which no rule claims, reaches the clone whole; so does the motion beside a claimed notch")
    func unclaimedPasses() {
        var g = Gate()
        g.gate.holdModifiers(Self.ctrl)
        g.notch(-1)
        #expect(g.wheelWritten == [-1] && g.fineWritten == 3)
        #expect(g.signals.isEmpty)
        g.send([(EV.rel, REL.x, 7), (EV.rel, REL.wheel, 1), (EV.rel, REL.wheelHiRes, 120)])
        #expect(g.written.suffix(2).map(\.value) == [7, 0], "the motion and its report, without the wheel")
        #expect(g.signals == [.modifierWheel(Self.ctrlUp)])
    }

    @Test("the notch up passes with no modifier held, with ctrl and shift (the rule asks for exactly ctrl), and after ctrl is let go")
    func exactlyTheseModifiers() {
        var g = Gate()
        g.notch(1)
        g.gate.holdModifiers(Self.ctrl | Self.shift)
        g.notch(1)
        g.gate.holdModifiers(Self.ctrl)
        g.notch(1)
        g.gate.holdModifiers(0)
        g.notch(1)
        #expect(g.wheelWritten == [1, 1, 1])
        #expect(g.signals == [.modifierWheel(Self.ctrlUp)])
    }

    @Test("a mouse button held (not a stroke button): the notch with ctrl is still the rule's; the button reaches the clone as it came")
    func beside() {
        var g = Gate()
        g.gate.holdModifiers(Self.ctrl)
        g.send([(EV.key, BTN.left, 1)])
        g.notch(1)
        g.send([(EV.key, BTN.left, 0)])
        #expect(g.written.filter { $0.type == EV.key }.map(\.value) == [1, 0])
        #expect(g.wheelWritten.isEmpty)
        #expect(g.signals == [.modifierWheel(Self.ctrlUp)])
    }

    @Test("the horizontal wheel: ctrl + wheel left is claimed on its own; a rule for up takes nothing from it")
    func horizontal() {
        var g = Gate()
        g.gate.update(MouseStrokeGate.Settings(modifierWheels: [ModifierWheel(modifiers: Self.ctrl, turn: .left)]))
        g.gate.holdModifiers(Self.ctrl)
        g.notch(-1, code: REL.hwheel, fine: REL.hwheelHiRes)
        g.notch(1)
        #expect(g.signals == [.modifierWheel(ModifierWheel(modifiers: Self.ctrl, turn: .left))])
        #expect(g.wheelWritten == [1])
        #expect(!g.written.contains { $0.code == REL.hwheel || $0.code == REL.hwheelHiRes })
    }
}
