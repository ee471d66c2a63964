import Foundation
import Testing

/// A mouse button's click as a rule (`{ kind = "click", button = "side" }`,
/// the phrase "side click"), through the binary: a recorded mouse's clicks
/// run it; a touchpad's place or fingers on it are named at their line.
@Suite("Mouse button clicks, through the binary")
struct MouseClickRuleTests {
    static let rules = """
    on({ kind = "click", button = "side" }, function(g) emit("back", { button = g.button, kind = g.kind }) end)
    on("extra click", function(g) emit("forward") end)
    on({ kind = "stroke", direction = "left" }, function(g) emit("stroke") end)

    """

    /// A side click, an extra click, a right click, a middle click and a right stroke left.
    static func clicks() -> KernelMouse.Script {
        var s = KernelMouse.Script()
        for button in [KernelMouse.side, KernelMouse.extra, KernelMouse.right, 0x112] {
            s.click(button)
            s.pause(0.5)
        }
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 30)
        return s
    }

    @Test("a recording's side and extra clicks run their rules, once each, with g.button; the right click, the middle click run none; the stroke still runs")
    func recordedClicks() throws {
        let rules = try Binary.temporaryFile("clicks.lua", Self.rules)
        let result = try Binary.run(["run", "--rules", rules.path, try Self.clicks().file("clicks.evemu")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            #"{"action":"back","t":0.1,"button":"side","kind":"click"}"#,
            #"{"action":"forward","t":0.616}"#,
            #"{"action":"stroke","t":2.412}"#,
        ], "\(result.stderr)")
    }

    @Test("-v says which rule took each click (a recording has no desktop to withhold it from)")
    func verbose() throws {
        let rules = try Binary.temporaryFile("clicks.lua", Self.rules)
        let result = try Binary.run(["run", "--rules", rules.path, "-v", try Self.clicks().file("clicks.evemu")])
        #expect(result.status == 0, "\(result.stderr)")
        let said = result.errorLines.filter { $0.contains("mouse click") }
        #expect(said.count == 2, "\(result.stderr)")
        #expect(said.first?.hasSuffix("t=0.1 mouse click side: \(rules.path):1 takes it") == true, "\(said)")
    }

    @Test("a button's click with a touchpad's place or fingers is named at its line, with how to fix it")
    func refused() throws {
        let rules = try Binary.temporaryFile("bad-clicks.lua", """
            on({ kind = "click", button = "side", where = "left" }, function(g) end)
            on({ kind = "click", button = "middle", fingers = 2 }, function(g) end)
            on({ kind = "click", button = "thumb" }, function(g) end)

            """)
        let result = try Binary.run(["check", rules.path])
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "\(rules.path):1: a click with \"button\" is the mouse's side button, which has no place on a touchpad: drop \"where\" and \"edge\" (or \"button\", for a touchpad's click)",
            "\(rules.path):2: a click with \"button\" is the mouse's middle button, clicked with one finger: drop \"fingers\" (or \"button\", for a touchpad's click)",
            "\(rules.path):3: unknown button \"thumb\"; a click is made with one of left, right, middle, side, extra",
        ])
    }

    @Test("a touchpad's 2-finger click never runs a mouse's click rule, and a mouse's click never a touchpad's")
    func apart() throws {
        let rules = try Binary.temporaryFile("apart.lua", """
            on({ kind = "click", button = "left" }, function(g) emit("mouse") end)
            on("2-finger click", function(g) emit("pad") end)

            """)
        var s = KernelMouse.Script()
        s.click(KernelMouse.left)
        let mouse = try Binary.run(["run", "--rules", rules.path, try s.file("left.evemu")])
        #expect(mouse.lines.count == 1 && mouse.lines.first?.contains("\"mouse\"") == true, "\(mouse.stdout)\(mouse.stderr)")
        let pad = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(try Binary.run(["synth", "2-finger click"]).stdout.utf8))
        #expect(pad.lines.count == 1 && pad.lines.first?.contains("\"pad\"") == true, "\(pad.stdout)\(pad.stderr)")
    }

    @Test("synth draws a button's click as its press and release, with no motion; explain says a rule took it")
    func authorTools() throws {
        let synth = try Binary.run(["synth", "side click"])
        #expect(synth.status == 0, "\(synth.stderr)")
        #expect(synth.lines.map { Binary.json($0)?["ev"] as? String } == ["press", "release"], "\(synth.stdout)")
        #expect(synth.lines.allSatisfy { Binary.json($0)?["button"] as? String == "side" })
        let rules = try Binary.temporaryFile("side.lua", "on(\"side click\", function(g) emit(\"back\") end)\n")
        let explained = try Binary.run(["explain", "--rules", rules.path, "-"], stdin: Data(synth.stdout.utf8))
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.lines.first?.hasSuffix("a click, taken by rule \"side click\" (\(rules.path):1): the desktop sees none of it") == true, "\(explained.stdout)")
    }
}
