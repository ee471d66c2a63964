import Foundation
import Testing
@testable import GestureCore

/// Where the default `shape_min_score` comes from: correct matches of real
/// strokes against the built-in shapes, and random scribbles that are no shape
/// (docs/shapes.md, "Scores"). The figures are printed for the document.
@Suite("Shape score calibration")
struct ShapeCalibrationTests {
    /// A smooth random walk, 40 to 200 mm long: a finger wandering with no shape in mind.
    static func scribbles(_ count: Int, seed: UInt64 = 99) -> [[Vector]] {
        var rng = XorShift(seed: seed)
        return (0..<count).map { _ in
            var p = Vector(120, 75), heading = rng.range(0, 360), turnRate = 0.0
            var points = [p]
            let length = rng.range(40, 200)
            let wiggle = rng.range(2, 25)
            for _ in 0..<Int(length) {
                turnRate = turnRate * 0.9 + rng.range(-wiggle, wiggle)
                heading += turnRate
                p = p + Vector(cosDegrees(heading), sinDegrees(heading))
                points.append(p)
            }
            return points
        }
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]
    }

    /// s02 is the check made at the end, not what the limits were set on
    /// (docs/shapes.md, "How well it works"): 191/192 with the chosen limits.
    @Test("at the default min_score, 98% of the $1 logs' s02 strokes match their own built-in shape",
          .enabled(if: DollarLogs.present, "../shared/data/real is absent"))
    func realStrokes() {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        let least = Threshold.shapeMinScore.defaultValue
        var scores: [Double] = []
        var accepted = 0
        for sample in DollarLogs.samples {
            guard let stroke = ShapeStroke(path: sample.points), let match = matcher.best(stroke), match.name == sample.shape else { continue }
            scores.append(match.score)
            if match.score >= least { accepted += 1 }
        }
        scores.sort()
        let share = Double(accepted) / Double(DollarLogs.samples.count)
        print("calibration: s02 correct-match scores: min \(scores.first ?? .nan), p1 \(Self.quantile(scores, 0.01)), p5 \(Self.quantile(scores, 0.05)), median \(Self.quantile(scores, 0.5)); accepted at \(least): \(accepted)/\(DollarLogs.samples.count), at 0.85: \(scores.filter { $0 >= 0.85 }.count)")
        // 98%: two question marks score just under 0.8 since built-in shapes
        // may be turned to meet a stroke (189 of 192; docs/shapes.md).
        #expect(share >= 0.98)
    }

    @Test("random scribbles through the shape recognizer: at most 3% are taken for a shape at the default min_score")
    func scribbles() {
        let (reported, total, scores, _) = ShapeEvaluation.scribbleAcceptance()
        let share = Double(reported) / Double(total)
        print("calibration: scribbles matched by some shape: \(scores.count)/\(total); scores p50 \(Self.quantile(scores, 0.5)), p95 \(Self.quantile(scores, 0.95)), p99 \(Self.quantile(scores, 0.99)); reported at the default: \(reported) (\(share)), at 0.85: \(scores.filter { $0 >= 0.85 }.count)")
        #expect(share <= 0.03)
    }

    /// The $1 logs' strokes as touches: their own timing, at 0.3 mm a pixel
    /// (a Pocket PC's screen; the shapes come out 21 to 45 mm across).
    static func frames(_ path: String, scale: Double = 0.3) -> [TouchFrame] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var points: [(Double, Vector)] = []
        for line in text.split(separator: "\n") where line.contains("<Point") {
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: " \(name)=\"") else { return nil }
                let rest = line[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { return nil }
                return Double(rest[..<end])
            }
            guard let x = attribute("X"), let y = attribute("Y"), let t = attribute("T") else { continue }
            points.append((t / 1000, Vector(x * scale, y * scale)))
        }
        guard let t0 = points.first?.0 else { return [] }
        var frames: [TouchFrame] = []
        for (i, (t, p)) in points.enumerated() {
            let time = 1 + t - t0
            // Two points in one millisecond are one frame: the later one.
            if let last = frames.last, last.time >= time { frames.removeLast() }
            let phase: TouchPhase = i == 0 ? .began : (i == points.count - 1 ? .ended : .moved)
            frames.append(TouchFrame(time: max(time, frames.last?.time ?? 0), touches: [Touch(id: 1, position: p, phase: phase)], surface: Surface(width: 72, height: 96)))
        }
        return frames
    }

    @Test("the $1 logs' s02 strokes, drawn with their own timing through the arena: 98% each its own shape; with swipe rules bound, those whose straight first leg is fast enough are swipes, the rest still their shapes",
          .enabled(if: DollarLogs.present, "../shared/data/real is absent"))
    func endToEnd() {
        let swipes = ["swipe left", "swipe right", "swipe up", "swipe down"].map { TouchScript.rule($0) }
        var alone: [String: String] = [:]
        for (label, rules) in [("shape rules only", [TouchScript.rule("shape")]), ("with swipe rules", swipes + [TouchScript.rule("shape")])] {
            var correct = 0
            var outcomes: [String: Int] = [:]
            for sample in DollarLogs.samples {
                let out = TouchScript.recognize(Self.frames(sample.path), rules: rules)
                let got = out.first.map { $0.event.kind == .shape ? ($0.event.name ?? "?") : "swipe \($0.event.direction?.rawValue ?? "")" } ?? "nothing"
                if rules.count == 1 { alone[sample.file] = got }
                if got == sample.shape { correct += 1 } else { outcomes["\(sample.shape)→\(got)", default: 0] += 1 }
                // A swipe takes a stroke, or the stroke is what it is without swipe rules.
                if rules.count > 1 { #expect(got.hasPrefix("swipe") || got == alone[sample.file], "\(sample.file): \(got)") }
            }
            let share = Double(correct) / Double(DollarLogs.samples.count)
            print("calibration: s02 through the arena, \(label): \(correct)/\(DollarLogs.samples.count) = \(share); otherwise: \(outcomes)")
            if rules.count == 1 { #expect(share >= 0.98, "\(outcomes)") }
        }
    }
}
