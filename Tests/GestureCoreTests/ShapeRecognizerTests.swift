import Testing
@testable import GestureCore

/// One finger drawing a polyline at an even pace along it.
enum Drawn {
    static func along(_ points: [Vector], duration: Double, lands: Double = 0, liftAfter: Double = 0.02) -> FingerPlan {
        var lengths = [0.0]
        for i in 1..<points.count { lengths.append(lengths[i - 1] + points[i].distance(to: points[i - 1])) }
        let total = lengths[lengths.count - 1]
        return FingerPlan(lands: lands, lifts: lands + duration + liftAfter) { t in
            let target = min(max((t - lands) / duration, 0), 1) * total
            var i = 1
            while i < points.count - 1, lengths[i] < target { i += 1 }
            let span = lengths[i] - lengths[i - 1]
            let f = span > 0 ? (target - lengths[i - 1]) / span : 0
            return points[i - 1] + (points[i] - points[i - 1]) * f
        }
    }

    /// A template drawn `size` mm across around `centre`, at `speed` mm/s along its path.
    static func template(_ name: String, size: Double = 45, centre: Vector = Vector(120, 75), speed: Double = 100, reversed: Bool = false) -> [FingerPlan] {
        guard let template = BuiltinShapes.templates.first(where: { $0.name == name }) else { return [] }
        var points = template.stroke.points.map { centre + $0 * size }
        if reversed { points.reverse() }
        return [along(points, duration: length(points) / speed)]
    }

    static func length(_ points: [Vector]) -> Double {
        var l = 0.0
        for i in 1..<points.count { l += points[i].distance(to: points[i - 1]) }
        return l
    }
}

@Suite("Shape recognizer")
struct ShapeRecognizerTests {
    static let swipeRules = ["swipe left", "swipe right", "swipe up", "swipe down"].map { TouchScript.rule($0) }

    @Test("every built-in shape drawn with a finger, either way round, is recognized as itself at its lift")
    func builtIns() throws {
        for name in BuiltinShapes.names {
            for reversed in [false, true] {
                let frames = TouchScript.frames(Drawn.template(name, reversed: reversed), noise: 0.15)
                let out = TouchScript.recognize(frames, rules: [TouchScript.rule("shape")])
                #expect(out.map { $0.event.name } == [name], "\(name) reversed: \(reversed)")
                let lift = try #require(frames.last?.time)
                #expect(out.first?.event.time == lift)
                #expect((out.first?.event.score ?? 0) > 0.8, "\(name): \(out.first?.event.score ?? 0)")
            }
        }
    }

    @Test("a rule for one shape gets only that shape; a rule's min_score is a floor")
    func namesAndScores() {
        let circle = TouchScript.frames(Drawn.template("circle"), noise: 0.15)
        let star = TouchScript.frames(Drawn.template("star"), noise: 0.15)
        #expect(TouchScript.recognize(circle, rules: [TouchScript.rule("shape circle")]).map(\.rule) == [0])
        #expect(TouchScript.recognize(star, rules: [TouchScript.rule("shape circle")]).isEmpty)
        var strict = GestureSpec(kind: .shape, name: "circle")
        strict.minScore = 0.999
        #expect(TouchScript.recognize(circle, rules: [GestureRule(spec: strict)]).isEmpty)
    }

    @Test("the phrase names the shape in words, hyphens or underscores")
    func phrase() throws {
        for phrase in ["shape left curly brace", "Shape Left-Curly-Brace", "shape left_curly_brace"] {
            guard case .success(let spec) = PhraseParser.parse(phrase) else { Issue.record("\(phrase) did not parse"); continue }
            #expect(spec.kind == .shape && spec.name == "left_curly_brace" && spec.phrase == "shape left_curly_brace")
        }
        guard case .success(let any) = PhraseParser.parse("shape") else { Issue.record("shape did not parse"); return }
        #expect(any.name == nil)
        guard case .failure(let error) = PhraseParser.parse("two-finger shape circle") else { Issue.record("parsed"); return }
        #expect(error.reason == "a shape is drawn with one finger; remove \"fingers\"")
    }

    @Test("swipes, taps and slow drags are never shapes, and swipes fire exactly when they did without shape rules")
    func notShapes() throws {
        var gestures: [[FingerPlan]] = []
        var random = XorShift(seed: 14)
        for i in 0..<48 {
            let angle = Double(i % 4) * 90 + random.range(-20, 20)
            // Flicks, strokes at the commit speed, and slow drags that are no swipe.
            let speed = [400.0, 150, 30][i % 3]
            let length = random.range(25, 60)
            gestures.append(TouchScript.stroke(fingers: 1, angle: angle, length: length, duration: length / speed, bow: random.range(-4, 4)))
            gestures.append(TouchScript.press(fingers: 1, duration: random.range(0.05, 0.15), drift: Vector(random.range(-1, 1), random.range(-1, 1))))
        }
        let frames = TouchScript.sequence(gestures, gap: 0.9)
        let without = TouchScript.recognize(frames, rules: Self.swipeRules + [TouchScript.rule("tap")])
        let with = TouchScript.recognize(frames, rules: Self.swipeRules + [TouchScript.rule("tap"), TouchScript.rule("shape")])
        #expect(!with.contains { $0.event.kind == .shape })
        #expect(with.map(\.event) == without.map(\.event))
        #expect(with.filter { $0.event.kind == .swipe }.count == 32)
        // Nothing else bound: still no shape.
        #expect(TouchScript.recognize(frames, rules: [TouchScript.rule("shape")]).isEmpty)
    }

    @Test("an X drawn as two lines within shape_gap is one shape; with no gap it is none")
    func twoStrokes() throws {
        let c = Vector(120, 75)
        let first = Drawn.along([c + Vector(-20, -20), c + Vector(20, 20)], duration: 0.35)
        var second = Drawn.along([c + Vector(20, -20), c + Vector(-20, 20)], duration: 0.35, lands: 0.6)
        second.lifts = 0.6 + 0.35 + 0.02
        let frames = TouchScript.frames([first, second])
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("shape x")])
        #expect(out.map { $0.event.name } == ["x"])
        var noGap = Thresholds()
        noGap[.shapeGap] = 0
        #expect(TouchScript.recognize(frames, rules: [TouchScript.rule("shape x")], thresholds: noGap).isEmpty)
        // Further apart than the gap: two lines, no shape.
        let apart = TouchScript.frames([first, Drawn.along([c + Vector(20, -20), c + Vector(-20, 20)], duration: 0.35, lands: 1.5)])
        #expect(TouchScript.recognize(apart, rules: [TouchScript.rule("shape x")]).isEmpty)
    }

    @Test("two fingers drawing a circle, or a small one, are no shape; the trace says why")
    func failures() throws {
        let two = TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (20, 20), turn: 300, duration: 0.8))
        var arena = GestureArena(rules: [TouchScript.rule("shape")])
        arena.tracing = true
        var out: [Delivery] = []
        for frame in two { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        #expect(out.isEmpty)
        #expect(arena.traceLines.contains { $0.hasSuffix("shape: possible → 2 fingers, more than any shape rule → failed") }, "\(arena.traceLines)")

        let small = TouchScript.frames(Drawn.template("circle", size: 5, speed: 40))
        var arena2 = GestureArena(rules: [TouchScript.rule("shape")])
        arena2.tracing = true
        for frame in small { arena2.handle(frame, into: &out) }
        arena2.finish(into: &out)
        #expect(out.isEmpty)
        #expect(arena2.traceLines.contains { $0.contains("shape: possible → too small for a shape: drawn across 5") && $0.hasSuffix(" mm < 8 mm (shape_min_size) → failed") }, "\(arena2.traceLines)")
    }

    @Test("a shape recognized claims its sequence: a long press bound beside it does not fire")
    func claims() {
        let frames = TouchScript.frames(Drawn.template("triangle"))
        let out = TouchScript.recognize(frames, rules: [TouchScript.rule("shape"), TouchScript.rule("tap"), TouchScript.rule("pan")])
        // A pan begins long before the lift and wins, as rules that bind both ask by default.
        #expect(out.map { $0.event.kind } == [.pan])
        let held = [TouchScript.rule("shape", name: "shape"), TouchScript.rule("pan", requiresFailureOf: ["shape"])]
        #expect(TouchScript.recognize(frames, rules: held).map { $0.event.kind } == [.shape])
    }
}
