import Foundation
import Testing
@testable import GestureCore

/// The $1 logs' four people, their strokes handed to the mouse's shape rules
/// as a shared mouse hands them (a path in millimetres from the press, 0.3 mm
/// a pixel, their own timing): a mouse's drawing is judged as a finger's is, so
/// it must be recognized as well as the same strokes through the touch core.
@Suite("Shapes drawn with a mouse button, on real people's strokes")
struct MouseShapePeopleTests {
    static func outcome(_ path: [MouseStrokeReading.Point]) -> String {
        let rules = [GestureRule(spec: GestureSpec(kind: .shape, button: .right), isActive: true)]
        switch MouseShapeRules(templates: BuiltinShapes.templates, thresholds: Thresholds()).match(path, button: .right, rules: rules, at: 1) {
        case .taken(let match)?: return match.shape.name
        case .refused(let cause)?: return "nothing (\(cause))"
        case nil: return "nothing (unbound)"
        }
    }

    @Test("each of s02–s05: as a mouse's drawings, untaught, at least the touch core's floor (98.5%), and the same outcome as through the touch core for at least 99% of strokes",
          arguments: DollarLogs.people)
    func person(_ person: String) throws {
        guard DollarLogs.present(person) else { try Test.cancel("\(person)'s $1 log is not here (\(DollarLogs.directory(of: person)))") }
        var mouse = ShapeEvaluation.Tally(), touch = ShapeEvaluation.Tally()
        var agree = 0, total = 0
        for sample in DollarLogs.samples(of: person) {
            let frames = ShapeCalibrationTests.frames(sample.path)
            let path = frames.compactMap { f in f.touches.first.map { MouseStrokeReading.Point(time: f.time, x: $0.position.x, y: $0.position.y) } }
            let viaMouse = Self.outcome(path)
            let viaTouch = ShapeEvaluation.outcome(frames, templates: BuiltinShapes.templates)
            mouse.add(sample.shape, viaMouse)
            touch.add(sample.shape, viaTouch)
            total += 1
            if viaMouse == viaTouch || (viaMouse.hasPrefix("nothing") && viaTouch.hasPrefix("nothing")) { agree += 1 }
        }
        print("mouse-shapes: \(person) ($1 logs as mouse paths, 0.3 mm a pixel), untaught: \(mouse.figure) (touch core \(touch.figure)); same outcome \(agree)/\(total); confusions: \(mouse.top(6))")
        #expect(total >= 160)
        #expect(mouse.accuracy >= ShapeEvaluationTests.peopleFloors.untaught, "\(person): \(mouse.top(8))")
        #expect(Double(agree) >= 0.99 * Double(total), "\(person): \(agree)/\(total)")
    }
}

extension MouseShapePeopleTests {
    /// examples/mouse.shapes.jsonl's template, read as `ShapeFile` reads it.
    static func exampleCircle() throws -> ShapeTemplate {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("examples/mouse.shapes.jsonl"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let points = try #require(object["points"] as? [[Double]]).compactMap { $0.count == 2 ? Vector($0[0], $0[1]) : nil }
        return try #require(ShapeTemplate(name: "circle", path: points, anyDirection: object["anyDirection"] as? Bool ?? false))
    }

    @Test("examples/mouse.lua's taught circle, on real people: it takes their circles, either way round, and few of their other shapes",
          arguments: DollarLogs.people)
    func exampleCircle(_ person: String) throws {
        guard DollarLogs.present(person) else { try Test.cancel("\(person)'s $1 log is not here (\(DollarLogs.directory(of: person)))") }
        let library = BuiltinShapes.templates.filter { $0.name != "circle" } + [try Self.exampleCircle()]
        let rules = [GestureRule(spec: GestureSpec(kind: .shape, name: "circle", button: .right), isActive: true)]
        let shapes = MouseShapeRules(templates: library, thresholds: Thresholds())
        var circles = 0, taken = 0, others = 0, wrong: [String] = []
        for sample in DollarLogs.samples(of: person) {
            let frames = ShapeCalibrationTests.frames(sample.path)
            let path = frames.compactMap { f in f.touches.first.map { MouseStrokeReading.Point(time: f.time, x: $0.position.x, y: $0.position.y) } }
            let isCircle: Bool
            if case .taken? = shapes.match(path, button: .right, rules: rules, at: 1) { isCircle = true } else { isCircle = false }
            if sample.shape == "circle" {
                circles += 1
                if isCircle { taken += 1 }
            } else {
                others += 1
                if isCircle { wrong.append(sample.file) }
            }
        }
        print("mouse-shapes: \(person), examples/mouse.shapes.jsonl's circle: \(taken)/\(circles) circles taken, \(wrong.count)/\(others) other shapes taken \(wrong)")
        #expect(Double(taken) >= 0.9 * Double(circles))
        #expect(Double(wrong.count) <= 0.01 * Double(others))
    }
}
