import Testing
@testable import GestureCore

@Suite("Which rule a mouse stroke goes to")
struct StrokeRulesTests {
    /// A path through `corners` (mm), 20 points an arm, 10 ms apart.
    static func path(_ corners: [(Double, Double)]) -> [MouseStrokeReading.Point] {
        var out = [MouseStrokeReading.Point(time: 0, x: corners[0].0, y: corners[0].1)]
        for (a, b) in zip(corners, corners.dropFirst()) {
            for i in 1...20 {
                let f = Double(i) / 20
                out.append(MouseStrokeReading.Point(time: Double(out.count) * 0.01, x: a.0 + (b.0 - a.0) * f, y: a.1 + (b.1 - a.1) * f))
            }
        }
        return out
    }

    static func rule(_ arms: [Direction]?, button: MouseButton? = nil, active: Bool = true) -> GestureRule {
        GestureRule(spec: GestureSpec(kind: .stroke, button: button, arms: arms), isActive: active)
    }

    static let lUp = path([(0, 0), (-40, 0), (-40, -40)])
    static let diagonal = path([(0, 0), (-30, -30)])

    @Test("beside an up-left rule, an L drawn left then up goes to the left-up rule and a diagonal to the up-left one")
    func readings() {
        let rules = [Self.rule([.upLeft]), Self.rule([.left, .up]), Self.rule([.left])]
        let strokes = StrokeRules()
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(1))
        #expect(strokes.match(Self.diagonal, button: .right, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(0))
        #expect(strokes.match(Self.path([(0, 0), (-40, 0)]), button: .right, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(2))
    }

    @Test("with no diagonal bound, a stroke at 40° is read in four directions: left")
    func fourWay() {
        let rules = [Self.rule([.left]), Self.rule([.up])]
        #expect(StrokeRules().match(Self.path([(0, 0), (-40, -33)]), button: .right, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(0))
        #expect(StrokeRules().match(Self.path([(0, 0), (-40, -33)]), button: .right, strokeButton: .right, rules: rules + [Self.rule([.upLeft])], at: 1)?.rule == RuleID(2))
    }

    @Test("a rule naming no button takes strokes of stroke_button only; a rule naming one, that button's")
    func buttons() {
        let rules = [Self.rule([.left, .up]), Self.rule([.left, .up], button: .middle)]
        let strokes = StrokeRules()
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(0))
        #expect(strokes.match(Self.lUp, button: .middle, strokeButton: .right, rules: rules, at: 1)?.rule == RuleID(1))
        #expect(strokes.match(Self.lUp, button: .side, strokeButton: .right, rules: rules, at: 1) == nil)
        #expect(strokes.match(Self.lUp, button: .middle, strokeButton: .middle, rules: [Self.rule([.left, .up])], at: 1)?.rule == RuleID(0))
    }

    @Test("the narrower rule wins, then the later one; an inactive rule or one in its cooldown steps aside")
    func ranks() {
        let strokes = StrokeRules()
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: [Self.rule([.left, .up]), Self.rule(nil)], at: 1)?.rule == RuleID(0))
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: [Self.rule(nil), Self.rule(nil)], at: 1)?.rule == RuleID(1))
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: [Self.rule(nil), Self.rule(nil, active: false)], at: 1)?.rule == RuleID(0))
        var cooling = Self.rule([.left, .up])
        cooling.cooldown = 2
        cooling.lastFired = 0.5
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: [Self.rule(nil), cooling], at: 1)?.rule == RuleID(0))
    }

    @Test("no stroke (too short) and strokes no rule names go to no rule")
    func none() {
        let strokes = StrokeRules()
        #expect(strokes.match(Self.path([(0, 0), (-3, 0)]), button: .right, strokeButton: .right, rules: [Self.rule(nil)], at: 1) == nil)
        #expect(strokes.match(Self.lUp, button: .right, strokeButton: .right, rules: [Self.rule([.up, .left])], at: 1) == nil)
    }

    @Test("the handler's gesture: kind stroke, its arms as the rules spell them, the button, the path's travel and time")
    func event() throws {
        let stroke = try MouseStrokeReading().read(Self.lUp).get()
        let e = StrokeRules.event(stroke, button: .right, path: Self.lUp, device: 2)
        #expect(e.kind == .stroke && e.phase == .ended && e.isDiscrete && e.device == 2)
        #expect(e.name == "left-up" && e.direction == nil)
        #expect(e.fields == [GestureField(name: "direction", value: .string("left-up")), GestureField(name: "button", value: .string("right"))])
        #expect(e.delta == Vector(-40, -40) && e.time == 0.4 && e.start == 0 && e.duration == 0.4)
    }
}
