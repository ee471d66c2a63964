import Testing
@testable import GestureInput

/// Clicks a rule claims (`{ kind = "click", button = "side" }`): what the clone gets.
@Suite("A shared mouse: a button's click that a rule claims")
struct MouseClickGateTests {
    static let sideClaimed = MouseStrokeGate.Settings(strokeButtons: [BTN.right], claimedClicks: [BTN.side])

    @Test("a claimed side button: said at the press; neither press nor release (nor their MSC_SCAN) reaches the clone, the motion around them does")
    func sideButton() {
        var mouse = GateMouse(Self.sideClaimed)
        mouse.press(BTN.side)
        #expect(mouse.signals == [.click(button: BTN.side)], "the rule runs at the press")
        let moved = mouse.move(dx: 4, dy: 0, packets: 2)
        mouse.letGo(BTN.side)
        #expect(mouse.written == moved, "the clone gets the motion alone")
        #expect(mouse.signals == [.click(button: BTN.side)] && mouse.cloneDown.isEmpty && mouse.gate.phase == .idle)
    }

    @Test("an unclaimed extra button, and a side button already down when the claim came, reach the clone as they came")
    func unclaimed() {
        var mouse = GateMouse(MouseStrokeGate.Settings(strokeButtons: [BTN.right]))
        var sent = mouse.press(BTN.side)
        mouse.gate.update(Self.sideClaimed)
        sent += mouse.letGo(BTN.side)
        sent += mouse.press(BTN.extra)
        sent += mouse.letGo(BTN.extra)
        #expect(mouse.written == sent, "the desktop had the press, so it gets the release")
        #expect(mouse.signals.isEmpty && mouse.cloneDown.isEmpty)
    }

    @Test("a claimed side click while the right button strokes: the stroke goes on, the click is taken")
    func duringStroke() {
        var mouse = GateMouse(Self.sideClaimed)
        mouse.press(BTN.right)
        mouse.move(dx: 10, dy: 0, packets: 3)
        mouse.press(BTN.side)
        mouse.letGo(BTN.side)
        #expect(mouse.signals == [.strokeBegan(button: BTN.right), .click(button: BTN.side)])
        guard case .stroking = mouse.gate.phase else {
            Issue.record("the side click ended the stroke: \(mouse.gate.phase)")
            return
        }
        mouse.letGo(BTN.right)
        mouse.release()
        #expect(!mouse.written.contains { $0.isKey(BTN.side) }, "no side button on the clone")
        #expect(mouse.written.contains { $0.isKey(BTN.right) } && mouse.cloneDown.isEmpty, "the unclaimed stroke reaches the clone, a drag")
    }

    @Test("the stroke button's own click, claimed: taken at the release under the threshold; its motion reaches the clone, the button not; a stroke is still a stroke")
    func strokeButtonClick() {
        var mouse = GateMouse(MouseStrokeGate.Settings(strokeButtons: [BTN.right], claimedClicks: [BTN.right]))
        mouse.press(BTN.right)
        #expect(mouse.signals.isEmpty, "a stroke may still come")
        mouse.move(dx: 1, dy: 0, packets: 1)
        mouse.letGo(BTN.right)
        #expect(mouse.signals == [.click(button: BTN.right)])
        #expect(mouse.written.filter { $0.type != EV.syn } == [EvdevEvent(time: 1.008, type: EV.rel, code: REL.x, value: 1)], "the motion alone")
        #expect(mouse.cloneDown.isEmpty)
        mouse.signals.removeAll()
        mouse.press(BTN.right)
        mouse.move(dx: 20, dy: 0, packets: 3)
        mouse.letGo(BTN.right)
        #expect(mouse.signals == [.strokeBegan(button: BTN.right)], "moved past the threshold: a stroke, no click")
    }

    @Test("a claimed side button that is also a claimed chord's second button: with the chord's first button down it is the chord, alone a click")
    func chordFirst() {
        let rocker = MouseChord(held: BTN.left, then: .button(BTN.side))
        var mouse = GateMouse(MouseStrokeGate.Settings(strokeButtons: [], claimedChords: [rocker], claimedClicks: [BTN.side]))
        mouse.press(BTN.left)
        mouse.press(BTN.side)
        mouse.letGo(BTN.side)
        mouse.letGo(BTN.left)
        #expect(mouse.signals == [.chord(rocker, claimed: true)])
        mouse.signals.removeAll()
        mouse.press(BTN.side)
        mouse.letGo(BTN.side)
        #expect(mouse.signals == [.click(button: BTN.side)])
        #expect(!mouse.written.contains { $0.type == EV.key } && mouse.cloneDown.isEmpty, "the desktop saw neither")
    }

    @Test("a side press and release in one packet: one click, nothing on the clone")
    func onePacket() {
        var mouse = GateMouse(Self.sideClaimed)
        mouse.send([(EV.msc, 4, 0x90004), (EV.key, BTN.side, 1), (EV.rel, REL.x, 3)])
        mouse.send([(EV.key, BTN.side, 0), (EV.key, BTN.side, 1), (EV.key, BTN.side, 0)])
        #expect(mouse.signals == [.click(button: BTN.side), .click(button: BTN.side)])
        #expect(mouse.written.filter { $0.type != EV.syn } == [EvdevEvent(time: 1.0, type: EV.rel, code: REL.x, value: 3)])
    }
}
