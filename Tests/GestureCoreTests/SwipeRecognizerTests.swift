import GestureCore
import Testing

@Suite("Swipe recognition")
struct SwipeRecognizerTests {
    /// Every finger count and direction bound at once, as a demanding rules file would.
    static let allRules: [GestureRule] = {
        var rules: [GestureRule] = []
        for fingers in 1...4 {
            for direction in Direction.cardinals {
                rules.append(GestureRule(spec: GestureSpec(kind: .swipe, fingers: .exactly(fingers), direction: direction)))
            }
        }
        return rules
    }()

    static func ruleIndex(fingers: Int, direction: Direction) -> Int? {
        allRules.firstIndex { $0.spec.fingers == .exactly(fingers) && $0.spec.direction == direction }
    }

    @Test("each finger count and direction fires exactly its own rule once",
          arguments: 1...4, Direction.cardinals)
    func cardinal(fingers: Int, direction: Direction) throws {
        let angle = try #require(direction.screenAngle)
        let plan = TouchScript.stroke(fingers: fingers, angle: angle + 4, length: 40, duration: 0.2,
                                      stagger: [0, 0.02, 0.01, 0.035], bow: 2, liftAfter: 0.01)
        let out = TouchScript.recognize(TouchScript.frames(plan, noise: 0.2), rules: Self.allRules)
        #expect(out.count == 1)
        #expect(out.first?.rule.index == Self.ruleIndex(fingers: fingers, direction: direction))
        #expect(out.first?.event.fingers == fingers)
        #expect(out.first?.event.direction == direction)
    }

    @Test("a slow drag at 10 mm/s is not a swipe")
    func slowDrag() {
        let plan = TouchScript.stroke(fingers: 1, angle: 180, length: 30, duration: 3)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).isEmpty)
    }

    @Test("a jiggle of a few millimetres is not a swipe")
    func jiggle() {
        let plan = [FingerPlan(lands: 0, lifts: 0.3) { t in Vector(100 + 3 * sinDegrees(t * 360 * 8), 60) }]
        #expect(TouchScript.recognize(TouchScript.frames(plan, rate: 200), rules: Self.allRules).isEmpty)
    }

    @Test("a 45° diagonal is not a cardinal swipe")
    func diagonalIsNotCardinal() {
        let plan = TouchScript.stroke(fingers: 1, angle: 45, length: 40, duration: 0.2)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).isEmpty)
    }

    @Test("a rule that names a diagonal gets one", arguments: [
        (Direction.downRight, 45.0), (.upLeft, -135), (.upRight, -45), (.downLeft, 135),
    ])
    func diagonalWhenAsked(direction: Direction, angle: Double) {
        let rules = TouchScript.rules("swipe \(direction.rawValue)", "swipe left", "swipe right", "swipe up", "swipe down")
        let plan = TouchScript.stroke(fingers: 1, angle: angle + 10, length: 40, duration: 0.2)
        let out = TouchScript.recognize(TouchScript.frames(plan), rules: rules)
        #expect(out.map(\.rule) == [0])
        #expect(out.first?.event.direction == direction)
    }

    @Test("with diagonals bound, a stroke 15° off the axis is still cardinal")
    func octantsKeepCardinals() {
        let rules = TouchScript.rules("swipe up-left", "swipe left")
        let plan = TouchScript.stroke(fingers: 1, angle: 180 + 15, length: 40, duration: 0.2)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: rules).map(\.rule) == [1])
    }

    @Test("a finger landing 111 ms late still counts")
    func lateFingerCounts() {
        let rules = TouchScript.rules("swipe down", "2-finger swipe down", "3 finger swipe down", "4 finger swipe down")
        let plan = TouchScript.stroke(fingers: 4, angle: 90, length: 40, duration: 0.45, stagger: [0, 0.005, 0.01, 0.111])
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: 70), rules: rules)
        #expect(out.map(\.rule) == [3])
        #expect(out.first?.event.fingers == 4)
    }

    @Test("a one-finger swipe is never fired for what becomes a two-finger swipe, the second finger up to 60 ms late")
    func neverFewerFingers() {
        let rules = TouchScript.rules("swipe left", "two-finger swipe left")
        for late in stride(from: 0.0, through: 0.06, by: 0.015) {
            let plan = TouchScript.stroke(fingers: 2, angle: 180, length: 45, duration: 0.2, stagger: [0, late])
            let out = TouchScript.recognize(TouchScript.frames(plan, rate: 120), rules: rules)
            #expect(out.map(\.rule) == [1], "second finger \(late) s late")
        }
    }

    @Test("a finger later than swipe_settle finds the swipe decided; a longer swipe_settle waits for it")
    func settleIsTheWindow() throws {
        let rules = TouchScript.rules("swipe left", "two-finger swipe left")
        let plan = TouchScript.stroke(fingers: 2, angle: 180, length: 45, duration: 0.2, stagger: [0, 0.09])
        let frames = TouchScript.frames(plan, rate: 120)
        #expect(TouchScript.recognize(frames, rules: rules).map(\.rule) == [0])
        var slow = Thresholds()
        try slow.set(name: "swipe_settle", value: 0.1)
        #expect(TouchScript.recognize(frames, rules: rules, thresholds: slow).map(\.rule) == [1])
    }

    @Test("more fingers beat fewer: a three-finger swipe fires only the three-finger rule")
    func moreFingersWin() {
        let rules = TouchScript.rules("two-finger swipe left", "three-finger swipe left", "swipe left")
        let plan = TouchScript.stroke(fingers: 3, angle: 180, length: 40, duration: 0.2, stagger: [0, 0.01, 0.03])
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: rules).map(\.rule) == [1])
    }

    @Test("a three-finger swipe with only two-finger rules fires nothing")
    func exactFingerCount() {
        let rules = TouchScript.rules("two-finger swipe left")
        let plan = TouchScript.stroke(fingers: 3, angle: 180, length: 40, duration: 0.2)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: rules).isEmpty)
    }

    @Test("an ordinary swipe fires while the fingers are still down")
    func firesBeforeLift() throws {
        let plan = TouchScript.stroke(fingers: 2, angle: 0, length: 40, duration: 0.25, stagger: [0, 0.02], liftAfter: 0.02)
        let frames = TouchScript.frames(plan)
        let out = TouchScript.recognize(frames, rules: TouchScript.rules("two-finger swipe right"))
        let firstLift = try #require(frames.first { $0.touches.contains { $0.phase == .ended } })
        let fired = try #require(out.first)
        #expect(fired.event.time < firstLift.time)
    }

    @Test("one touch sequence gives at most one swipe")
    func oneSwipePerSequence() {
        let plan = TouchScript.stroke(fingers: 1, angle: 180, length: 120, duration: 0.5)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).count == 1)
    }

    @Test("two swipes in a row give two swipes")
    func twoSequences() {
        var frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 180, length: 40, duration: 0.2))
        frames += TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 0, length: 40, duration: 0.2), start: 3, firstID: 10)
        let out = TouchScript.recognize(frames, rules: TouchScript.rules("2-finger swipe left", "2-finger swipe right"))
        #expect(out.map(\.rule) == [0, 1])
    }

    @Test("a slower stroke that lifts within the time limit is recognized at the lift")
    func slowerStrokeAtLift() throws {
        let plan = TouchScript.stroke(fingers: 1, angle: 90, length: 30, duration: 0.5)
        let frames = TouchScript.frames(plan)
        let out = TouchScript.recognize(frames, rules: TouchScript.rules("swipe down"))
        let lift = try #require(frames.last)
        #expect(out.count == 1)
        #expect(out.first?.event.time == lift.time)
    }

    @Test("a drag that goes up for 0.84 s and comes back is not a swipe")
    func dragUpAndDown() {
        // The shape of the Atmel touchscreen's 1-finger drag-up-down recording:
        // about 75 mm up at a steady 90 mm/s, then back down.
        let plan = [FingerPlan(lands: 0, lifts: 2.1) { t in
            t < 0.84 ? Vector(95, 100 - 90 * t) : Vector(95, 100 - 75.6 + 60 * (t - 0.84))
        }]
        #expect(TouchScript.recognize(TouchScript.frames(plan, rate: 72), rules: Self.allRules).isEmpty)
    }

    @Test("fingers moving apart are not a swipe")
    func pinchIsNotSwipe() {
        let plan = [
            FingerPlan(lands: 0, lifts: 0.25) { t in Vector(100 - 100 * t, 75) },
            FingerPlan(lands: 0, lifts: 0.25) { t in Vector(130 + 100 * t, 75) },
        ]
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).isEmpty)
    }

    @Test("a resting thumb beside one moving finger is not a two-finger swipe")
    func restingThumb() {
        let plan = [
            FingerPlan(lands: 0, lifts: 0.3) { _ in Vector(60, 120) },
            FingerPlan(lands: 0, lifts: 0.3) { t in Vector(150 - 160 * t, 60) },
        ]
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).isEmpty)
    }

    @Test("a curved path, sampled at 60 and 240 Hz, is still a swipe", arguments: [60.0, 240.0])
    func curvedAtRates(rate: Double) {
        let plan = TouchScript.stroke(fingers: 2, angle: -90, length: 35, duration: 0.18, stagger: [0, 0.04], bow: 6)
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: rate, noise: 0.3), rules: Self.allRules)
        #expect(out.count == 1)
        #expect(out.first?.event.direction == .up)
        #expect(out.first?.event.fingers == 2)
    }

    @Test("the thresholds come from config: a longer minimum distance rejects a short stroke")
    func configuredDistance() throws {
        var thresholds = Thresholds()
        try thresholds.set(name: "swipe_min_distance", value: 30)
        let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 25, duration: 0.12)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules).count == 1)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: Self.allRules, thresholds: thresholds).isEmpty)
    }

    @Test("the event carries the stroke's geometry")
    func eventGeometry() throws {
        let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2, centre: Vector(100, 50))
        let out = TouchScript.recognize(TouchScript.frames(plan), rules: TouchScript.rules("swipe right"))
        let event = try #require(out.first?.event)
        #expect(event.kind == .swipe)
        #expect(event.phase == .ended)
        #expect(event.delta.x >= 10 && event.delta.x <= 40)
        #expect(abs(event.delta.y) < 0.001)
        #expect(event.velocity >= 120)
        #expect(event.normalized != nil)
        #expect(event.duration > 0 && event.duration <= 0.2)
    }

    @Test("an unbound kind costs nothing: no swipe rule, no swipe")
    func noRulesNoRecognizer() {
        let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 40, duration: 0.2)
        #expect(TouchScript.recognize(TouchScript.frames(plan), rules: []).isEmpty)
    }
}
