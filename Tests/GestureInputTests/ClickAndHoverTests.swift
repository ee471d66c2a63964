import GestureCore
@testable import GestureInput
import Testing

/// What a touchpad's driver says beside its contacts: a contact of no size
/// hovers (protocol A), and a physical button marks the frames of a click.
@Suite("Protocol A's hovering contacts, and a touchpad's physical click")
struct ClickAndHoverTests {
    typealias Device = DropRecoveryTests.Device

    /// One protocol-A packet: each contact's position and touch size.
    static func packet(_ d: inout Device, _ contacts: [(x: Int32, y: Int32, major: Int32)]) {
        for c in contacts {
            d.send(EV.abs, ABS.mtTouchMajor, c.major)
            d.send(EV.abs, ABS.mtPositionX, c.x)
            d.send(EV.abs, ABS.mtPositionY, c.y)
            d.send(EV.syn, SYN.mtReport, 0)
        }
        d.report()
    }

    @Test("protocol A: a contact whose touch size is 0 hovers: it lifts the touch it was, and lands none")
    func hoveringContact() {
        var d = Device()
        Self.packet(&d, [(100, 100, 200)])
        Self.packet(&d, [(110, 100, 210)])
        // The finger went up; the driver goes on reporting it, of no size (bcm5974).
        Self.packet(&d, [(110, 100, 0)])
        Self.packet(&d, [(110, 100, 0)])
        Self.packet(&d, [])
        Self.packet(&d, [(300, 300, 0)])
        Self.packet(&d, [])
        #expect(d.touches() == ["1:began", "1:moved", "1:ended"])
    }

    @Test("protocol A without touch sizes: every contact is a touch, as before")
    func noSizes() {
        var d = Device()
        for x: Int32 in [100, 110] {
            d.send(EV.abs, ABS.mtPositionX, x)
            d.send(EV.abs, ABS.mtPositionY, 100)
            d.send(EV.syn, SYN.mtReport, 0)
            d.report()
        }
        d.report()
        #expect(d.touches() == ["1:began", "1:moved", "1:ended"])
    }

    @Test("a button pressed and let go under a still finger: its packet makes a frame that says clicked, the ones after do not")
    func clickBetweenFrames() {
        var d = Device()
        d.slot(0); d.id(1); d.at(500, 500)
        d.send(EV.key, BTN.touch, 1)
        d.report()
        d.send(EV.key, BTN.left, 1)
        d.report()
        d.send(EV.key, BTN.left, 0)
        d.report()
        d.send(EV.abs, ABS.mtPositionX, 501)
        d.report()
        d.send(EV.abs, ABS.mtPositionX, 502)
        d.report()
        #expect(d.frames.map(\.clicked) == [false, true, false, false])
        #expect(d.frames[1].touches.map(\.phase) == [.stationary])
    }

    @Test("a touchscreen's BTN_LEFT sent with the touch's landing is no click; nor is a button pressed with no finger down")
    func emulatedClick() {
        var d = Device()
        d.slot(0); d.id(1); d.at(500, 500)
        d.send(EV.key, BTN.touch, 1)
        d.send(EV.key, BTN.left, 1)
        d.report()
        d.send(EV.abs, ABS.mtPositionX, 501)
        d.report()
        d.id(-1)
        d.send(EV.key, BTN.touch, 0)
        d.send(EV.key, BTN.left, 0)
        d.report()
        #expect(d.frames.map(\.clicked) == [false, false, false])
    }

    @Test("a button held while the fingers move: every frame says clicked; pressed with no finger down, no frame does")
    func heldButton() {
        var d = Device()
        d.send(EV.key, BTN.left, 1)
        d.send(EV.key, BTN.left, 0)
        d.report()
        d.slot(0); d.id(1); d.at(500, 500)
        d.send(EV.key, BTN.touch, 1)
        d.report()
        d.send(EV.key, BTN.right, 1)
        d.send(EV.abs, ABS.mtPositionX, 520)
        d.report()
        d.send(EV.abs, ABS.mtPositionX, 540)
        d.report()
        d.send(EV.key, BTN.right, 0)
        d.id(-1)
        d.report()
        #expect(d.frames.map(\.clicked) == [false, true, true, false])
    }
}
