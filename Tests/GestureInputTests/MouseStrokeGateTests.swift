import Testing
@testable import GestureInput

/// A mouse's packets, as the kernel sends them, through the gate; what the
/// clone was written, and the buttons it holds after it.
struct GateMouse {
    var time = 1.0
    var gate: MouseStrokeGate
    var written: [EvdevEvent] = []
    var signals: [MouseStrokeGate.Signal] = []
    /// The clone's buttons as the kernel would hold them from what was written.
    var cloneDown: Set<UInt16> = []

    init(_ settings: MouseStrokeGate.Settings = MouseStrokeGate.Settings(), state: [EvdevEvent] = []) {
        gate = MouseStrokeGate(settings: settings, state: state)
    }

    /// Sends one packet; returns it as sent, its SYN_REPORT included.
    @discardableResult
    mutating func send(_ events: [(UInt16, UInt16, Int32)], after gap: Double = 0.008) -> [EvdevEvent] {
        var packet = events.map { EvdevEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
        packet.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0))
        for e in packet {
            var out: [EvdevEvent] = []
            gate.handle(e, into: &out, signals: &signals)
            take(out)
        }
        time += gap
        return packet
    }

    @discardableResult mutating func press(_ button: UInt16) -> [EvdevEvent] {
        send([(EV.msc, 4, 0x90001), (EV.key, button, 1)])
    }

    @discardableResult mutating func letGo(_ button: UInt16) -> [EvdevEvent] {
        send([(EV.msc, 4, 0x90001), (EV.key, button, 0)])
    }

    /// `packets` packets of motion; returns them as sent.
    @discardableResult mutating func move(dx: Int32, dy: Int32, packets: Int = 1) -> [EvdevEvent] {
        var sent: [EvdevEvent] = []
        for _ in 0..<packets { sent += send([(EV.rel, REL.x, dx), (EV.rel, REL.y, dy)].filter { $0.2 != 0 }) }
        return sent
    }

    @discardableResult mutating func wheel(_ notches: Int32) -> [EvdevEvent] {
        send([(EV.rel, REL.wheel, notches), (EV.rel, REL.wheelHiRes, notches * 120)])
    }

    mutating func wait(_ seconds: Double) {
        time += seconds
        var out: [EvdevEvent] = []
        if let s = gate.expire(at: time, into: &out) { signals.append(s) }
        take(out)
    }

    mutating func claim() {
        var out: [EvdevEvent] = []
        if let s = gate.claim(into: &out) { signals.append(s) }
        take(out)
    }

    mutating func release() {
        var out: [EvdevEvent] = []
        gate.release(into: &out)
        take(out)
    }

    mutating func end() {
        var out: [EvdevEvent] = []
        gate.end(into: &out)
        take(out)
    }

    mutating func take(_ out: [EvdevEvent]) {
        if let last = out.last { #expect(last.type == EV.syn && last.code == SYN.report, "a write ends its packet") }
        for e in out where e.type == EV.key {
            if e.value != 0 {
                #expect(!cloneDown.contains(e.code), "a press of a button the clone holds: \(e)")
                cloneDown.insert(e.code)
            } else {
                #expect(cloneDown.contains(e.code), "a release of a button the clone does not hold: \(e)")
                cloneDown.remove(e.code)
            }
        }
        written += out
    }
}

/// 1000 dpi: the default threshold (16 counts) is 0.41 mm.
private let settings = MouseStrokeGate.Settings()

@Suite("A shared mouse: what its clone gets around the stroke button")
struct MouseStrokeGateTests {
    @Test("with no stroke bound, every packet reaches the clone as it came")
    func nothingBound() {
        var mouse = GateMouse(MouseStrokeGate.Settings(strokeButtons: []))
        var sent = mouse.press(BTN.right)
        sent += mouse.move(dx: 40, dy: 0, packets: 3)
        sent += mouse.letGo(BTN.right)
        sent += mouse.wheel(-1)
        #expect(mouse.written == sent)
        #expect(mouse.signals.isEmpty && mouse.cloneDown.isEmpty && mouse.gate.deadline == nil)
    }

    @Test("a right click under the threshold: held back, then press, motion and release at once, as they came")
    func click() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.right)
        sent += mouse.move(dx: 3, dy: -2, packets: 3)
        #expect(mouse.written.isEmpty, "the press waits while a stroke may come")
        #expect(mouse.gate.deadline == 1.0 + MouseStrokeGate.defaultTimeout)
        sent += mouse.letGo(BTN.right)
        #expect(mouse.written == sent)
        #expect(mouse.gate.phase == .idle && mouse.cloneDown.isEmpty && mouse.signals.isEmpty)
        let next = mouse.move(dx: 5, dy: 5)
        #expect(Array(mouse.written.suffix(next.count)) == next, "then live again")
    }

    @Test("held still past the timeout: the press reaches the clone then, and the rest live, a drag as it came")
    func heldStill() {
        var mouse = GateMouse(settings)
        let press = mouse.press(BTN.right)
        mouse.wait(0.2)
        #expect(mouse.written.isEmpty)
        mouse.wait(0.05)
        #expect(mouse.written == press)
        #expect(mouse.gate.phase == .idle && mouse.cloneDown == [BTN.right])
        let drag = mouse.move(dx: 30, dy: 0, packets: 4)
        let up = mouse.letGo(BTN.right)
        #expect(mouse.written == press + drag + up)
        #expect(mouse.signals.isEmpty, "no stroke: the timeout came first")
        #expect(mouse.cloneDown.isEmpty)
    }

    @Test("moved past the threshold: a stroke begins; claimed, the desktop sees no button and the pointer stays until the button is up")
    func claimedStroke() {
        var mouse = GateMouse(settings)
        mouse.press(BTN.right)
        mouse.move(dx: -8, dy: 0)
        #expect(mouse.signals.isEmpty)
        mouse.move(dx: -8, dy: 0)
        #expect(mouse.signals == [.strokeBegan(button: BTN.right)], "16 counts at 1000 dpi are the threshold")
        mouse.move(dx: -20, dy: 0, packets: 5)
        mouse.claim()
        #expect(mouse.signals.last == .claimed(button: BTN.right))
        mouse.move(dx: -20, dy: 0, packets: 5)
        mouse.letGo(BTN.right)
        #expect(mouse.written.isEmpty, "nothing of the claimed stroke: \(mouse.written)")
        let after = mouse.move(dx: 3, dy: 1)
        #expect(mouse.written == after)
        #expect(mouse.gate.phase == .idle && mouse.cloneDown.isEmpty)
    }

    @Test("a stroke the recognizers let go: the desktop gets the press late, the motion held, and everything after it live: a drag")
    func releasedStroke() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.right)
        sent += mouse.move(dx: 0, dy: 12, packets: 3)
        #expect(mouse.signals == [.strokeBegan(button: BTN.right)] && mouse.written.isEmpty)
        mouse.release()
        #expect(mouse.written == sent)
        #expect(mouse.cloneDown == [BTN.right])
        sent += mouse.move(dx: 0, dy: 12, packets: 3)
        sent += mouse.letGo(BTN.right)
        #expect(mouse.written == sent)
        #expect(mouse.cloneDown.isEmpty)
    }

    @Test("a stroke that rests undecided for the timeout goes to the desktop as a drag, and says so")
    func restingStroke() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.right)
        sent += mouse.move(dx: 20, dy: 0, packets: 2)
        let lastMotion = mouse.time - 0.008
        #expect(mouse.gate.deadline == lastMotion + MouseStrokeGate.defaultTimeout, "a moving stroke keeps waiting")
        mouse.wait(0.24)
        #expect(mouse.written.isEmpty)
        mouse.wait(0.02)
        #expect(mouse.written == sent)
        #expect(mouse.signals == [.strokeBegan(button: BTN.right), .strokeForwarded(button: BTN.right)])
        mouse.claim()
        #expect(mouse.signals.count == 2, "too late to claim: the desktop has it")
    }

    @Test("a stroke let go before the decision waits whole; claimed then, only the motion after the release reaches the clone")
    func letGoThenClaimed() {
        var mouse = GateMouse(settings)
        mouse.press(BTN.right)
        mouse.move(dx: 30, dy: 30, packets: 3)
        mouse.letGo(BTN.right)
        let after = mouse.move(dx: 2, dy: 0, packets: 2)
        #expect(mouse.written.isEmpty)
        mouse.claim()
        #expect(mouse.written == after)
        #expect(mouse.cloneDown.isEmpty && mouse.gate.phase == .idle)
    }

    @Test("a stroke let go before the decision and then released: press, motion and release at once, as they came")
    func letGoThenReleased() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.right)
        sent += mouse.move(dx: 30, dy: 30, packets: 3)
        sent += mouse.letGo(BTN.right)
        #expect(mouse.gate.deadline == mouse.time - 0.008 + MouseStrokeGate.defaultTimeout, "the release starts the last wait")
        mouse.release()
        #expect(mouse.written == sent)
        #expect(mouse.cloneDown.isEmpty)
    }

    @Test("the left button, the wheel and the motion between pass untouched when no chord is bound")
    func othersPass() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.left)
        sent += mouse.move(dx: 50, dy: 10, packets: 3)
        sent += mouse.letGo(BTN.left)
        sent += mouse.wheel(2)
        sent += mouse.press(BTN.middle)
        sent += mouse.letGo(BTN.middle)
        #expect(mouse.written == sent && mouse.signals.isEmpty)
    }

    @Test("a claimed rocker, left then right: the left's press is held, the chord is gesturemap's, and the desktop sees neither button")
    func claimedRocker() {
        let rocker = MouseChord(held: BTN.left, then: .button(BTN.right))
        var mouse = GateMouse(MouseStrokeGate.Settings(claimedChords: [rocker]))
        mouse.press(BTN.left)
        #expect(mouse.written.isEmpty)
        mouse.press(BTN.right)
        #expect(mouse.signals == [.chord(rocker, claimed: true)])
        mouse.move(dx: 40, dy: 0)
        mouse.letGo(BTN.right)
        mouse.letGo(BTN.left)
        #expect(mouse.written.isEmpty, "\(mouse.written)")
        #expect(mouse.gate.phase == .idle)
        let click = mouse.press(BTN.left) + mouse.letGo(BTN.left)
        #expect(mouse.written == click, "a left click alone is still a click, at its release")
    }

    @Test("a claimed rocker's lead let go alone is a click, and moved is a drag: both reach the clone as they came")
    func rockerLeadAlone() {
        let rocker = MouseChord(held: BTN.left, then: .button(BTN.right))
        var mouse = GateMouse(MouseStrokeGate.Settings(claimedChords: [rocker]))
        var sent = mouse.press(BTN.left)
        sent += mouse.move(dx: 10, dy: 0)
        sent += mouse.move(dx: 10, dy: 0)
        #expect(mouse.written == sent, "a left drag starts at the threshold, no stroke")
        sent += mouse.move(dx: 10, dy: 0)
        sent += mouse.letGo(BTN.left)
        #expect(mouse.written == sent && mouse.signals.isEmpty)
    }

    @Test("a watched rocker is reported, not withheld: the desktop gets both buttons")
    func watchedRocker() {
        let rocker = MouseChord(held: BTN.left, then: .button(BTN.right))
        var mouse = GateMouse(MouseStrokeGate.Settings(watchedChords: [rocker]))
        var sent = mouse.press(BTN.left)
        sent += mouse.press(BTN.right)
        sent += mouse.letGo(BTN.right)
        sent += mouse.letGo(BTN.left)
        #expect(mouse.written == sent)
        #expect(mouse.signals == [.chord(rocker, claimed: false)])
    }

    @Test("the reverse rocker, right then left, claimed: the stroke button's held press and the left never reach the clone")
    func reverseRocker() {
        let rocker = MouseChord(held: BTN.right, then: .button(BTN.left))
        var mouse = GateMouse(MouseStrokeGate.Settings(claimedChords: [rocker]))
        mouse.press(BTN.right)
        mouse.press(BTN.left)
        mouse.letGo(BTN.left)
        mouse.letGo(BTN.right)
        #expect(mouse.written.isEmpty)
        #expect(mouse.signals == [.chord(rocker, claimed: true)])
    }

    @Test("right + wheel claimed: every notch is reported and withheld, and the right button never reaches the clone")
    func claimedWheelChord() {
        let up = MouseChord(held: BTN.right, then: .wheel(.up))
        var mouse = GateMouse(MouseStrokeGate.Settings(claimedChords: [up]))
        mouse.press(BTN.right)
        mouse.wheel(1)
        mouse.wheel(1)
        mouse.letGo(BTN.right)
        #expect(mouse.written.isEmpty)
        #expect(mouse.signals == [.chord(up, claimed: true), .chord(up, claimed: true)])
        let scroll = mouse.wheel(1)
        #expect(mouse.written == scroll, "the wheel alone scrolls")
    }

    @Test("right + wheel claimed on a high-resolution wheel: a notch comes in four parts of 30, the last with REL_WHEEL; every part is withheld and the chord is said once a notch")
    func claimedHighResolutionWheelChord() {
        let up = MouseChord(held: BTN.right, then: .wheel(.up))
        var mouse = GateMouse(MouseStrokeGate.Settings(claimedChords: [up]))
        mouse.press(BTN.right)
        for _ in 0..<2 {
            for _ in 0..<3 { mouse.send([(EV.rel, REL.wheelHiRes, 30)]) }
            mouse.send([(EV.rel, REL.wheel, 1), (EV.rel, REL.wheelHiRes, 30)])
        }
        mouse.letGo(BTN.right)
        #expect(mouse.written.isEmpty)
        #expect(mouse.signals == [.chord(up, claimed: true), .chord(up, claimed: true)])
    }

    @Test("right + wheel unclaimed ends the hold: the press, then the wheel, as they came")
    func unclaimedWheelChord() {
        var mouse = GateMouse(settings)
        var sent = mouse.press(BTN.right)
        sent += mouse.wheel(-1)
        #expect(mouse.written == sent && mouse.cloneDown == [BTN.right])
        sent += mouse.letGo(BTN.right)
        #expect(mouse.written == sent)
    }

    @Test("end() during a drag lets go of what the clone holds; after a claim it holds nothing and end() writes nothing")
    func endReleases() {
        var dragging = GateMouse(settings)
        dragging.press(BTN.right)
        dragging.wait(0.3)
        dragging.press(BTN.left)
        #expect(dragging.cloneDown == [BTN.right, BTN.left])
        dragging.end()
        #expect(dragging.cloneDown.isEmpty)
        #expect(Array(dragging.written.suffix(3)).map(\.code) == [BTN.left, BTN.right, SYN.report])
        dragging.letGo(BTN.right)
        #expect(dragging.cloneDown.isEmpty, "a release after the end is not written twice")

        var claimed = GateMouse(settings)
        claimed.press(BTN.right)
        claimed.move(dx: 0, dy: -30)
        claimed.claim()
        claimed.end()
        #expect(claimed.written.isEmpty)
    }

    @Test("a button down when sharing begins stays gesturemap's: the desktop never saw it go down, so it never sees it go up")
    func downAtStart() {
        var mouse = GateMouse(settings, state: [EvdevEvent(time: 0, type: EV.key, code: BTN.left, value: 1)])
        mouse.move(dx: 5, dy: 5)
        mouse.letGo(BTN.left)
        #expect(mouse.written.isEmpty)
        let after = mouse.move(dx: 5, dy: 5)
        #expect(mouse.written == after)
    }

    @Test("hostile packets: a release never pressed, a torn packet before SYN_DROPPED, and a held press past its packet limit")
    func hostile() {
        var mouse = GateMouse(settings)
        mouse.letGo(BTN.extra)
        #expect(mouse.written.filter { $0.type == EV.key }.isEmpty, "the clone holds no extra button to let go")
        mouse.written.removeAll()
        var out: [EvdevEvent] = []
        var said: [MouseStrokeGate.Signal] = []
        mouse.gate.handle(EvdevEvent(time: mouse.time, type: EV.key, code: BTN.right, value: 1), into: &out, signals: &said)
        mouse.gate.handle(EvdevEvent(time: mouse.time, type: EV.syn, code: SYN.dropped, value: 0), into: &out, signals: &said)
        let state = mouse.send([])
        #expect(out.isEmpty && mouse.gate.phase == .idle && state.count == 1, "the torn press is gone with the drop")
        mouse.written.removeAll()

        mouse.press(BTN.right)
        for i in 0..<(MouseStrokeGate.maxHeldPackets - 2) { mouse.move(dx: i % 2 == 0 ? 3 : -3, dy: 0) }
        #expect(mouse.written.isEmpty)
        mouse.move(dx: 3, dy: 0)
        #expect(mouse.gate.phase == .idle && mouse.cloneDown == [BTN.right], "the held press went to the desktop")
        #expect(mouse.written.count(where: { $0.type == EV.syn }) == MouseStrokeGate.maxHeldPackets)
    }
}
