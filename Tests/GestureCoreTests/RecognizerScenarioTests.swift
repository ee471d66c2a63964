import GestureCore
import Testing

@Suite("Recognizers, one kind at a time")
struct RecognizerScenarioTests {
    @Test("a tap with each finger count", arguments: 1...5)
    func taps(fingers: Int) {
        let rules = (1...5).map { TouchScript.rule("\($0)-finger tap") }
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: fingers, duration: 0.08)), rules: rules)
        #expect(out.map(TouchScript.summary) == ["tap \(fingers) x1 ended"])
        #expect(out.first?.rule == RuleID(fingers - 1))
    }

    @Test("double and triple taps with each finger count", arguments: 1...3, 2...3)
    func multiTaps(fingers: Int, taps: Int) {
        let rules = [TouchScript.rule("\(fingers)-finger tap"), TouchScript.rule("\(fingers)-finger double tap"), TouchScript.rule("\(fingers)-finger triple tap")]
        let presses = Array(repeating: TouchScript.press(fingers: fingers, duration: 0.07), count: taps)
        let out = TouchScript.recognize(TouchScript.sequence(presses, gap: 0.12), rules: rules)
        #expect(out.map(TouchScript.summary) == ["tap \(fingers) x\(taps) ended"])
    }

    @Test("a press too long, or moving too far, is no tap")
    func notTaps() {
        let rules = [TouchScript.rule("tap")]
        #expect(TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.4)), rules: rules).isEmpty)
        #expect(TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1, drift: Vector(4, 0))), rules: rules).count == 1)
        #expect(TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1, drift: Vector(7, 0))), rules: rules).isEmpty)
    }

    @Test("a long press with each finger count begins after 0.5 s and ends on lift", arguments: 1...3)
    func longPress(fingers: Int) throws {
        let rules = [TouchScript.rule("\(fingers)-finger long press", allPhases: true)]
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: fingers, duration: 0.9, drift: Vector(1, 0))), rules: rules)
        let phases = out.map(\.event.phase)
        #expect(phases.first == .began)
        #expect(phases.last == .ended)
        #expect(phases.dropFirst().dropLast().allSatisfy { $0 == .changed })
        let began = try #require(out.first?.event)
        #expect(abs(began.time - (1.0 + 0.004 * Double(fingers - 1) + 0.5)) < 0.011)
        #expect(began.fingers == fingers)
    }

    @Test("a long press fires while the finger is still and no frames come")
    func longPressOnDeadline() throws {
        // One frame at landing, then nothing until the lift: the deadline alone begins it.
        let frames = [
            TouchFrame(time: 1, touches: [Touch(id: 1, position: Vector(50, 50), phase: .began)]),
            TouchFrame(time: 3, touches: [Touch(id: 1, position: Vector(50, 50), phase: .ended)]),
        ]
        var arena = GestureArena(rules: [TouchScript.rule("long press")])
        var out: [Delivery] = []
        arena.handle(frames[0], into: &out)
        #expect(arena.nextDeadline == 1.5)
        arena.advance(to: 1.49, into: &out)
        #expect(out.isEmpty)
        arena.advance(to: 1.6, into: &out)
        #expect(out.map(TouchScript.summary) == ["long_press 1 began"])
        #expect(out.first?.event.time == 1.5)
    }

    @Test("drifting more than 2.5 mm before the half second is no long press")
    func longPressMovement() {
        // 4 mm over 0.9 s: 2.2 mm at 0.5 s, when it begins; the rest comes after, as changes.
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.9, drift: Vector(0, 4))), rules: [TouchScript.rule("long press")])
        #expect(out.map(TouchScript.summary) == ["long_press 1 began"])
        // 8 mm over 0.9 s is a slow drag (8.9 mm/s): 4.4 mm at 0.5 s.
        let drag = TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.9, drift: Vector(0, 8))), rules: [TouchScript.rule("long press")])
        #expect(drag.isEmpty)
    }

    @Test("a pan with each finger count and direction", arguments: 1...3, Direction.cardinals)
    func pan(fingers: Int, direction: Direction) throws {
        let rules = [TouchScript.rule("\(fingers)-finger pan", allPhases: true)]
        let plan = TouchScript.stroke(fingers: fingers, angle: direction.screenAngle ?? 0, length: 40, duration: 1.5)
        let out = TouchScript.recognize(TouchScript.frames(plan), rules: rules)
        #expect(out.first.map(TouchScript.summary) == "pan \(fingers) \(direction.rawValue) began")
        #expect(out.last?.event.phase == .ended)
        let changed = try #require(out.dropLast().last?.event)
        #expect(abs(changed.distance - 40) < 1.5)
        #expect(abs(changed.velocity - 40 / 1.5) < 3)
    }

    @Test("pinch in and out with each finger count", arguments: 2...4, [Direction.in, .out])
    func pinch(fingers: Int, direction: Direction) throws {
        let rules = [TouchScript.rule("\(fingers)-finger pinch in"), TouchScript.rule("\(fingers)-finger pinch out")]
        let radius = direction == .in ? (30.0, 15.0) : (15.0, 30.0)
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.orbit(fingers: fingers, radius: radius, turn: 0, duration: 0.4)), rules: rules)
        #expect(out.map(TouchScript.summary) == ["pinch \(fingers) \(direction.rawValue) ended"])
        let scale = try #require(out.first?.event.scale)
        #expect(direction == .in ? scale <= 0.85 : scale >= 1.15)
    }

    @Test("a continuous pinch reports its scale until the fingers lift")
    func continuousPinch() throws {
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (20, 40), turn: 0, duration: 0.5)),
                                        rules: [TouchScript.rule("pinch", allPhases: true)])
        #expect(out.first?.event.phase == .began)
        #expect(out.last?.event.phase == .ended)
        let scales = out.map(\.event.scale)
        #expect(zip(scales, scales.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })
        #expect(abs((scales.last ?? 0) - 2) < 0.05)
    }

    @Test("rotation clockwise and counterclockwise with each finger count", arguments: 2...3, [Direction.clockwise, .counterclockwise])
    func rotate(fingers: Int, direction: Direction) throws {
        let rules = [TouchScript.rule("\(fingers)-finger rotate clockwise"), TouchScript.rule("\(fingers)-finger rotate counterclockwise")]
        let turn = direction == .clockwise ? 70.0 : -70.0
        let out = TouchScript.recognize(TouchScript.frames(TouchScript.orbit(fingers: fingers, radius: (22, 22), turn: turn, duration: 0.6)), rules: rules)
        #expect(out.map(TouchScript.summary) == ["rotate \(fingers) \(direction.rawValue) ended"])
        let rotation = try #require(out.first?.event.rotation)
        #expect(direction == .clockwise ? rotation >= 15 : rotation <= -15)
    }

    @Test("one finger moving beside a resting one is neither a pinch nor a rotation")
    func restingThumb() {
        let rules = [TouchScript.rule("pinch in"), TouchScript.rule("pinch out"), TouchScript.rule("rotate clockwise"), TouchScript.rule("rotate counterclockwise")]
        let plan = [
            FingerPlan(lands: 0, lifts: 0.8) { _ in Vector(80, 80) },
            FingerPlan(lands: 0, lifts: 0.8) { t in Vector(110 + 40 * min(t / 0.6, 1), 80 - 30 * min(t / 0.6, 1)) },
        ]
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: rules).isEmpty)
    }

    @Test("two fingers moving together along a circle are neither a pinch nor a rotation")
    func circlingTogether() {
        let rules = [TouchScript.rule("pinch in"), TouchScript.rule("pinch out"), TouchScript.rule("rotate clockwise"), TouchScript.rule("rotate counterclockwise")]
        // The pair's middle goes 1.5 times round a 30 mm circle; the pair itself turns only 20°.
        let plan = (0..<2).map { i in
            FingerPlan(lands: 0.01 * Double(i), lifts: 2) { t in
                let around = 540 * t / 2
                let centre = Vector(120, 75) + Vector(cosDegrees(around), sinDegrees(around)) * 30
                let own = 20 * t / 2 + (i == 0 ? 0 : 180)
                return centre + Vector(cosDegrees(own), sinDegrees(own)) * 10
            }
        }
        #expect(TouchScript.recognize(TouchScript.frames(plan, noise: 0.2), rules: rules).isEmpty)
    }

    @Test("an edge swipe from each edge, with one and two fingers", arguments: Edge.allCases, 1...2)
    func edgeSwipe(edge: Edge, fingers: Int) throws {
        let surface = Surface(width: 250, height: 150)
        let start: Vector
        switch edge {
        case .left: start = Vector(1.5, 75)
        case .right: start = Vector(248.5, 75)
        case .top: start = Vector(125, 1.5)
        case .bottom: start = Vector(125, 148.5)
        }
        let inward = try #require(Direction.inward(from: edge).screenAngle)
        let unit = Vector(cosDegrees(inward), sinDegrees(inward))
        let plan = TouchScript.stroke(fingers: fingers, angle: inward, length: 40, duration: 0.2, centre: start + unit * 20, stagger: [0, 0.02])
        let rules = Edge.allCases.flatMap { e in (1...2).map { TouchScript.rule("\($0)-finger edge swipe from \(e.rawValue)") } }
            + [TouchScript.rule("swipe \(Direction.inward(from: edge).rawValue)")]
        let out = TouchScript.recognize(TouchScript.frames(plan, surface: surface), rules: rules)
        #expect(out.map(TouchScript.summary) == ["edge_swipe \(fingers) \(Direction.inward(from: edge).rawValue) from \(edge.rawValue) ended"])
    }

    @Test("a swipe that starts away from the edges, or runs along one, is no edge swipe")
    func notEdgeSwipes() {
        let rules = [TouchScript.rule("edge swipe from left")]
        let middle = TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2, centre: Vector(60, 75))
        #expect(TouchScript.recognize(TouchScript.frames(middle), rules: rules).isEmpty)
        let along = TouchScript.stroke(fingers: 1, angle: 90, length: 40, duration: 0.2, centre: Vector(2, 75))
        #expect(TouchScript.recognize(TouchScript.frames(along), rules: rules).isEmpty)
        #expect(TouchScript.recognize(TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2, centre: Vector(21, 75)), surface: nil), rules: rules).isEmpty)
    }
}
