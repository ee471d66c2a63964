import Foundation
import Testing

/// Shapes as real people draw them, through `run`: the pigtails and question
/// marks of the $1 study's logs (../shared/data/real, when present), which the
/// wandering tests once refused for parts that lie off the template's path, a
/// loop drawn bigger, a tail longer (docs/shapes.md, "Wandering").
@Suite("Shapes of real people through run")
struct ShapePeopleTests {
    static let logs = Binary.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data/real/dollar1-unistroke-xml_logs")

    /// One drawing's points, in the logs' pixels, and their times in ms.
    static func stroke(_ xml: String) -> [(x: Double, y: Double, t: Double)] {
        xml.split(separator: "\n").compactMap { line in
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: " \(name)=\"") else { return nil }
                let rest = line[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { return nil }
                return Double(rest[..<end])
            }
            guard line.contains("<Point"), let x = attribute("X"), let y = attribute("Y"), let t = attribute("T") else { return nil }
            return (x, y, t)
        }
    }

    /// NDJSON of one finger drawing each stroke with its own timing, a second
    /// apart, at 0.3 mm a pixel (a Pocket PC's screen) on a 16 units/mm panel.
    static func recording(_ strokes: [[(x: Double, y: Double, t: Double)]]) -> String {
        var lines = ["{\"device\":{\"name\":\"test panel\",\"x\":{\"min\":0,\"max\":4095,\"resolution\":16},\"y\":{\"min\":0,\"max\":2303,\"resolution\":16}}}"]
        var clock = 0.1
        for (n, points) in strokes.enumerated() {
            guard let first = points.first else { continue }
            for (i, p) in points.enumerated() {
                let t = clock + max(0, p.t - first.t) / 1000
                lines.append("{\"t\":\(String(format: "%.3f", t)),\"ev\":\"\(i == 0 ? "down" : "move")\",\"id\":\(n + 1),\"x\":\(Int((p.x * 4.8).rounded())),\"y\":\(Int((p.y * 4.8).rounded()))}")
            }
            clock += max(0, (points.last?.t ?? first.t) - first.t) / 1000 + 0.01
            lines.append("{\"t\":\(String(format: "%.3f", clock)),\"ev\":\"up\",\"id\":\(n + 1)}")
            clock += 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the pigtails and question marks of the $1 logs' four people (10 each a person, medium speed) are each its own shape, untaught")
    func pigtailsAndQuestionMarks() throws {
        var strokes: [[(x: Double, y: Double, t: Double)]] = []
        var expected: [String] = []
        for person in ["s02", "s03", "s04", "s05"] {
            for shape in ["pigtail", "question_mark"] {
                for n in 1...10 {
                    let file = Self.logs.appendingPathComponent("\(person)/medium/\(shape)\(n < 10 ? "0" : "")\(n).xml")
                    guard let xml = try? String(contentsOf: file, encoding: .utf8) else { continue }
                    strokes.append(Self.stroke(xml))
                    expected.append("\(person) \(shape)")
                }
            }
        }
        guard !strokes.isEmpty else { try Test.cancel("the $1 logs are not here (\(Self.logs.path))") }
        let rules = try Binary.temporaryFile("rules.lua", "on(\"shape\", function(g) emit(g.shape) end)\n")
        let result = try Binary.run(["run", "--rules", rules.path], stdin: Data(Self.recording(strokes).utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let got = result.lines.compactMap { Binary.json($0)?["action"] as? String }
        #expect(got == expected.map { String($0.split(separator: " ")[1]) }, "\(zip(expected, got).filter { !$0.0.hasSuffix($0.1) })")
        #expect(got.count == 80)
    }
}
