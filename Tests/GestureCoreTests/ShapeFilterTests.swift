import Testing
@testable import GestureCore

/// What is a shape at all: the filters before matching, as the recognizer
/// applies them at a lift and `shape add` before it learns (ShapeFilter).
@Suite("Shape filters")
struct ShapeFilterTests {
    /// A check drawn by hand: a short leg down to the right, a long one up,
    /// `short` of the long leg's length, `size` mm long.
    static func check(short: Double, size: Double = 30, slant: Double = 0) -> [Vector] {
        let c = Vector(120, 75)
        let down = Vector(cosDegrees(50 + slant), sinDegrees(50 + slant)) * (short * size)
        let up = Vector(cosDegrees(-60 + slant), sinDegrees(-60 + slant)) * size
        var points: [Vector] = []
        for i in 0...10 { points.append(c + down * (Double(i) / 10)) }
        for i in 1...30 { points.append(c + down + up * (Double(i) / 30)) }
        return points
    }

    @Test("a check whose first leg is a sixth or a quarter of its second is recognized, and shape add would learn it, though the swipe's own test calls the first straight")
    func shortLeggedCheck() throws {
        for short in [0.16, 0.25] {
            let points = Self.check(short: short)
            var path = StrokePath()
            for i in 1..<points.count { path.advance(by: points[i] - points[i - 1]) }
            // The swipe would take the shorter one at a lift: most of its path is one straight leg.
            if short < 0.2 { #expect(StrokeShape.lift.flaw(of: path) == nil) }
            #expect(ShapeRecognizer.refusal(of: points) == nil, "first leg \(short)")
            let frames = TouchScript.frames([Drawn.along(points, duration: 0.5)], noise: 0.1)
            let out = TouchScript.recognize(frames, rules: [TouchScript.rule("shape")])
            #expect(out.map(\.event.name) == ["check"], "first leg \(short)")
        }
    }

    @Test("a straight line, a bowed one and a line with a millimetre's hook where it landed are straight: no shape, and shape add refuses them")
    func straight() {
        let c = Vector(120, 75)
        let line = (0...40).map { c + Vector(Double($0), 0) }
        let bowed = (0...40).map { i -> Vector in
            let u = Double(i) / 40
            return c + Vector(40 * u, 4 * 4 * u * (1 - u))
        }
        let hooked = [c + Vector(-1, 1)] + line
        for (label, points) in [("line", line), ("bowed", bowed), ("hooked", hooked)] {
            #expect(ShapeRecognizer.refusal(of: points) == .straightStroke, "\(label)")
            let frames = TouchScript.frames([Drawn.along(points, duration: 0.4)], noise: 0.1)
            #expect(TouchScript.recognize(frames, rules: [TouchScript.rule("shape")]).isEmpty, "\(label)")
        }
    }

    @Test("a drag up and back down along a line is no shape: it went back and forth")
    func thereAndBack() {
        let c = Vector(120, 75)
        let points = (0...30).map { c + Vector(0, Double($0)) } + (0...30).map { c + Vector(0.5, 30 - Double($0)) }
        #expect(ShapeRecognizer.refusal(of: points) == .flatStroke)
    }

    @Test("a circle 10 mm across is a circle; one 5 mm across is too small")
    func smallCircles() {
        for (size, expected) in [(10.0, ["circle"]), (5.0, [])] {
            let frames = TouchScript.frames(Drawn.template("circle", size: size, speed: 40), noise: 0.05)
            #expect(TouchScript.recognize(frames, rules: [TouchScript.rule("shape")]).map(\.event.name) == expected, "\(size) mm")
        }
    }

    @Test("a shape slanted 25° is still itself; a caret is never a v however it leans")
    func slanted() throws {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        for name in ["check", "caret", "v", "left_sq_bracket", "triangle"] {
            let template = try #require(BuiltinShapes.templates.first { $0.name == name })
            for slant in [-25.0, 25] {
                let c = cosDegrees(slant), s = sinDegrees(slant)
                let turned = template.stroke.points.map { Vector($0.x * c - $0.y * s, $0.x * s + $0.y * c) * 40 }
                let stroke = try #require(ShapeStroke(path: turned))
                let match = try #require(matcher.best(stroke))
                #expect(match.name == name, "\(name) at \(slant)°: \(match.name)")
            }
        }
    }
}
