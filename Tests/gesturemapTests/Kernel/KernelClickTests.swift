#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Touchpad clicks as gestures on a shared clickpad, judged by real libinput
/// reading the clone.
@Suite("Claimed clicks on a shared clickpad, judged by real libinput", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelClickTests {
    static let rules = """
        on({ kind = "click", fingers = 2, where = "left" }, function(g) emit("claimed_click") end, { claim = true })
        on({ kind = "click", fingers = 2 }, function(g) emit("any_click") end)
        """

    /// Two fingers resting `rest` s at (x, 30) and (x + 15, 30) mm, then the pad's button down and up.
    static func twoFingerClick(_ script: inout TouchPanel.Script, x: Double, rest: Double = 0.1) {
        script.land([(x: x, y: 30), (x: x + 15, y: 30)])
        script.pause(rest)
        script.click(true)
        script.pause(0.06)
        script.click(false)
        script.lift()
        script.pause(0.8)
    }

    @Test("a 2-finger click on the left half is gesturemap's: libinput on the clone sees nothing of it, no button and no tap; on the right half, where no rule claims, the desktop clicks; a 2-finger scroll beside the claim still scrolls")
    func claimedClick() throws {
        let device = try EvemuDevice(description: ClickPad.description())
        let (engine, clone) = try KernelShareTests.share(device.node, rules: Self.rules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone, tapping: true)

        var left = TouchPanel.Script(touchpad: true)
        Self.twoFingerClick(&left, x: 15)
        try device.play(left.file("click-left.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("claimed_click") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(desktop.events.isEmpty, "a claimed click reached the desktop: \(desktop.lines.suffix(20))")

        var right = left.continuing()
        Self.twoFingerClick(&right, x: 65)
        right.land([(x: 40, y: 20), (x: 60, y: 20)])
        right.move(dx: 0, dy: 25, frames: 30)
        right.lift()
        right.pause(0.8)
        try device.play(right.file("click-right.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("any_click") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        let seen = desktop.events
        #expect(seen.filter { $0 == "POINTER_BUTTON" }.count == 2, "the right half's click: \(LibinputWatch.counts(seen))")
        #expect(seen.contains("POINTER_SCROLL_FINGER"), "the scroll: \(LibinputWatch.counts(seen))")
        #expect(LiveEngine.actions(engine) == ["claimed_click", "any_click"])
    }
}
