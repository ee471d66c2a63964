import Foundation
import Testing

/// Strokes drawn as a hand draws them, not as synth does: hooks at the
/// release, arms off the axis, round corners, a flick, a stop midway, a
/// wobble. Each is written by hand here as a path in millimetres and played
/// as a mouse reports it (125 Hz, whole counts at 1000 dpi), then read by
/// `explain` through the shared mouse's gate.
@Suite("hand-drawn mouse strokes read as drawn")
struct MouseHandStrokesTests {
    struct Stroke {
        var name: String
        var reads: String
        /// Corners of the path from the press, mm (y down); a corner's curve is its points.
        var path: [(Double, Double)]
        var duration: Double
        var stopMidway = false
    }

    /// A quarter or half circle of `radius` around `centre`, from `from` degrees by `sweep`, as points.
    static func arc(centre: (Double, Double), radius: Double, from: Double, sweep: Double) -> [(Double, Double)] {
        (1...12).map { i in
            let a = (from + sweep * Double(i) / 12) * .pi / 180
            return (centre.0 + radius * cos(a), centre.1 + radius * sin(a))
        }
    }

    static let strokes: [Stroke] = [
        Stroke(name: "left, a 2 mm hook down at the release", reads: "left", path: [(0, 0), (-35, 0), (-35, 2)], duration: 0.25),
        Stroke(name: "left, drawn 10° low", reads: "left", path: [(0, 0), (-34, 6)], duration: 0.25),
        Stroke(name: "up, 18° off the vertical", reads: "up", path: [(0, 0), (-10, -30)], duration: 0.3),
        Stroke(name: "an L, left then up, round at its corner", reads: "left-up",
               path: [(0, 0), (-25, 0)] + arc(centre: (-25, -6), radius: 6, from: 90, sweep: 90) + [(-31, -26)], duration: 0.45),
        Stroke(name: "an L, up then left", reads: "up,left", path: [(0, 0), (0, -30), (-30, -30)], duration: 0.45),
        Stroke(name: "a U with a round bottom", reads: "down-right-up",
               path: [(0, 0), (0, 25)] + arc(centre: (10, 25), radius: 10, from: 180, sweep: -180) + [(20, 0)], duration: 0.7),
        Stroke(name: "a flick left, 40 mm in 80 ms", reads: "left", path: [(0, 0), (-40, 0)], duration: 0.08),
        Stroke(name: "a slow left, 30 mm in 1.2 s, stopping 150 ms midway", reads: "left", path: [(0, 0), (-30, 0)], duration: 1.2, stopMidway: true),
        Stroke(name: "right, wobbling 1.5 mm sideways", reads: "right", path: [(0, 0), (8, 1.5), (16, -1.5), (24, 1.5), (32, 0)], duration: 0.3),
        Stroke(name: "left, 6 mm", reads: "left", path: [(0, 0), (-6, 0)], duration: 0.12),
    ]

    /// The stroke as NDJSON mouse lines from `start`: the press, motion every
    /// 8 ms along the path eased in and out, the release 30 ms after.
    static func lines(_ stroke: Stroke, from start: Double) -> (lines: [String], end: Double) {
        var lengths = [0.0]
        for (a, b) in zip(stroke.path, stroke.path.dropFirst()) { lengths.append(lengths.last! + hypot(b.0 - a.0, b.1 - a.1)) }
        let total = lengths.last!
        var out = [#"{"t":\#(start),"ev":"press","button":"right"}"#]
        var t = start + 0.05
        var sent = (0, 0)
        let steps = max(2, Int(stroke.duration * 125))
        for k in 1...steps {
            let u = Double(k) / Double(steps)
            let along = u * u * (3 - 2 * u) * total
            var j = 1
            while j < lengths.count - 1, lengths[j] < along { j += 1 }
            let f = (along - lengths[j - 1]) / max(1e-9, lengths[j] - lengths[j - 1])
            let a = stroke.path[j - 1], b = stroke.path[j]
            let counts = (Int(((a.0 + (b.0 - a.0) * f) * 1000 / 25.4).rounded()), Int(((a.1 + (b.1 - a.1) * f) * 1000 / 25.4).rounded()))
            t += 0.008
            if stroke.stopMidway, k == steps / 2 { t += 0.15 }
            guard counts != sent else { continue }
            out.append(#"{"t":\#(t),"ev":"motion","dx":\#(counts.0 - sent.0),"dy":\#(counts.1 - sent.1)}"#)
            sent = counts
        }
        out.append(#"{"t":\#(t + 0.03),"ev":"release","button":"right"}"#)
        return (out, t + 0.03)
    }

    @Test("each hand-drawn stroke reads as the stroke it was drawn as, 10 of 10, in four directions")
    func readAsDrawn() throws {
        var lines: [String] = []
        var t = 0.1
        for stroke in Self.strokes {
            let drawn = Self.lines(stroke, from: t)
            lines += drawn.lines
            t = drawn.end + 0.8
        }
        let input = try Binary.temporaryFile("hand.ndjson", lines.joined(separator: "\n") + "\n")
        let names = Set(Self.strokes.map(\.reads)).sorted()
        let rules = try Binary.temporaryFile("hand.lua", names.map { #"on("right-drag \#($0)", function(g) end)"# }.joined(separator: "\n") + "\n")
        let result = try Binary.run(["explain", "--json", "--rules", rules.path, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        let presses = result.lines.compactMap(Binary.json).filter { $0["press"] != nil }
        #expect(presses.count == Self.strokes.count)
        for (stroke, press) in zip(Self.strokes, presses) {
            #expect(press["outcome"] as? String == "taken" && press["stroke"] as? String == stroke.reads, "\(stroke.name): \(press["why"] ?? "")")
        }
    }
}
