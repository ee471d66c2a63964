import Foundation
import Testing

/// A button's click that a rule claims (`{ kind = "click", button = "side" }`):
/// real libinput on the clone sees none of it, and every other button as before.
extension KernelMouseTests {
    @Test("a side click that a rule claims runs it once and reaches the desktop as no button, while the pointer moved with it still moves; the unclaimed extra button and a left click reach it as they came")
    func claimedSideClick() throws {
        let rules = Self.rules + "\non({ kind = \"click\", button = \"side\" }, function(g) emit(\"side\", { button = g.button }) end)\n"
        let (mouse, engine, desktop) = try Self.sharedMouse(rules: rules)
        defer { _ = engine.terminate() }
        var script = KernelMouse.Script()
        script.press(KernelMouse.side)
        script.move(dx: 10, dy: 0, packets: 5)
        script.release(KernelMouse.side)
        script.pause(0.3)
        try mouse.play(script.file("side.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("\"side\"") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(Self.buttons(desktop).isEmpty, "the claimed side click reached the desktop: \(desktop.lines)")
        #expect(desktop.lines.contains { $0.contains("POINTER_MOTION") }, "the motion around it did not: \(desktop.lines)")
        let line = engine.outputLines.compactMap(Binary.json).first { $0["action"] as? String == "side" }
        #expect(line?["button"] as? String == "side", "\(engine.stdout)")

        var after = script.continuing()
        after.click(KernelMouse.extra)
        after.pause(0.1)
        after.click(KernelMouse.left)
        after.pause(0.3)
        try mouse.play(after.file("extra-left.evemu"))
        desktop.settle()
        #expect(Self.buttons(desktop) == ["BTN_EXTRA pressed", "BTN_EXTRA released", "BTN_LEFT pressed", "BTN_LEFT released"], "\(desktop.lines)")
        #expect(LiveEngine.actions(engine) == ["side"], "\(engine.stdout)")
    }
}
