import Foundation
import Testing

@Suite("Shapes drawn with a mouse button, through the binary")
struct MouseShapeRuleTests {
    @Test("check takes a shape rule that names a button, and the shapes the rules file's own shapes file teaches")
    func checkAccepts() throws {
        let dir = try Binary.temporaryDirectory()
        let rules = dir.appendingPathComponent("mouse.lua")
        try """
            config{ share_mice = true }
            on({ kind = "shape", button = "right", name = "circle" }, function(g) key("Menu") end)
            on({ kind = "shape", button = "middle", name = "spiral", min_score = 0.7 }, function(g) end)
            on({ kind = "shape", button = "right" }, function(g) end)

            """.write(to: rules, atomically: true, encoding: .utf8)
        let unknown = try Binary.run(["check", rules.path])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.first?.hasPrefix("\(rules.path):3: unknown shape \"spiral\"") == true, "\(unknown.errorLines)")
        try "{\"name\":\"spiral\",\"points\":[[0,0],[10,0],[10,10],[-5,10],[-5,-5],[20,-5],[20,20]]}\n"
            .write(to: dir.appendingPathComponent("mouse.shapes.jsonl"), atomically: true, encoding: .utf8)
        let taught = try Binary.run(["check", rules.path])
        #expect(taught.errorLines == ["\(rules.path): ok"])
        #expect(taught.status == 0)
    }

    @Test("a finger's circle goes to the finger's shape rule, never to the rule that names a mouse button")
    func fingerLeavesMouseRules() throws {
        let circle = try Binary.run(["synth", "shape circle", "--seed", "3"])
        #expect(circle.status == 0)
        let rules = try Binary.temporaryFile("rules.lua", """
            on({ kind = "shape", button = "right", name = "circle" }, function(g) emit("mouse_circle") end)

            """)
        let mouseOnly = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(circle.stdout.utf8))
        #expect(mouseOnly.status == 0)
        #expect(mouseOnly.lines.isEmpty, "\(mouseOnly.lines)")
        let both = try Binary.temporaryFile("rules.lua", """
            on({ kind = "shape", button = "right", name = "circle" }, function(g) emit("mouse_circle") end)
            on({ kind = "shape", name = "circle" }, function(g) emit("finger_circle", { button = g.button }) end)

            """)
        let finger = try Binary.run(["run", "--rules", both.path, "-"], stdin: Data(circle.stdout.utf8))
        #expect(finger.lines.map { $0.contains("\"action\":\"finger_circle\"") } == [true], "\(finger.lines)")
    }
}
