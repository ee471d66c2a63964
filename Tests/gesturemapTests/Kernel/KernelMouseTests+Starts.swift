import Foundation
import Testing

/// A drag whose start no stroke rule has reaches the desktop early: libinput
/// on the clone gets the press while the drag goes on, not with its release.
extension KernelMouseTests {
    /// A right drag straight down, 60 packets of 0.2 mm 8 ms apart (0.48 s,
    /// 12 mm), on a new mouse shared with `rules`: how long before the
    /// release libinput on the clone got the press, and its buttons.
    static func dragDown(rules: String) throws -> (pressBeforeRelease: Double, buttons: [String], stderr: String) {
        let (mouse, engine, desktop) = try Self.sharedMouse(rules: rules)
        defer { _ = engine.terminate() }
        var script = KernelMouse.Script()
        script.press(KernelMouse.right)
        script.move(dx: 0, dy: 8, packets: 60)
        script.release(KernelMouse.right)
        script.pause(0.5)
        try mouse.play(script.file("drag-down.evemu"))
        desktop.settle()
        // The right button's press, then its release (`buttons` says which is which).
        let times = desktop.times(of: "POINTER_BUTTON")
        let gap = times.count == 2 ? times[1] - times[0] : -1
        return (gap, Self.buttons(desktop), engine.stderr)
    }

    @Test("a right drag down beside stroke rules left and right reaches libinput as a drag whose press comes 5 mm in, not at the release; beside a shape drawn with the right button (any start) it is held to the release, as before")
    func dragLetGoEarly() throws {
        let early = try Self.dragDown(rules: Self.rules)
        let held = try Self.dragDown(rules: Self.rules + "\non({ kind = \"shape\", button = \"right\", name = \"circle\" }, function(g) emit(\"circle\") end)\n")
        KernelGuest.say(String(format: "a 0.48 s right drag down: the press reached libinput %.3f s before the release with left/right rules, %.3f s with a right-button shape rule too", early.pressBeforeRelease, held.pressBeforeRelease))
        #expect(early.buttons == ["BTN_RIGHT pressed", "BTN_RIGHT released"], "\(early.stderr)")
        #expect(held.buttons == ["BTN_RIGHT pressed", "BTN_RIGHT released"], "\(held.stderr)")
        // Let go at 5 mm, the 25th packet (0.2 s): 0.28 s before the release; held, with it.
        #expect(early.pressBeforeRelease >= 0.15, "\(early)")
        #expect(held.pressBeforeRelease < 0.05, "\(held)")
    }
}
