#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `run --share-mouse` through a real kernel, judged by real libinput reading
/// the clone as a desktop would: a click reaches it, a claimed stroke does not,
/// a drag is as it was, and a killed gesturemap leaves nothing down.
@Suite("Sharing a mouse with the desktop, judged by real libinput", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelMouseTests {
    /// Right-button strokes left and right, as examples/mouse.lua binds them (with emit, not key).
    static let rules = """
        on({ kind = "stroke", direction = "left" }, function(g) emit("back", { button = g.button, direction = g.direction }) end)
        on({ kind = "stroke", direction = "right" }, function(g) emit("forward") end)
        """

    /// `gesturemap run --share-mouse -v` on the mouse; the clone it made.
    static func share(_ node: String, rules: String = KernelMouseTests.rules) throws -> (engine: Child, clone: String) {
        try KernelShareTests.share(node, rules: rules, flag: "--share-mouse")
    }

    /// A new mouse, shared with `rules` by `run --share-mouse -v`, and real
    /// libinput reading its clone as the desktop would.
    static func sharedMouse(rules: String = KernelMouseTests.rules) throws -> (mouse: EvemuDevice, engine: Child, desktop: LibinputWatch) {
        let mouse = try EvemuDevice(description: KernelMouse.description())
        let (engine, clone) = try share(mouse.node, rules: rules)
        do {
            return (mouse, engine, try LibinputWatch(clone))
        } catch {
            _ = engine.terminate()
            throw error
        }
    }

    /// libinput's button events: "BTN_RIGHT pressed", "BTN_LEFT released".
    static func buttons(_ watch: LibinputWatch) -> [String] {
        watch.lines.compactMap { line in
            guard line.contains("POINTER_BUTTON") else { return nil }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard let name = words.first(where: { $0.hasPrefix("BTN_") }), let state = words.first(where: { $0 == "pressed" || $0 == "released" }) else { return nil }
            return "\(name) \(state)"
        }
    }

    @Test("a plain right click reaches the desktop as one right press and one release, and runs no rule")
    func click() throws {
        let (mouse, engine, desktop) = try Self.sharedMouse()
        defer { _ = engine.terminate() }
        var script = KernelMouse.Script()
        script.press(KernelMouse.right)
        script.move(dx: 2, dy: 1, packets: 3)
        script.pause(0.06)
        script.release(KernelMouse.right)
        script.pause(0.3)
        try mouse.play(script.file("click.evemu"))
        desktop.settle()
        #expect(Self.buttons(desktop) == ["BTN_RIGHT pressed", "BTN_RIGHT released"], "\(desktop.lines)")
        #expect(LiveEngine.actions(engine).isEmpty, "\(engine.stdout)")
    }

    @Test("a right-button stroke left that a rule takes reaches the desktop as no button at all, and the rule runs with its button and direction")
    func claimedStroke() throws {
        let (mouse, engine, desktop) = try Self.sharedMouse()
        defer { _ = engine.terminate() }
        var script = KernelMouse.Script()
        script.press(KernelMouse.right)
        // 40 mm left at 1000 dpi, in 0.16 s.
        script.move(dx: -80, dy: 0, packets: 20)
        script.release(KernelMouse.right)
        script.pause(0.5)
        try mouse.play(script.file("stroke.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("back") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(Self.buttons(desktop).isEmpty, "the claimed stroke's button reached the desktop: \(desktop.lines)")
        #expect(LiveEngine.actions(engine) == ["back"])
        let line = engine.outputLines.compactMap(Binary.json).first { $0["action"] as? String == "back" }
        #expect(line?["button"] as? String == "right" && line?["direction"] as? String == "left", "\(engine.stdout)")

        // The next click is the desktop's as before.
        var after = script.continuing()
        after.click(KernelMouse.right)
        after.pause(0.3)
        try mouse.play(after.file("after-stroke.evemu"))
        desktop.settle()
        #expect(Self.buttons(desktop) == ["BTN_RIGHT pressed", "BTN_RIGHT released"], "\(desktop.lines)")
    }

    @Test("a left drag reaches the desktop as it does without gesturemap: the same buttons, the pointer as far")
    func leftDrag() throws {
        let mouse = try EvemuDevice(description: KernelMouse.description())
        var script = KernelMouse.Script()
        script.press(KernelMouse.left)
        script.move(dx: 30, dy: -10, packets: 25)
        script.release(KernelMouse.left)
        script.pause(0.3)
        let drag = try script.file("drag.evemu")

        let alone = try LibinputWatch(mouse.node)
        try mouse.play(drag)
        alone.settle()
        let expected = alone.reading
        #expect(Self.buttons(alone) == ["BTN_LEFT pressed", "BTN_LEFT released"], "\(alone.lines)")

        let (engine, clone) = try Self.share(mouse.node)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        try mouse.play(drag)
        desktop.settle()
        #expect(Self.buttons(desktop) == ["BTN_LEFT pressed", "BTN_LEFT released"], "\(desktop.lines)")
        #expect(LibinputWatch.difference(desktop.reading, expected) == nil)
    }

    @Test("SIGKILL in the middle of a stroke: the clone goes with nothing down, and the mouse is the desktop's again")
    func killed() throws {
        let mouse = try EvemuDevice(description: KernelMouse.description())
        let (engine, clone) = try Self.share(mouse.node)
        let desktop = try LibinputWatch(clone)
        let original = try LibinputWatch(mouse.node)
        var first = KernelMouse.Script()
        first.press(KernelMouse.right)
        first.move(dx: -80, dy: 0, packets: 10)
        // The stroke is held from the desktop: whether gesturemap read it or not, it dies holding it.
        try mouse.play(first.file("before-kill.evemu"))
        engine.signal(SIGKILL)
        #expect(engine.waitForExit(upTo: 10) != nil)
        #expect(KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: clone) }, "the clone outlived gesturemap")
        #expect(KernelGuest.wait(upTo: 10) { desktop.removed }, "\(desktop.lines)")
        #expect(Self.buttons(desktop).filter { $0.hasSuffix("pressed") }.count == Self.buttons(desktop).filter { $0.hasSuffix("released") }.count,
                "a button left down on the clone: \(desktop.lines)")

        // The stroke ends, and the next click is the desktop's, read from the mouse itself.
        var rest = first.continuing()
        rest.move(dx: -80, dy: 0, packets: 5)
        rest.release(KernelMouse.right)
        rest.pause(0.3)
        rest.click(KernelMouse.left)
        rest.pause(0.3)
        try mouse.play(rest.file("after-kill.evemu"))
        original.settle()
        #expect(Self.buttons(original) == ["BTN_LEFT pressed", "BTN_LEFT released"], "the desktop reads the mouse again, nothing held: \(original.lines)")
        #expect(original.events.contains("POINTER_MOTION"), "\(original.lines)")
    }

    @Test("examples/mouse.lua: its config shares the mouse; a right-button stroke left is alt+Left (back), right is alt+Right (forward), a circle is Menu (its taught circle), the rocker is ctrl+shift+t, and none of them reaches the desktop")
    func example() throws {
        let mouse = try EvemuDevice(description: KernelMouse.description())
        let example = Binary.packageRoot.appendingPathComponent("examples/mouse.lua").path
        let engine = try KernelGuest.gesturemap(["run", "--dry-run", "-v", "--rules", example, mouse.node])
        defer { _ = engine.terminate() }
        var clone: String?
        engine.wait(upTo: 30) { _, err in
            clone = err.components(separatedBy: "with the desktop through ").dropFirst().first?.split(separator: "\n").first.map(String.init)
            return clone != nil || !engine.isRunning
        }
        let desktop = try LibinputWatch(try #require(clone, "config{ share_mice = true } did not share the mouse: \(engine.stderr)"))
        #expect(LiveEngine.waitUntilOpened(mouse.node, by: engine))
        var script = KernelMouse.Script()
        script.press(KernelMouse.right)
        script.move(dx: -80, dy: 0, packets: 20)
        script.release(KernelMouse.right)
        script.pause(0.4)
        script.press(KernelMouse.right)
        script.move(dx: 80, dy: 0, packets: 20)
        script.release(KernelMouse.right)
        script.pause(0.4)
        // A circle 30 mm across, which the example's own shapes file teaches.
        script.press(KernelMouse.right)
        script.circle(radius: 590)
        script.release(KernelMouse.right)
        script.pause(0.4)
        // The rocker: hold left, click right.
        script.press(KernelMouse.left)
        script.pause(0.05)
        script.click(KernelMouse.right)
        script.pause(0.05)
        script.release(KernelMouse.left)
        script.pause(0.4)
        try mouse.play(script.file("example.evemu"))
        let expected = ["KEY_LEFTALT+", "KEY_LEFT+", "KEY_LEFT-", "KEY_LEFTALT-", "KEY_LEFTALT+", "KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFTALT-",
                        "KEY_COMPOSE+", "KEY_COMPOSE-", "KEY_LEFTCTRL+", "KEY_LEFTSHIFT+", "KEY_T+", "KEY_T-", "KEY_LEFTSHIFT-", "KEY_LEFTCTRL-"]
        #expect(engine.wait(upTo: 10) { _, _ in ExampleTests.keys(engine.outputLines.compactMap(Binary.json)).count >= expected.count }, "\(engine.stdout)\n\(engine.stderr)")
        #expect(ExampleTests.keys(engine.outputLines.compactMap(Binary.json)) == expected)
        desktop.settle()
        #expect(Self.buttons(desktop).isEmpty, "\(desktop.lines)")
    }

    @Test("a keyboard is never grabbed: a receiver's node with keys and a mouse's motion is neither found nor taken when named; the mouse beside it is shared")
    func keyboardNeverGrabbed() throws {
        let devices = try EvemuDevice.make([KernelMouse.description(), KernelMouse.keyboardDescription()])
        let (mouse, receiver) = (devices[0], devices[1])
        let rules = try Binary.temporaryFile("mouse-rules.lua", Self.rules).path
        let found = try KernelGuest.gesturemap(["run", "--share-mouse", "-v", "--rules", rules])
        defer { _ = found.terminate() }
        #expect(found.wait(upTo: 30) { _, err in err.contains("sharing \(mouse.node) with the desktop through ") }, "\(found.stderr)")
        #expect(!found.stderr.contains("sharing \(receiver.node)"), "\(found.stderr)")
        let original = try LibinputWatch(receiver.node)
        var script = KernelMouse.Script()
        script.click(KernelMouse.left)
        script.pause(0.3)
        try receiver.play(script.file("receiver.evemu"))
        original.settle()
        #expect(Self.buttons(original) == ["BTN_LEFT pressed", "BTN_LEFT released"], "the receiver is the desktop's: \(original.lines)")

        let named = try KernelGuest.run(Binary.path, ["run", "--share-mouse", "--rules", rules, receiver.node], timeout: 30)
        #expect(named.status == 69)
        #expect(named.output.contains("\(receiver.node): it has a keyboard's keys, and gesturemap never takes a keyboard from the desktop; --share-mouse shares mice alone"), "\(named.output)")
    }
}
