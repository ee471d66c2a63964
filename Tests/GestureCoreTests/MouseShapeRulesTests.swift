import Foundation
import Testing
@testable import GestureCore

@Suite("Which rule a shape drawn with a mouse button goes to")
struct MouseShapeRulesTests {
    /// A circle of `radius` mm from its top, anticlockwise on the screen, 10 ms a point.
    static func circle(radius: Double = 15, turns: Double = 1.05) -> [MouseStrokeReading.Point] {
        (0...48).map { i in
            let a = -Double.pi / 2 - 2 * Double.pi * turns * Double(i) / 48
            return MouseStrokeReading.Point(time: Double(i) * 0.01, x: radius * cos(a), y: radius * sin(a) + radius)
        }
    }

    static let line = StrokeRulesTests.path([(0, 0), (0, 40)])

    static func rule(_ name: String?, button: MouseButton? = .right, minScore: Double? = nil, active: Bool = true) -> GestureRule {
        GestureRule(spec: GestureSpec(kind: .shape, name: name, minScore: minScore, button: button), isActive: active)
    }

    let shapes = MouseShapeRules(templates: BuiltinShapes.templates, thresholds: Thresholds())

    @Test("a circle drawn with the right button goes to the right button's circle rule, not to a finger's nor to the middle button's")
    func circleToItsButton() throws {
        let rules = [Self.rule("circle", button: nil), Self.rule("circle", button: .middle), Self.rule("circle")]
        guard case .taken(let match)? = shapes.match(Self.circle(), button: .right, rules: rules, at: 1) else {
            Issue.record("no rule took the circle")
            return
        }
        #expect(match.rule == RuleID(2))
        #expect(match.shape.name == "circle" && match.shape.score >= 0.8)
        let event = MouseShapeRules.event(match.shape, button: .right, path: Self.circle(), device: 3)
        #expect(event.kind == .shape && event.name == "circle" && event.device == 3)
        #expect(rules[2].spec.matches(event) && !rules[0].spec.matches(event) && !rules[1].spec.matches(event))
    }

    @Test("no rule draws shapes with the button: nil, so the press is not held for one")
    func unbound() {
        #expect(shapes.match(Self.circle(), button: .right, rules: [Self.rule("circle", button: nil)], at: 1) == nil)
        #expect(shapes.match(Self.circle(), button: .right, rules: [Self.rule("circle", active: false)], at: 1) == nil)
        #expect(!MouseShapeRules.binds([Self.rule("circle", button: nil)], button: .right))
        #expect(MouseShapeRules.binds([Self.rule(nil)], button: .right))
    }

    @Test("why a drawing is no shape: straight, too small, or a shape no rule names")
    func refusals() {
        let rules = [Self.rule("triangle")]
        #expect(shapes.match(Self.line, button: .right, rules: rules, at: 1) == .refused(.straightStroke))
        guard case .refused(.shapeTooSmall)? = shapes.match(Self.circle(radius: 2), button: .right, rules: rules, at: 1) else {
            Issue.record("a 4 mm circle was not too small")
            return
        }
        guard case .refused(.shapeUnbound(let best, _))? = shapes.match(Self.circle(), button: .right, rules: rules, at: 1) else {
            Issue.record("a circle beside a triangle rule was not refused as unbound")
            return
        }
        #expect(best == "circle")
    }

    @Test("a rule's min_score: a circle that scores under it goes to no rule")
    func minScore() {
        #expect(shapes.match(Self.circle(), button: .right, rules: [Self.rule("circle", minScore: 0.999)], at: 1).map { if case .refused = $0 { true } else { false } } == true)
    }

    @Test("a taught circle replaces the built-in one: a square path is a circle when the only circle taught is square")
    func taught() throws {
        let square = StrokeRulesTests.path([(0, 0), (-30, 0), (-30, 30), (0, 30), (0, 0)])
        let taughtSquare = try #require(ShapeTemplate(name: "circle", path: square.map { Vector($0.x, $0.y) }, anyDirection: true, loop: true))
        let library = BuiltinShapes.templates.filter { $0.name != "circle" } + [taughtSquare]
        let rules = [Self.rule("circle")]
        guard case .taken(let match)? = MouseShapeRules(templates: library, thresholds: Thresholds()).match(square, button: .right, rules: rules, at: 1) else {
            Issue.record("the taught circle did not take its own drawing")
            return
        }
        #expect(match.shape.name == "circle")
    }

    @Test("a touch arena never builds a shape recognizer for a mouse's shape rule")
    func touchArenaLeavesMouseShapes() {
        #expect(GestureSpec(kind: .shape, button: .right).isMouse)
        #expect(!GestureSpec(kind: .shape).isMouse)
        #expect(GestureSpec(kind: .stroke).isMouse && GestureSpec(kind: .chord, button: .left).isMouse)
    }
}
