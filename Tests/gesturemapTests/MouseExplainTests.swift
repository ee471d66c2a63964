import Foundation
import Testing

/// `explain` on a mouse's recording: for each press of a bound button, what
/// became of it, through the binary.
@Suite("explain on a mouse's recording")
struct MouseExplainTests {
    static let rules = """
    on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)
    on({ kind = "chord", button = "right", wheel = "up" }, function(g) emit("louder") end)
    on("two-finger swipe left", function(g) emit("next") end)

    """

    /// A click, a 3 mm stroke, a stroke up, a stroke left, a press held still, a chord with the wheel.
    static func presses() throws -> String {
        var s = KernelMouse.Script()
        s.click(KernelMouse.right)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 6)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: 0, dy: -20, packets: 30)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 30)
        s.pause(0.5)
        s.press(KernelMouse.right, frame: 0.4)
        s.release(KernelMouse.right)
        s.pause(0.5)
        var text = try String(contentsOfFile: s.file("presses.evemu"), encoding: .utf8)
        // The wheel turned up once while the right button is down: a chord.
        text += "E: 4.900000 0001 0111 1\nE: 4.900000 0000 0000 0\nE: 4.950000 0002 0008 1\nE: 4.950000 0000 0000 0\n"
            + "E: 5.000000 0001 0111 0\nE: 5.000000 0000 0000 0\n"
        return try Binary.temporaryFile("presses.evemu", text).path
    }

    @Test("each press: a click, too short, a stroke no rule names with the nearest rule, taken, held still, a chord; and the tally counts presses")
    func text() throws {
        let rules = try Binary.temporaryFile("mouse.lua", Self.rules)
        let result = try Binary.run(["explain", "--rules", rules.path, try Self.presses()])
        #expect(result.status == 0, "\(result.stderr)")
        let on = #"on "gesturemap kernel-test mouse""#
        #expect(result.lines == [
            "press 1: right button, 0.10–0.11 s, \(on), 0 mm from the press: a click: it moved less than 0.41 mm, so it is no stroke",
            "press 2: right button, 0.62–0.67 s, \(on), 3 mm from the press: no stroke: it went 3.0 mm; a stroke goes 5.0 mm or more",
            "press 3: right button, 1.18–1.43 s, \(on), 15.2 mm from the press: stroke up, which no rule names; the nearest: rule \"stroke left\" (\(rules.path):1), left",
            "press 4: right button, 1.94–2.18 s, \(on), 15.2 mm from the press: stroke left, taken by rule \"stroke left\" (\(rules.path):1)",
            "press 5: right button, 2.69–3.09 s, \(on), 0 mm from the press: held still 0.25 s: a long press or a drag, no stroke",
            "press 6: right button, 4.90–5.00 s, \(on), 0 mm from the press: chord right + wheel up, taken by rule \"chord right + wheel up\" (\(rules.path):2)",
            "rules:",
            "  rule \"stroke left\" (\(rules.path):1): fired in 1 of 6 presses of a mouse's bound button",
            "  rule \"chord right + wheel up\" (\(rules.path):2): fired in 1 of 6 presses of a mouse's bound button",
            "  rule \"2-finger swipe left\" (\(rules.path):3): never fired: the input had no touch sequence",
        ], "\(result.stdout)")
    }

    @Test("--json gives each press's outcome, stroke and rule")
    func json() throws {
        let rules = try Binary.temporaryFile("mouse.lua", Self.rules)
        let result = try Binary.run(["explain", "--json", "--rules", rules.path, try Self.presses()])
        #expect(result.status == 0, "\(result.stderr)")
        let presses = result.lines.compactMap(Binary.json).filter { $0["press"] != nil }
        #expect(presses.map { $0["outcome"] as? String } == ["click", "no_stroke", "unnamed", "taken", "held", "chord"])
        #expect(presses[2]["stroke"] as? String == "up")
        #expect(presses[2]["nearest"] as? String == #"rule "stroke left""#)
        #expect(presses[3]["rule"] as? String == #"rule "stroke left""#)
    }
}
