import Foundation
import Testing
@testable import GestureCore

/// A small generator with a fixed seed, so the random template draws are the same every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Shape matching")
struct ShapeMatcherTests {
    @Test("each built-in shape matches itself, moved and scaled, with a score near 1")
    func selfMatch() throws {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        #expect(Set(BuiltinShapes.templates.map(\.name)) == Set(BuiltinShapes.names))
        for template in BuiltinShapes.templates {
            let moved = template.stroke.points.map { $0 * 37 + Vector(120, -40) }
            let stroke = try #require(ShapeStroke(path: moved))
            let match = try #require(matcher.best(stroke))
            #expect(match.name == template.name)
            #expect(match.score > 0.97, "\(template.name): \(match.score)")
            // The other way round is the same shape.
            #expect(matcher.best(stroke.reversed)?.name == template.name)
        }
    }

    @Test("a closed shape matches from any starting point")
    func loopStart() throws {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        let star = try #require(BuiltinShapes.templates.first { $0.name == "star" })
        var points = star.stroke.points
        points.removeLast()
        for shift in stride(from: 3, to: points.count, by: 7) {
            let turned = Array(points[shift...] + points[..<shift]) + [points[shift]]
            #expect(matcher.best(try #require(ShapeStroke(path: turned)))?.name == "star")
        }
    }

    @Test("a path that goes nowhere is no stroke")
    func degenerate() {
        #expect(ShapeStroke(path: []) == nil)
        #expect(ShapeStroke(path: [Vector(1, 1)]) == nil)
        #expect(ShapeStroke(path: [Vector(1, 1), Vector(1, 1), Vector(1, 1)]) == nil)
        #expect(ShapeStroke(path: [Vector(.nan, 1), Vector(1, .infinity)]) == nil)
    }

    @Test("untaught: the built-in shapes recognize every s02 stroke of the $1 logs at 95% or better",
          .enabled(if: DollarLogs.present, "../shared/data/real is absent"))
    func untaught() throws {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        var correct = 0
        var confusions: [String: Int] = [:]
        for sample in DollarLogs.samples {
            guard let stroke = ShapeStroke(path: sample.points), let match = matcher.best(stroke) else { continue }
            if match.name == sample.shape { correct += 1 } else { confusions["\(sample.shape)→\(match.name)", default: 0] += 1 }
        }
        let accuracy = Double(correct) / Double(DollarLogs.samples.count)
        print("shapes, untaught: \(correct)/\(DollarLogs.samples.count) = \(accuracy); confusions: \(confusions)")
        #expect(DollarLogs.samples.count == 192)
        #expect(accuracy >= 0.95, "confusions: \(confusions)")
    }

    @Test("taught by the same person, 20 random draws: 1 template per shape ≥ 99%, 3 templates ≥ 99.5%",
          .enabled(if: DollarLogs.present, "../shared/data/real is absent"), arguments: [(1, 0.99), (3, 0.995)])
    func taught(perShape: Int, target: Double) throws {
        var rng = SplitMix(state: 2007)
        let strokes = DollarLogs.samples.compactMap { s in ShapeStroke(path: s.points).map { (s.shape, $0, s.points) } }
        let byShape = Dictionary(grouping: strokes.indices, by: { strokes[$0].0 })
        var correct = 0, total = 0
        var confusions: [String: Int] = [:]
        for _ in 0..<20 {
            var taught: [ShapeTemplate] = []
            var tests: [Int] = []
            for shape in byShape.keys.sorted() {
                let picked = (byShape[shape] ?? []).shuffled(using: &rng)
                for i in picked.prefix(perShape) {
                    if let t = ShapeTemplate(name: shape, path: strokes[i].2, anyDirection: false) { taught.append(t) }
                }
                tests += picked.dropFirst(perShape)
            }
            let matcher = ShapeMatcher(templates: taught)
            for i in tests {
                total += 1
                let got = matcher.best(strokes[i].1)?.name
                if got == strokes[i].0 { correct += 1 } else { confusions["\(strokes[i].0)→\(got ?? "-")", default: 0] += 1 }
            }
        }
        let accuracy = Double(correct) / Double(total)
        print("shapes, taught with \(perShape) per shape: \(correct)/\(total) = \(accuracy); confusions: \(confusions)")
        #expect(accuracy >= target, "confusions: \(confusions)")
    }
}
