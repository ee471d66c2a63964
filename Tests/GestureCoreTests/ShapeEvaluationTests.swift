import Foundation
import Testing
@testable import GestureCore

/// How well drawn shapes are recognized for people the filters were never
/// tuned on: the simulated drawers of `ShapeDrawer`, seeds held out from
/// tuning, drawn through the whole core with a shape rule bound
/// (docs/shapes.md, "How well it works"). `scripts/shape-eval` prints the
/// figures; the $1 logs' s02 come last, as a check made at the end.
enum ShapeEvaluation {
    /// The drawers the filters and the score scale were set on.
    static let tuningSeeds: [UInt64] = Array(1...UInt64(people))
    /// Never looked at while tuning.
    static let heldOutSeeds: [UInt64] = Array(1001...UInt64(1000 + people))
    /// People in each set: 40, or `SHAPE_EVAL_PEOPLE` (`scripts/shape-eval --people N`).
    static let people = max(1, Int(ProcessInfo.processInfo.environment["SHAPE_EVAL_PEOPLE"] ?? "") ?? 40)
    static let drawingsPerShape = 6
    /// Random choices of templates per person.
    static let teachingRounds = 3

    struct Person {
        var seed: UInt64
        /// Each shape's drawings, in the order of `BuiltinShapes.names`.
        var drawings: [String: [ShapeDrawer.Drawing]]
    }

    static func people(_ seeds: [UInt64]) -> [Person] {
        seeds.map { seed in
            var drawer = ShapeDrawer(seed: seed)
            var drawings: [String: [ShapeDrawer.Drawing]] = [:]
            for _ in 0..<drawingsPerShape {
                for name in BuiltinShapes.names { drawings[name, default: []].append(drawer.draw(name)) }
            }
            return Person(seed: seed, drawings: drawings)
        }
    }

    struct Tally {
        var correct = 0
        var total = 0
        var confusions: [String: Int] = [:]

        var accuracy: Double { total > 0 ? Double(correct) / Double(total) : .nan }

        mutating func add(_ expected: String, _ got: String) {
            total += 1
            if got == expected { correct += 1 } else { confusions["\(expected)→\(got)", default: 0] += 1 }
        }

        /// `correct/total = 99.1%`.
        var figure: String { "\(correct)/\(total) = \(String(format: "%.2f", accuracy * 100))%" }

        func top(_ n: Int) -> String {
            let sorted = confusions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            return sorted.prefix(n).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// What the core made of a drawing: the shape's name, or why it was none.
    static func outcome(_ frames: [TouchFrame], templates: [ShapeTemplate]) -> String {
        var arena = GestureArena(rules: [TouchScript.rule("shape")])
        arena.setUserGestures(recognizers: [], templates: templates)
        arena.tracing = true
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        if let name = out.first?.event.name { return name }
        for record in arena.traceRecords {
            guard case .transition(let t) = record.entry, t.kind == .shape, t.to == .failed else { continue }
            switch t.cause {
            case .shapeTooSmall: return "nothing (too small)"
            case .straightStroke: return "nothing (straight)"
            case .flatStroke: return "nothing (back and forth)"
            case .shapeUnmatched(let best, _): return "nothing (\(best), low score)"
            case .shapeWithoutCorner(let best, _): return "nothing (\(best), no corner)"
            case .shapeStrays(let best, _): return "nothing (\(best), strays)"
            default: return "nothing (\(t.cause))"
            }
        }
        return "nothing"
    }

    /// An SVG sheet of each person's first drawing of every shape, a row a person.
    static func sheet(_ people: [Person]) -> String {
        let cell = 90.0
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(cell * 16)\" height=\"\(cell * Double(people.count))\"><rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        for (row, person) in people.enumerated() {
            for (column, name) in BuiltinShapes.names.enumerated() {
                guard let points = person.drawings[name]?.first?.points, let first = points.first else { continue }
                let origin = Vector(Double(column) * cell + cell / 2, Double(row) * cell + cell / 2) - Vector(125, 75)
                let d = points.map { p in "\(String(format: "%.1f", p.x + origin.x)),\(String(format: "%.1f", p.y + origin.y))" }.joined(separator: " ")
                svg += "<polyline points=\"\(d)\" fill=\"none\" stroke=\"black\" stroke-width=\"0.6\"/>"
                svg += "<circle cx=\"\(first.x + origin.x)\" cy=\"\(first.y + origin.y)\" r=\"1.5\" fill=\"green\"/>"
            }
        }
        return svg + "</svg>"
    }

    static func untaught(_ people: [Person]) -> Tally {
        var tally = Tally()
        for person in people {
            for name in BuiltinShapes.names {
                for drawing in person.drawings[name] ?? [] { tally.add(name, outcome(drawing.frames, templates: BuiltinShapes.templates)) }
            }
        }
        return tally
    }

    /// Each person teaches `perShape` of their own drawings of every shape, as
    /// `shape add` would (one direction, straight strokes refused), and draws
    /// the rest.
    static func taught(_ people: [Person], perShape: Int) -> (tally: Tally, refused: Int) {
        var tally = Tally()
        var refused = 0
        for person in people {
            let drawings = person.drawings.mapValues { $0.map { ($0.frames, $0.points) } }
            let (t, r) = taught(drawings, perShape: perShape, rounds: teachingRounds, seed: person.seed)
            tally.correct += t.correct
            tally.total += t.total
            tally.confusions.merge(t.confusions, uniquingKeysWith: +)
            refused += r
        }
        return (tally, refused)
    }

    /// One person's drawings, by shape, as frames and the points they passed:
    /// `rounds` times, `perShape` of each shape are taught and the rest drawn.
    static func taught(_ drawings: [String: [([TouchFrame], [Vector])]], perShape: Int, rounds: Int, seed: UInt64) -> (tally: Tally, refused: Int) {
        var tally = Tally()
        var refused = 0
        for round in 0..<rounds {
            var random = XorShift(seed: seed &* 31 &+ UInt64(round))
            var templates: [ShapeTemplate] = []
            var tests: [(String, [TouchFrame])] = []
            for name in drawings.keys.sorted() {
                var pool = drawings[name] ?? []
                for _ in 0..<perShape where !pool.isEmpty {
                    let pick = pool.remove(at: Int(random.next() * Double(pool.count)) % pool.count)
                    if ShapeRecognizer.refusal(of: pick.1) != nil { refused += 1; continue }
                    if let t = ShapeTemplate(name: name, path: pick.1, anyDirection: false) { templates.append(t) }
                }
                tests += pool.map { (name, $0.0) }
            }
            for (name, frames) in tests { tally.add(name, outcome(frames, templates: templates)) }
        }
        return (tally, refused)
    }

    /// The scribble measure of docs/shapes.md: 2,000 smooth random walks, the
    /// share reported as some shape at the default `shape_min_score`.
    static func scribbleAcceptance(_ all: [[Vector]] = ShapeCalibrationTests.scribbles(2000))
        -> (accepted: Int, total: Int, scores: [Double], names: [String: Int]) {
        var accepted = 0
        var names: [String: Int] = [:]
        var scores: [Double] = []
        for points in all {
            let plan = Drawn.along(points, duration: Drawn.length(points) / 120)
            let out = TouchScript.recognize(TouchScript.frames([plan]), rules: [GestureRule(spec: GestureSpec(kind: .shape, minScore: 0))])
            if let e = out.first?.event {
                scores.append(e.score)
                if e.score >= Threshold.shapeMinScore.defaultValue { accepted += 1; names[e.name ?? "?", default: 0] += 1 }
            }
        }
        return (accepted, all.count, scores.sorted(), names)
    }

    /// Scores of correct matches, for setting the scale.
    static func correctScores(_ people: [Person]) -> [Double] {
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        var scores: [Double] = []
        for person in people {
            for (name, drawings) in person.drawings {
                for d in drawings {
                    guard let stroke = ShapeStroke(path: d.points), let m = matcher.best(stroke), m.name == name else { continue }
                    scores.append(m.score)
                }
            }
        }
        return scores.sorted()
    }
}

@Suite("Shape evaluation")
struct ShapeEvaluationTests {
    @Test("the drawers vary: sizes 10 to 80 mm, slants either way, both directions of a circle, and a seed draws the same again")
    func drawersVary() {
        var sizes: [Double] = []
        var slants: [Double] = []
        for seed in ShapeEvaluation.tuningSeeds {
            let d = ShapeDrawer(seed: seed)
            sizes.append(d.habits.size)
            slants.append(d.habits.slant)
        }
        #expect((sizes.min() ?? 99) < 15 && (sizes.max() ?? 0) > 60)
        #expect((slants.min() ?? 0) < -15 && (slants.max() ?? 0) > 15)
        var a = ShapeDrawer(seed: 5), b = ShapeDrawer(seed: 5)
        #expect(a.draw("circle").points == b.draw("circle").points)
    }

    /// The goals of docs/shapes.md: 98% untaught (reached by turning strokes
    /// up to 20° to meet a template), 99% and 99.5% taught, at most 3% of
    /// scribbles (docs/shapes.md, "How well it works").
    static let floors = (untaught: 0.98, one: 0.99, three: 0.995, scribbles: 0.03)

    /// Prints a set of drawers' figures, untaught and taught with 1 and 3
    /// templates, and checks each against its floor.
    static func judge(_ people: [ShapeEvaluation.Person], as label: String) {
        let untaught = ShapeEvaluation.untaught(people)
        print("shape-eval: \(label), untaught (built-in shapes): \(untaught.figure); top confusions: \(untaught.top(8))")
        #expect(untaught.accuracy >= floors.untaught, "\(untaught.top(8))")
        for (k, goal) in [(1, floors.one), (3, floors.three)] {
            let (t, refused) = ShapeEvaluation.taught(people, perShape: k)
            print("shape-eval: \(label), taught with \(k) template\(k == 1 ? "" : "s") of each shape (\(ShapeEvaluation.teachingRounds) random choices a person; \(refused) refused by shape add): \(t.figure); top confusions: \(t.top(8))")
            #expect(t.accuracy >= goal, "\(t.top(8))")
        }
    }

    @Test("held-out drawers, never tuned on: built-in shapes ≥ 98%, taught with 1 template ≥ 99%, with 3 ≥ 99.5%; ≤ 3% of the scribbles the scale was set on (seed 99)")
    func heldOut() {
        let people = ShapeEvaluation.people(ShapeEvaluation.heldOutSeeds)
        print("shape-eval: \(people.count) held-out drawers (seeds \(ShapeEvaluation.heldOutSeeds.first ?? 0)–\(ShapeEvaluation.heldOutSeeds.last ?? 0)), \(ShapeEvaluation.drawingsPerShape) drawings of each of the 16 shapes each, through the core with one shape rule bound")
        Self.judge(people, as: "held-out")
        let s = ShapeEvaluation.scribbleAcceptance()
        let share = Double(s.accepted) / Double(s.total)
        print("shape-eval: random scribbles taken for a shape at shape_min_score \(Threshold.shapeMinScore.defaultValue): \(s.accepted)/\(s.total) = \(String(format: "%.2f", share * 100))%; as \(s.names.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        #expect(share <= Self.floors.scribbles)
    }

    /// Scribbles never looked at while the limits were set: the scale was set
    /// on seed 99, and the corner limits (`ShapeCorners`) on seed 99 and
    /// seeds 4242–8484 (docs/shapes.md, "Scribbles never tuned on").
    static let heldOutScribbleSeeds: [UInt64] = [70001, 70002, 70003, 70004, 70005]

    @Test("scribbles never tuned on (five other seeds of the smooth walks): at most 3% are taken for a shape")
    func heldOutScribbles() {
        let share = Self.scribbleShare(Self.heldOutScribbleSeeds, label: "scribbles never tuned on")
        #expect(share <= Self.floors.scribbles)
    }

    /// The share of 2,000 scribbles a seed taken for a shape, over `seeds`,
    /// printed a seed at a time and in all.
    static func scribbleShare(_ seeds: [UInt64], label: String) -> Double {
        var accepted = 0, total = 0
        for seed in seeds {
            let s = ShapeEvaluation.scribbleAcceptance(ShapeCalibrationTests.scribbles(2000, seed: seed))
            accepted += s.accepted
            total += s.total
            print("shape-eval: \(label) (seed \(seed)) taken for a shape: \(s.accepted)/\(s.total) = \(String(format: "%.2f", Double(s.accepted) / Double(s.total) * 100))%; as \(s.names.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        }
        let share = Double(accepted) / Double(total)
        print("shape-eval: \(label), all \(seeds.count) seeds: \(accepted)/\(total) = \(String(format: "%.2f", share * 100))% (goal: at most 3%)")
        return share
    }

    /// A set held out from the wandering tests (docs/shapes.md, "Wandering")
    /// before they were begun, looked at once when they were set, and once
    /// more at the end of the work for real people: scribble seeds
    /// and drawers no change was tuned on.
    static let freshScribbleSeeds: [UInt64] = Array(81001...81010)
    static let freshDrawerSeeds: [UInt64] = Array(5001...UInt64(5000 + ShapeEvaluation.people))

    /// Off by default so that it stays fresh: each look at it spends it a
    /// little. `scripts/shape-eval --fresh` turns it on; `heldOut` and
    /// `heldOutScribbles` are the figures that run every time.
    @Test("fresh held-out set (scribble seeds 81001–81010, drawers 5001…): the goals of heldOut on a set never looked at while tuning (scripts/shape-eval --fresh)",
          .enabled(if: ProcessInfo.processInfo.environment["SHAPE_EVAL_FRESH"] != nil, "set SHAPE_EVAL_FRESH=1 (scripts/shape-eval --fresh) to look at the fresh held-out set"))
    func freshHeldOut() {
        let seeds = Self.freshDrawerSeeds
        let people = ShapeEvaluation.people(seeds)
        print("shape-eval: fresh: \(people.count) drawers (seeds \(seeds.first ?? 0)–\(seeds.last ?? 0))")
        Self.judge(people, as: "fresh drawers")
        let share = Self.scribbleShare(Self.freshScribbleSeeds, label: "fresh scribbles")
        #expect(share <= Self.floors.scribbles)
    }

    /// The goals for real people, checked on each of the four of
    /// the $1 logs apart: a person whose shapes fail is not averaged away by
    /// the others.
    static let peopleFloors = (untaught: 0.985, one: 0.995, three: 0.998)

    /// The $1 logs' people, each through the whole core: their strokes with
    /// their own timing at 0.3 mm a pixel, untaught, and taught with 1 and 3 of
    /// their own strokes (20 random choices), as `shape add` learns them.
    static func judge(person: String) -> (untaught: ShapeEvaluation.Tally, one: ShapeEvaluation.Tally, three: ShapeEvaluation.Tally) {
        var untaught = ShapeEvaluation.Tally()
        var byShape: [String: [([TouchFrame], [Vector])]] = [:]
        for sample in DollarLogs.samples(of: person) {
            let frames = ShapeCalibrationTests.frames(sample.path)
            untaught.add(sample.shape, ShapeEvaluation.outcome(frames, templates: BuiltinShapes.templates))
            byShape[sample.shape, default: []].append((frames, frames.compactMap { $0.touches.first?.position }))
        }
        print("shape-eval: \(person) ($1 logs, 0.3 mm a pixel, own timing), untaught: \(untaught.figure); confusions: \(untaught.top(8))")
        var taught: [ShapeEvaluation.Tally] = []
        for k in [1, 3] {
            let (t, refused) = ShapeEvaluation.taught(byShape, perShape: k, rounds: 20, seed: 2007)
            print("shape-eval: \(person), taught with \(k) (20 random choices; \(refused) refused): \(t.figure); confusions: \(t.top(8))")
            taught.append(t)
        }
        return (untaught, taught[0], taught[1])
    }

    /// Real people are the check that counts (docs/shapes.md, "How well it
    /// works"); skipped, with a line saying so, where the logs are absent.
    @Test("each of the $1 logs' four people (s02–s05): untaught ≥ 98.5%, taught with 1 of the person's own strokes ≥ 99.5%, with 3 ≥ 99.8% (scripts/shape-eval)",
          arguments: DollarLogs.people)
    func person(_ person: String) throws {
        guard DollarLogs.present(person) else { try Test.cancel("\(person)'s $1 log is not here (\(DollarLogs.directory(of: person)))") }
        let figures = Self.judge(person: person)
        #expect(figures.untaught.total >= 160)
        #expect(figures.untaught.accuracy >= Self.peopleFloors.untaught, "\(person) untaught: \(figures.untaught.top(8))")
        #expect(figures.one.accuracy >= Self.peopleFloors.one, "\(person) taught with 1: \(figures.one.top(8))")
        #expect(figures.three.accuracy >= Self.peopleFloors.three, "\(person) taught with 3: \(figures.three.top(8))")
    }

    @Test("tuning drawers: the figures the filters were set on (scripts/shape-eval --tuning)",
          .enabled(if: ProcessInfo.processInfo.environment["SHAPE_EVAL_TUNING"] != nil, "set SHAPE_EVAL_TUNING to print them"))
    func tuning() {
        let people = ShapeEvaluation.people(ShapeEvaluation.tuningSeeds)
        if let path = ProcessInfo.processInfo.environment["SHAPE_EVAL_SHEET"] {
            try? ShapeEvaluation.sheet(Array(people.prefix(12))).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let untaught = ShapeEvaluation.untaught(people)
        print("shape-eval: tuning drawers, untaught: \(untaught.figure); \(untaught.top(12))")
        // The drawers the filters were set on meet at least the held-out goals.
        #expect(untaught.accuracy >= Self.floors.untaught, "\(untaught.top(12))")
        let scores = ShapeEvaluation.correctScores(people)
        print("shape-eval: tuning drawers, correct-match scores: p1 \(ShapeCalibrationTests.quantile(scores, 0.01)), p2 \(ShapeCalibrationTests.quantile(scores, 0.02)), p5 \(ShapeCalibrationTests.quantile(scores, 0.05)), median \(ShapeCalibrationTests.quantile(scores, 0.5))")
        let matcher = ShapeMatcher(templates: BuiltinShapes.templates)
        for name in BuiltinShapes.names {
            var scores: [Double] = [], thick: [Double] = []
            for person in people {
                for d in person.drawings[name] ?? [] {
                    thick.append(ShapeFilter.thickness(of: d.points))
                    if let stroke = ShapeStroke(path: d.points), let m = matcher.best(stroke), m.name == name { scores.append(m.score) }
                }
            }
            scores.sort(); thick.sort()
            print("shape-eval: tuning, \(name): correct \(scores.count), scores p2 \(ShapeCalibrationTests.quantile(scores, 0.02)), p10 \(ShapeCalibrationTests.quantile(scores, 0.1)); thickness min \(thick.first ?? .nan)")
        }
        for k in [1, 3] where ProcessInfo.processInfo.environment["SHAPE_EVAL_QUICK"] == nil {
            let (t, refused) = ShapeEvaluation.taught(people, perShape: k)
            print("shape-eval: tuning drawers, taught with \(k): \(t.figure); refused \(refused); \(t.top(12))")
            #expect(t.accuracy >= (k == 1 ? Self.floors.one : Self.floors.three), "\(t.top(12))")
        }
        let s = ShapeEvaluation.scribbleAcceptance()
        print("shape-eval: scribbles accepted: \(s.accepted)/\(s.total); scores p90 \(ShapeCalibrationTests.quantile(s.scores, 0.9)) p97 \(ShapeCalibrationTests.quantile(s.scores, 0.97)); as \(s.names)")
        #expect(Double(s.accepted) <= Self.floors.scribbles * Double(s.total))
    }
}
