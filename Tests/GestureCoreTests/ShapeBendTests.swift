import Testing
@testable import GestureCore

/// Wandering (docs/shapes.md): a drawing that scores as a circle but runs
/// straight or bends back on its way round (`ShapeBend`) is no circle, traced
/// `shape_strays`.
@Suite("Shape bend")
struct ShapeBendTests {
    /// The core's deliveries and its shape failures for a path drawn at
    /// 120 mm/s, as the scribble measure draws it.
    static func run(_ points: [Vector], noise: Double = 0) -> (names: [String?], failures: [TransitionCause], lines: [String]) {
        let plan = Drawn.along(points, duration: Drawn.length(points) / 120)
        var arena = GestureArena(rules: [TouchScript.rule("shape")])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in TouchScript.frames([plan], noise: noise) { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        let failures: [TransitionCause] = arena.traceRecords.compactMap {
            guard case .transition(let t) = $0.entry, t.kind == .shape, t.to == .failed else { return nil }
            return t.cause
        }
        return (out.map(\.event.name), failures, arena.traceLines)
    }

    /// A circle `r` mm across its radius, from the top, `laps` times round.
    static func circle(_ r: Double, laps: Double = 1, dent: Double = 0) -> [Vector] {
        (0...Int(120 * laps)).map { i in
            let a = Double(i) / 120 * 360 - 90
            // A dent pushes the path in over a sixth of the way round, bending it back there.
            let inward = dent * max(0, cosDegrees((a + 90 - 180) * 3)) * (abs(a + 90 - 180) < 60 ? 1 : 0)
            return Vector(120, 75) + Vector(cosDegrees(a), sinDegrees(a)) * (r - inward)
        }
    }

    @Test("a scribble of the tuning seed (99) that a distance takes for a circle is no shape, traced shape_strays: it bends back on its way round")
    func wanderingScribble() throws {
        let r = Self.run(ShapeCalibrationTests.scribbles(2000, seed: 99)[1173])
        #expect(r.names.isEmpty, "\(r.names)")
        let cause = try #require(r.failures.last)
        #expect(cause.identifier == "shape_strays", "\(cause)")
        guard case .shapeStrays(let best, let m) = cause else { Issue.record("\(cause)"); return }
        #expect(best == "circle" && m.quantity == "least bend", "\(cause)")
        #expect(r.lines.contains { $0.contains("most like circle, but it wanders where circle does not: least bend") }, "\(r.lines)")
    }

    @Test("real shapes are still shapes: a circle once or twice round, oval or not, a bracket; and the tuning drawers' circles and brackets")
    func shapesStayShapes() {
        #expect(Self.run(Self.circle(20), noise: 0.1).names == ["circle"])
        #expect(Self.run(Self.circle(20, laps: 2), noise: 0.1).names == ["circle"])
        let oval = Self.circle(20).map { Vector(120 + ($0.x - 120) * 1.35, $0.y) }
        #expect(Self.run(oval, noise: 0.1).names == ["circle"])
        let bracket = ShapeCornerTests.legs(Vector(130, 50), Vector(120, 50), Vector(120, 90)) + ShapeCornerTests.legs(Vector(120, 90), Vector(120, 90), Vector(130, 90)).dropFirst()
        #expect(Self.run(Array(bracket), noise: 0.1).names == ["left_sq_bracket"])
        for seed in [UInt64(1), 2, 3] {
            var drawer = ShapeDrawer(seed: seed)
            for _ in 0..<3 {
                for name in ["circle", "right_sq_bracket", "question_mark"] {
                    let got = ShapeEvaluation.outcome(drawer.draw(name).frames, templates: BuiltinShapes.templates)
                    #expect(got == name, "drawer \(seed): \(name) → \(got)")
                }
            }
        }
    }

    @Test("a circle dented inwards bends back, so it is no circle; the nearest shape that need not bend all round, here a rectangle (the dent's edges are corners), may take it")
    func dentedCircle() {
        let dented = Self.circle(20, dent: 5)
        #expect(ShapeBend.leastTurn(ofDrawing: dented) < ShapeBend.drawnBend)
        #expect(ShapeBend.leastTurn(ofDrawing: Self.circle(20)) > 30)
        #expect(Self.run(dented, noise: 0.1).names == ["rectangle"])
    }

    @Test("only the circle bends all round; no taught shape is asked to")
    func whichShapesBend() throws {
        #expect(Set(BuiltinShapes.templates.filter(\.bendsAllRound).map(\.name)) == ["circle"])
        let taught = try #require(ShapeTemplate(name: "circle", path: Self.circle(20), anyDirection: true))
        #expect(!taught.bendsAllRound)
    }
}
