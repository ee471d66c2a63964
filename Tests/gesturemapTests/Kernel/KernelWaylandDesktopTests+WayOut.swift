import Foundation
import Testing

/// The ways out of a claim that keeps the touchpad from the desktop, judged by
/// what the desktop's client gets: the escape chord, and the claim's time limit.
extension KernelWaylandDesktopTests {
    /// One finger on the clickpad, 30 × 10 mm in 0.48 s, then a rest.
    static func oneFingerMove(after script: TouchPanel.Script? = nil) -> TouchPanel.Script {
        var move = script?.continuing() ?? TouchPanel.Script(touchpad: true)
        move.land([(x: 30, y: 30)])
        move.move(dx: 30, dy: 10, frames: 60)
        move.lift()
        move.pause(0.5)
        return move
    }

    @Test("the escape chord through a real desktop: with every touch claimed the client gets no pointer motion; after Backspace+Escape+Enter it gets one finger's motion as without gesturemap; pressed again, nothing again")
    func escapeChord() throws {
        let desktop = try SwayDesktop()
        var move = Self.oneFingerMove()
        let first = try EvemuDevice(description: try ClickPad.description())
        guard desktop.waitForInput(named: first.name) else { throw KernelTestError("sway did not take \(first.name)") }
        try desktop.centrePointer()
        var mark = desktop.lines.count
        try first.play(try move.file("chord-alone.evemu"))
        desktop.settle()
        let alone = desktop.reading(fromLine: mark)
        first.remove()
        try #require(alone.motions.count >= 30, "the move made no pointer motion on the device alone: \(alone.motions.count)")

        let keyboard = try EvemuDevice(description: try Binary.temporaryFile("keyboard.desc", KernelShareTests.keyboard).path)
        let device = try EvemuDevice(description: try ClickPad.description())
        let (engine, _) = try KernelShareTests.share(device.node, rules: "config{ claim_fingers = 1 }\n" + KernelShareTests.noClaimRules)
        defer { _ = engine.terminate() }
        guard desktop.waitForInput(named: device.name, count: 2) else { throw KernelTestError("sway did not take the clone of \(device.name): \(engine.stderr)") }
        func play(_ name: String) throws -> ClientReading {
            try desktop.centrePointer()
            mark = desktop.lines.count
            move = Self.oneFingerMove(after: move)
            try device.play(try move.file(name + ".evemu"))
            desktop.settle()
            return desktop.reading(fromLine: mark)
        }
        let claimed = try play("chord-claimed")
        #expect(claimed.motions.isEmpty && claimed.buttons.isEmpty, "claimed, yet the client got \(claimed.motions.count) motions, buttons \(claimed.buttons)")

        let chord = try KernelShareTests.escapeChord()
        try keyboard.play(chord)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("Backspace+Escape+Enter: sharing suspended") }, "\(engine.stderr)")
        // The clone is gone: sway reads the device itself.
        #expect(desktop.waitForInput(named: device.name, count: 1, exactly: true), "sway still has \(desktop.inputCount(named: device.name)) devices named \(device.name)")
        // The chord's keys are typing on an internal keyboard (AT, i8042) beside
        // an internal touchpad (I2C): libinput's disable-while-typing ignores a
        // touch that begins within 500 ms of them (evdev-mt-touchpad.c,
        // DEFAULT_KEYBOARD_ACTIVITY_TIMEOUT_2) until that time is up. The move
        // lost its first 0.1-0.16 s to it in some runs (200 px of 317 over 0.32
        // s of 0.48 in one CI run): the desktop's own rule, so it is waited out.
        Thread.sleep(forTimeInterval: 0.6)
        let suspended = try play("chord-suspended")
        // sway reads the device itself here, with gesturemap out of the way.
        // What the chord promises is that the desktop has the device again: the
        // move reaches it, at least half as far.
        #expect(suspended.pointerTravel >= 0.5 * alone.pointerTravel && suspended.pointerTravel <= 1.2 * alone.pointerTravel,
                "suspended, the pointer went \(suspended.pointerTravel) px against \(alone.pointerTravel) without gesturemap")
        let (a, b) = (ClientReading.spread(suspended.motions.map(\.time)), ClientReading.spread(alone.motions.map(\.time)))
        #expect(a >= 0.7 * min(b, 0.48), "the motion came within \(a) s against \(b) s without gesturemap")

        try keyboard.play(chord)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("Backspace+Escape+Enter: sharing resumed (1 device)") }, "\(engine.stderr)")
        #expect(desktop.waitForInput(named: device.name, count: 2, exactly: true), "sway has \(desktop.inputCount(named: device.name)) devices named \(device.name), not the device and its new clone")
        let resumed = try play("chord-resumed")
        KernelGuest.say(String(format: "the escape chord: the pointer went %.0f px claimed, %.0f px suspended (%.2f s), %.0f px shared again; %.0f px (%.2f s) without gesturemap",
                               claimed.pointerTravel, suspended.pointerTravel, a, resumed.pointerTravel, alone.pointerTravel, b))
        #expect(resumed.motions.isEmpty && resumed.buttons.isEmpty, "shared again, yet the client got \(resumed.motions.count) motions, buttons \(resumed.buttons)")
    }

    @Test("the claim's time limit through a real desktop: three fingers resting 0.6 s beside a claimed rule that never decides, then moving up, reach the client as a swipe while they move, not at the lift")
    func claimTimeLimit() throws {
        // A kind of our own that never fires nor gives up: only the time limit lets the touches go.
        let rules = """
            recognizer("undecided", { frame = function(r, f) end })
            on({ kind = "undecided", fingers = 3 }, function(g) emit("undecided") end, { claim = true })
            """
        // Resting still, reported as a pad reports a resting hand: a unit of jitter a frame.
        var rest = TouchPanel.Script(touchpad: true)
        rest.land([(x: 30, y: 50), (x: 45, y: 50), (x: 60, y: 50)])
        for frame in 0..<75 { rest.move(dx: frame.isMultiple(of: 2) ? 0.1 : -0.1, dy: 0, frames: 1) }
        rest.move(dx: 0, dy: -30, frames: 75)
        rest.lift()
        rest.pause(0.5)
        let (alone, shared, engine, actions) = try Self.played(try rest.file("desktop-rest-then-move.evemu"), description: try ClickPad.description(), rules: rules)
        Self.say("3 fingers resting 0.6 s beside an undecided claim, then 30 mm up in 0.6 s", alone, shared, loaded: false)
        let a = alone.gestures("swipe"), s = shared.gestures("swipe")
        try #require(a.count == 1 && a[0].fingers == 3, "the device alone gave the client \(alone.gestures.map { "\($0.fingers)-finger \($0.kind)" })")
        #expect(s.count == 1 && s.first?.fingers == 3, "through the clone: \(shared.gestures.map { "\($0.fingers)-finger \($0.kind)" }): \(engine.suffix(1500))")
        guard let swipe = s.first else { return }
        let (spread, aloneSpread) = (ClientReading.spread(swipe.updates.map(\.time)), ClientReading.spread(a[0].updates.map(\.time)))
        #expect(spread >= 0.7 * aloneSpread, "the swipe's updates came within \(spread) s against \(aloneSpread) s alone: held to the lift")
        #expect(-swipe.sum.dy >= 0.8 * -a[0].sum.dy, "the swipe went \(swipe.sum) against \(a[0].sum) alone")
        #expect(actions.isEmpty, "\(actions)")
    }
}
