#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// ctrl held on a real keyboard while a shared mouse's wheel turns, judged by
/// real libinput on the mouse's clone and on the keyboard itself.
extension KernelMouseTests {
    static let modifierRules = """
        on({ kind = "chord", wheel = "up" }, function(g) emit("zoom_in", { held = g.modifiers.ctrl and "ctrl" or "none" }) end, { modifiers = "ctrl" })
        """

    /// The keyboard's ctrl goes down (1) or up (0).
    static func ctrlKey(_ value: Int) throws -> String {
        let lines = [String(format: "E: 0.100000 0001 001d %04d", value), "E: 0.100000 0000 0000 0000"]
        return try Binary.temporaryFile("ctrl-\(value).evemu", KernelShareTests.keyboard + lines.joined(separator: "\n") + "\n").path
    }

    /// libinput's wheel notches, by the sign of their v120: up is negative.
    static func notches(_ watch: LibinputWatch, from mark: Int) -> [String] {
        watch.lines.dropFirst(mark).filter { $0.contains("POINTER_SCROLL_WHEEL") || $0.contains("POINTER_AXIS") }.map { line in
            KernelPointerTests.v120(line, "vert") < 0 ? "up" : "down"
        }
    }

    /// The modifiers gesturemap last told the mice, from its --trace.
    static func told(_ engine: Child) -> String? {
        engine.stderr.components(separatedBy: "\n").last { $0.contains("the shared mice hear the modifiers held: ") }?
            .components(separatedBy: "held: ").last
    }

    @Test("ctrl held: a notch up reaches libinput on the clone not at all and runs the rule with g.modifiers.ctrl; a notch down still scrolls; the keyboard's ctrl reaches libinput as it came; without ctrl, up scrolls again")
    func ctrlWheel() throws {
        let keyboard = try EvemuDevice(description: try Binary.temporaryFile("keyboard.desc", KernelShareTests.keyboard).path)
        let mouse = try EvemuDevice(description: KernelMouse.description())
        let (engine, clone) = try KernelShareTests.share(mouse.node, rules: Self.modifierRules, extra: ["--trace"], flag: "--share-mouse")
        defer { _ = engine.terminate() }
        #expect(engine.wait(upTo: 20) { _, _ in Self.told(engine) == "none" }, "\(engine.stderr)")
        let desktop = try LibinputWatch(clone)
        let keys = try LibinputWatch(keyboard.node)
        var script = KernelMouse.Script()
        func turn(_ values: [Int32], _ name: String) throws {
            script = script.continuing()
            for v in values { script.wheel(v) }
            script.pause(0.3)
            try mouse.play(script.file(name + ".evemu"))
        }

        try turn([1, -1], "no-ctrl")
        desktop.settle()
        #expect(Self.notches(desktop, from: 0) == ["up", "down"], "\(desktop.lines)")

        try keyboard.play(Self.ctrlKey(1))
        #expect(engine.wait(upTo: 20) { _, _ in Self.told(engine) == "ctrl" }, "\(engine.stderr)")
        let mark = desktop.lines.count
        try turn([1, 1, -1], "ctrl")
        #expect(engine.wait(upTo: 20) { _, _ in LiveEngine.actions(engine).count >= 2 }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(Self.notches(desktop, from: mark) == ["down"], "the claimed notches reached the desktop: \(desktop.lines.suffix(from: mark))")
        #expect(LiveEngine.actions(engine) == ["zoom_in", "zoom_in"])
        let held = engine.outputLines.compactMap(Binary.json).compactMap { $0["held"] as? String }
        #expect(held == ["ctrl", "ctrl"], "\(engine.stdout)")

        try keyboard.play(Self.ctrlKey(0))
        #expect(engine.wait(upTo: 20) { _, _ in Self.told(engine) == "none" }, "\(engine.stderr)")
        let after = desktop.lines.count
        try turn([1], "after")
        desktop.settle()
        #expect(Self.notches(desktop, from: after) == ["up"], "\(desktop.lines.suffix(from: after))")
        #expect(LiveEngine.actions(engine).count == 2)

        keys.settle()
        let keyLines = keys.lines.filter { $0.contains("KEYBOARD_KEY") }
        #expect(keyLines.filter { $0.contains("pressed") }.count == 1 && keyLines.filter { $0.contains("released") }.count == 1,
                "the keyboard is the desktop's: \(keys.lines)")
    }
}
