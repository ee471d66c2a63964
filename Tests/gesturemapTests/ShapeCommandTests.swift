import Foundation
import Testing

/// Drawn shapes from the command line: synth draws them, run recognizes them,
/// shape add learns them from a recording, shape list shows them, and run,
/// check, test and synth take --shapes.
@Suite("Shapes on the command line", .serialized)
struct ShapeCommandTests {
    /// A folder with a rules file and the recording of a taught shape (two Z-like drawings).
    static func workspace(rules: String) throws -> (dir: URL, rules: URL) {
        let rulesURL = try Binary.temporaryFile("rules.lua", rules)
        return (rulesURL.deletingLastPathComponent(), rulesURL)
    }

    /// NDJSON for one finger drawing each polyline in turn, `pause` s apart, at 16 units/mm.
    static func recording(_ drawings: [[(Double, Double)]], pause: Double = 1.0) -> String {
        var lines = ["{\"device\":{\"name\":\"test panel\",\"x\":{\"min\":0,\"max\":4095,\"resolution\":16},\"y\":{\"min\":0,\"max\":2303,\"resolution\":16}}}"]
        var t = 0.1
        for (n, points) in drawings.enumerated() {
            let id = n + 1
            for (i, p) in points.enumerated() {
                let ev = i == 0 ? "down" : "move"
                lines.append("{\"t\":\(String(format: "%.3f", t)),\"ev\":\"\(ev)\",\"id\":\(id),\"x\":\(Int(p.0 * 16)),\"y\":\(Int(p.1 * 16))}")
                t += 0.01
            }
            lines.append("{\"t\":\(String(format: "%.3f", t)),\"ev\":\"up\",\"id\":\(id)}")
            t += pause
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Z 40 mm across: along the top, down the diagonal, along the bottom; `steps` samples per side.
    static func zed(at x: Double = 60, _ y: Double = 40, steps: Int = 30) -> [(Double, Double)] {
        let corners = [(x, y), (x + 40, y), (x, y + 40), (x + 40, y + 40)]
        var out: [(Double, Double)] = []
        for k in 0..<(corners.count - 1) {
            for s in 0..<steps {
                let f = Double(s) / Double(steps)
                out.append((corners[k].0 + (corners[k + 1].0 - corners[k].0) * f, corners[k].1 + (corners[k + 1].1 - corners[k].1) * f))
            }
        }
        out.append(corners[3])
        return out
    }

    @Test("synth draws the built-in shapes and run recognizes each as itself")
    func synthAndRun() throws {
        let names = ["arrow", "caret", "check", "circle", "delete_mark", "left_curly_brace", "left_sq_bracket", "pigtail",
                     "question_mark", "rectangle", "right_curly_brace", "right_sq_bracket", "star", "triangle", "v", "x"]
        let (_, rules) = try Self.workspace(rules: "on(\"shape\", function(g) emit(g.shape) end)\n")
        let result = try Binary.synthThenRun(names.map { "shape \($0)" }, seed: 4, run: ["--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == names)
    }

    @Test("shape add learns a recording's drawings into shapes.jsonl beside the rules; run and synth then know the shape")
    func teach() throws {
        let (dir, rules) = try Self.workspace(rules: "on(\"shape z\", function(g) emit(\"undo\") end)\non(\"shape circle\", function(g) emit(\"reload\") end)\n")
        let recording = dir.appendingPathComponent("z.ndjson")
        try Self.recording([Self.zed(), Self.zed(at: 100, 60), [(10, 10), (60, 12)]]).write(to: recording, atomically: true, encoding: .utf8)
        // Before it is taught, the rules do not load: no shape is named z.
        let before = try Binary.run(["check", rules.path])
        #expect(before.status == 1)
        #expect(before.stderr.contains("\(rules.path):1: unknown shape \"z\""), "\(before.stderr)")

        let add = try Binary.run(["shape", "add", "Z", recording.path, "--rules", rules.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.errorLines == [
            "gesturemap shape add: skipped drawing 3 (at 3.92 s): a straight stroke is a swipe or a drag, never a shape",
            "\(dir.path)/shapes.jsonl: added 2 templates of \"z\" (2 in all)",
        ])
        let file = try String(contentsOf: dir.appendingPathComponent("shapes.jsonl"), encoding: .utf8)
        #expect(file.split(separator: "\n").count == 2)
        #expect(file.hasPrefix("{\"name\":\"z\",\"points\":[[0,0],"))

        #expect(try Binary.run(["check", rules.path]).status == 0)
        let run = try Binary.synthThenRun(["shape circle"], seed: 2, run: ["--rules", rules.path])
        #expect(run.lines.compactMap { Binary.json($0)?["action"] as? String } == ["reload"])
        let synth = try Binary.run(["synth", "shape z", "--shapes", dir.appendingPathComponent("shapes.jsonl").path, "--seed", "3"])
        #expect(synth.status == 0, "\(synth.stderr)")
        let drawn = try Binary.run(["run", "--rules", rules.path], stdin: Data(synth.stdout.utf8))
        #expect(drawn.lines.compactMap { Binary.json($0)?["action"] as? String } == ["undo"])
    }

    @Test("shape add learns a check whose first leg is a sixth of its second, and skips a drag up and back down, saying why")
    func shortLeggedCheck() throws {
        let (dir, _) = try Self.workspace(rules: "")
        var check: [(Double, Double)] = []
        for i in 0...10 { check.append((60 + 3.2 * Double(i) / 10, 40 + 3.8 * Double(i) / 10)) }
        for i in 1...30 { check.append((63.2 + 15 * Double(i) / 30, 43.8 - 26 * Double(i) / 30)) }
        let drag = (0...30).map { (20.0, 10 + Double($0)) } + (0...30).map { (20.5, 40 - Double($0)) }
        let recording = dir.appendingPathComponent("tick.ndjson")
        try Self.recording([check, drag]).write(to: recording, atomically: true, encoding: .utf8)
        let shapes = dir.appendingPathComponent("tick.jsonl")
        let add = try Binary.run(["shape", "add", "tick", recording.path, "--shapes", shapes.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.errorLines.count == 2, "\(add.errorLines)")
        #expect(add.errorLines.first?.hasPrefix("gesturemap shape add: skipped drawing 2 (at ") == true, "\(add.errorLines)")
        #expect(add.errorLines.first?.hasSuffix(" s): it went back and forth along a line, which is no shape") == true, "\(add.errorLines)")
        #expect(add.errorLines.last == "\(shapes.path): added a template of \"tick\" (1 in all)", "\(add.errorLines)")
    }

    @Test("shape add with nothing to learn says so, exit 65; a bad name is a usage error")
    func nothingToLearn() throws {
        let (dir, _) = try Self.workspace(rules: "")
        let recording = dir.appendingPathComponent("line.ndjson")
        try Self.recording([[(10, 10), (60, 12)]]).write(to: recording, atomically: true, encoding: .utf8)
        let result = try Binary.run(["shape", "add", "z", recording.path, "--shapes", dir.appendingPathComponent("s.jsonl").path])
        #expect(result.status == 65)
        #expect(result.errorLines.last == "gesturemap shape add: \(recording.path) has no drawing to learn \"z\" from; record one finger drawing the shape")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.jsonl").path))
        let bad = try Binary.run(["shape", "add", "a\"b", recording.path])
        #expect(bad.status == 64)
        #expect(bad.errorLines.first == "gesturemap shape add: a shape's name cannot hold control characters, quotes or backslashes")
    }

    @Test("shape list shows every shape with its source, and draws a sheet with -o")
    func list() throws {
        let (dir, _) = try Self.workspace(rules: "")
        let shapes = dir.appendingPathComponent("mine.jsonl")
        try "{\"name\":\"circle\",\"points\":[[0,0],[10,0],[10,10],[0,10],[0,0]]}\n{\"name\":\"hook\",\"points\":[[0,0],[0,20],[10,25]],\"anyDirection\":true}\nnot json\n"
            .write(to: shapes, atomically: true, encoding: .utf8)
        let svg = dir.appendingPathComponent("sheet.svg")
        let result = try Binary.run(["shape", "list", "--shapes", shapes.path, "-o", svg.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines.first?.hasPrefix("\(shapes.path):3: not JSON") == true, "\(result.errorLines)")
        #expect(result.errorLines.contains { $0.hasPrefix("circle ") && $0.contains("mine.jsonl") && $0.contains("closed, from any point") })
        #expect(result.errorLines.contains { $0.hasPrefix("hook ") && $0.contains("either way round") })
        #expect(result.errorLines.contains { $0.hasPrefix("star ") && $0.contains("built-in") })
        #expect(result.errorLines.count == 1 + 17)
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml") && text.contains(">hook</text>") && text.contains(">pigtail</text>"))
    }

    @Test("--shapes: a file that is not there stops run (66), and check reports its bad lines as problems")
    func shapesOption() throws {
        let (dir, rules) = try Self.workspace(rules: "on(\"shape hook\", function(g) emit(\"hook\") end)\n")
        let missing = try Binary.synthThenRun(["tap"], seed: 1, run: ["--rules", rules.path, "--shapes", dir.appendingPathComponent("none.jsonl").path])
        #expect(missing.status == 66)
        #expect(missing.errorLines.first?.hasPrefix("gesturemap: cannot read the shapes file \(dir.path)/none.jsonl: No such file or directory") == true, "\(missing.stderr)")
        let shapes = dir.appendingPathComponent("other.jsonl")
        try "{\"name\":\"hook\",\"points\":[[0,0],[0,20],[10,25]]}\n{\"name\":\"dot\",\"points\":[[1,1],[1,1]]}\n".write(to: shapes, atomically: true, encoding: .utf8)
        let check = try Binary.run(["check", rules.path, "--shapes", shapes.path])
        #expect(check.status == 1)
        #expect(check.errorLines == ["\(shapes.path):2: template \"dot\": its points do not go anywhere (fewer than two, or all in one place)"])
    }
}
