import Testing
@testable import GestureCore

/// A shape with a corner is drawn with one: a smooth curve near a check, a
/// caret or a bracket is a finger wandering (ShapeCorners, docs/shapes.md).
@Suite("Shape corners")
struct ShapeCornerTests {
    /// A quadratic curve from `a` to `b` pulled towards `corner`: the corner's
    /// two legs with the turn spread over the whole path.
    static func swoosh(_ a: Vector, _ corner: Vector, _ b: Vector, steps: Int = 60) -> [Vector] {
        (0...steps).map { i in
            let t = Double(i) / Double(steps)
            return a * ((1 - t) * (1 - t)) + corner * (2 * t * (1 - t)) + b * (t * t)
        }
    }

    /// The same legs, straight, meeting at `corner`.
    static func legs(_ a: Vector, _ corner: Vector, _ b: Vector, steps: Int = 30) -> [Vector] {
        (0...steps).map { a + (corner - a) * (Double($0) / Double(steps)) }
            + (1...steps).map { corner + (b - corner) * (Double($0) / Double(steps)) }
    }

    static func trace(_ points: [Vector]) -> (names: [String?], lines: [String]) {
        let frames = TouchScript.frames([Drawn.along(points, duration: 0.5)], noise: 0.1)
        var arena = GestureArena(rules: [TouchScript.rule("shape")])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        return (out.map(\.event.name), arena.traceLines)
    }

    @Test("a smooth curve near a check or a caret is no shape, and the trace says it has no corner; drawn with its corner, it is the shape")
    func smoothCurvesAreNoShape() throws {
        let c = Vector(120, 75)
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        for (name, corner, end) in [("check", Vector(8, 14), Vector(30, -30)), ("caret", Vector(20, -50), Vector(40, 0))] {
            let smooth = Self.swoosh(c, c + corner, c + end)
            // Close enough to be taken for the shape by distance alone.
            let stroke = try #require(ShapeStroke(path: smooth))
            let match = try #require(matcher.best(stroke))
            #expect(match.name == name && match.score >= 0.85 && match.needsCorner, "\(match)")
            let curved = Self.trace(smooth)
            #expect(curved.names.isEmpty, "\(name): \(curved.names)")
            #expect(curved.lines.contains { $0.contains("shape: possible → most like \(name), which has a corner where this drawing only curves: sharpest turn ") && $0.hasSuffix("° < 50° → failed") },
                    "\(curved.lines)")
            let cornered = Self.trace(Self.legs(c, c + Vector(corner.x, corner.y * 0.6), c + end))
            #expect(cornered.names == [name])
        }
    }

    @Test("built-in shapes with corners need them (arrow, caret, check, the brackets and braces, delete mark, pigtail, rectangle, star, triangle, v, x); circle and question mark do not, and no taught shape does")
    func whichShapesHaveCorners() throws {
        let cornered = Set(BuiltinShapes.templates.filter(\.hasCorner).map(\.name))
        // The pigtail's loop is small beside its long tails: its heading
        // turns 84° over a tenth of its path, round the loop.
        #expect(cornered == ["arrow", "caret", "check", "delete_mark", "left_curly_brace", "left_sq_bracket", "pigtail", "rectangle",
                             "right_curly_brace", "right_sq_bracket", "star", "triangle", "v", "x"])
        let taught = try #require(ShapeTemplate(name: "check", path: Self.legs(Vector(0, 0), Vector(8, 14), Vector(30, -30)), anyDirection: false))
        #expect(!taught.hasCorner)
    }

    @Test("the sharpest turn: none on a line, about 90° where two legs meet square, 180° where a path doubles back; sensor noise makes no corner")
    func sharpestTurn() {
        let line = (0...40).map { Vector(Double($0), 0) }
        #expect(ShapeCorners.sharpestTurn(ofDrawing: line) < 1)
        let square = Self.legs(Vector(0, 0), Vector(30, 0), Vector(30, 30))
        // Resampled evenly, the corner may fall between two points and lose a little.
        #expect((80...90).contains(ShapeCorners.sharpestTurn(ofDrawing: square)))
        let back = Self.legs(Vector(0, 0), Vector(30, 0), Vector(0, 0.01))
        #expect(ShapeCorners.sharpestTurn(ofDrawing: back) > 170)
        // A 40 mm line shaking 0.3 mm either way every 0.5 mm, the drawers' worst sensor noise.
        let shaky = (0...80).map { Vector(Double($0) / 2, $0 % 2 == 0 ? 0.3 : -0.3) }
        #expect(ShapeCorners.sharpestTurn(ofDrawing: shaky) < 30)
        #expect(ShapeCorners.sharpestTurn(ofDrawing: [Vector(1, 1)]) == 0)
    }
}
