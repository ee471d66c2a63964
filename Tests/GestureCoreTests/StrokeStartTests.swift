import Testing
@testable import GestureCore

/// A stroke's first arm, judged as soon as it is clear, against the first
/// arms the rules for its button start with.
@Suite("How a mouse stroke may start, and when its start is clear")
struct StrokeStartTests {
    /// From the press to (x, y) mm in a straight line, a point every 0.25 mm or so.
    static func line(to x: Double, _ y: Double, from start: (Double, Double) = (0, 0), points: Int = 24) -> [MouseStrokeReading.Point] {
        (0...points).map { i in
            let f = Double(i) / Double(points)
            return MouseStrokeReading.Point(time: Double(i) * 0.008, x: start.0 + (x - start.0) * f, y: start.1 + (y - start.1) * f)
        }
    }

    static let leftOrRight = StrokeStart(arms: [.left, .right], eightWay: false)

    @Test("a drag straight down 6 mm is no start of a left or right rule; 4 mm down is not judged yet, nor 12 mm (past judging)")
    func down() {
        #expect(Self.leftOrRight.judge(Self.line(to: 0, 6)) == .unbound(.down))
        #expect(Self.leftOrRight.judge(Self.line(to: 0, 4)) == .undecided)
        #expect(Self.leftOrRight.judge(Self.line(to: 0, 12)) == .undecided)
    }

    @Test("left 6 mm is a bound start; so is 25° below it, in the inner two thirds of left's sector")
    func bound() {
        #expect(Self.leftOrRight.judge(Self.line(to: -6, 0)) == .bound(.left))
        #expect(Self.leftOrRight.judge(Self.line(to: -6 * cosDegrees(25), 6 * sinDegrees(25))) == .bound(.left))
    }

    @Test("near a boundary the start is not clear: 40° between left and down is held as before, in 4 directions and in 8")
    func unclear() {
        let path = Self.line(to: -6 * cosDegrees(40), 6 * sinDegrees(40))
        #expect(Self.leftOrRight.judge(path) == .undecided)
        // In 8 directions 40° is down-left, 5° from its middle: clear.
        #expect(StrokeStart(arms: [.left], eightWay: true).judge(path) == .unbound(.downLeft))
        #expect(StrokeStart(arms: [.left], eightWay: true).judge(Self.line(to: -6 * cosDegrees(20), 6 * sinDegrees(20))) == .undecided)
    }

    @Test("a path that turned a corner before it was judged is no straight first arm: held as before")
    func corner() {
        let turned = Self.line(to: 0, 3.5) + Self.line(to: -5, 3.5, from: (0, 3.5)).dropFirst()
        #expect(Self.leftOrRight.judge(Array(turned)) == .undecided)
    }

    static func rule(_ arms: [Direction]?, kind: GestureKind = .stroke, button: MouseButton? = nil, active: Bool = true) -> GestureRule {
        GestureRule(spec: GestureSpec(kind: kind, button: button, arms: arms), isActive: active)
    }

    @Test("the rules' first arms, per button; a rule of any direction or a shape drawn with the button makes it start any way")
    func boundStarts() {
        let starts = StrokeStart.bound([Self.rule([.left, .up]), Self.rule([.right]), Self.rule([.up], active: false),
                                        Self.rule([.upLeft], button: .middle), Self.rule(nil, button: .side),
                                        Self.rule(nil, kind: .shape, button: .extra), Self.rule([.down], button: .extra)], strokeButton: .right)
        #expect(starts == [.right: StrokeStart(arms: [.left, .right], eightWay: false), .middle: StrokeStart(arms: [.upLeft], eightWay: true)])
    }
}
