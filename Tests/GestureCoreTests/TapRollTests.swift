@testable import GestureCore
import Testing

/// Two fingers that tap one after the other (a drumroll) are
/// two one-finger taps, unless they are down together for most of their
/// contact; ordinary multi-finger taps stay what they were.
@Suite("Tap rolls")
struct TapRollTests {
    /// A finger pressing still at `place` from `lands` to `lifts` (seconds).
    static func finger(_ place: Vector, lands: Double, lifts: Double) -> FingerPlan {
        FingerPlan(lands: lands, lifts: lifts) { _ in place }
    }

    /// Two fingers 16 mm apart: the first presses `first` s, the second lands
    /// `gap` s after it and presses `second` s. Sampled at 1 kHz, so the
    /// frames keep the times to a millisecond.
    static func pair(gap: Double, first: Double, second: Double, rate: Double = 1000, spacing: Double = 16) -> [TouchFrame] {
        TouchScript.frames([
            finger(Vector(112, 75), lands: 0, lifts: first),
            finger(Vector(112 + spacing, 75), lands: gap, lifts: gap + second),
        ], rate: rate)
    }

    static let tapRules = ["tap", "2-finger tap", "3-finger tap"]

    static func recognize(_ frames: [TouchFrame], _ phrases: [String]) -> [Delivery] {
        TouchScript.recognize(frames, rules: phrases.map { TouchScript.rule($0) })
    }

    static func ms(_ s: Double) -> Int { Int((s * 1000).rounded()) }

    // MARK: - The rule alone

    @Test("the rule: landing order equals lift order and the overlap is under half the longest press")
    func rule() {
        func roll(_ presses: [(Double, Double)]) -> Bool {
            TapRoll(presses.map { TapRoll.Press(start: $0.0, lift: $0.1, position: .zero) }).isRoll
        }
        #expect(roll([(0, 0.06), (0.04, 0.10)]), "overlap 20 ms of 60")
        #expect(roll([(0.04, 0.10), (0, 0.06)]), "given in any order: judged by landing")
        #expect(roll([(0, 0.05), (0.05, 0.10)]), "no overlap at all")
        #expect(roll([(0, 0.05), (0.03, 0.08), (0.06, 0.11)]), "three in turn, the first up before the third lands")
        #expect(!roll([(0, 0.10), (0.02, 0.12)]), "overlap 80 ms of 100: one press")
        #expect(!roll([(0, 0.06), (0.03, 0.09)]), "overlap exactly half: one press")
        #expect(!roll([(0, 0.12), (0.03, 0.06)]), "nested: the first lifts last")
        #expect(!roll([(0, 0.05), (0, 0.12)]), "landed together")
        #expect(!roll([(0, 0.05), (0.03, 0.05)]), "lifted together")
        #expect(!roll([(0, 0.05)]), "one finger")
    }

    @Test("while fingers are down: a roll stays possible only while the overlap may still be under half the longest press")
    func mayRoll() {
        func may(_ presses: [(Double, Double?)], now: Double) -> Bool {
            TapRoll(presses.map { TapRoll.Press(start: $0.0, lift: $0.1, position: .zero) }).mayRoll(latestLift: 0.3, now: now)
        }
        #expect(may([(0, nil), (0.04, nil)], now: 0.05))
        #expect(may([(0, nil), (0.04, nil)], now: 0.18), "0.14 s together: the first may yet press 0.3 s")
        #expect(!may([(0, nil), (0.04, nil)], now: 0.19), "0.15 s together: half of the longest press possible")
        #expect(!may([(0, nil), (0, nil)], now: 0.01), "landed in one frame")
        #expect(!may([(0, nil), (0.04, 0.06)], now: 0.07), "the second lifted first")
        #expect(may([(0, 0.06), (0.04, nil)], now: 0.07))
        #expect(!may([(0, 0.2), (0.04, nil)], now: 0.21), "together 0.16 s: more than half of anything left")
    }

    // MARK: - Through the arena

    @Test("drumroll pairs 10–80 ms apart are two one-finger taps, in the order they landed", arguments: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08])
    func drumroll(gap: Double) {
        // Each finger down 1.2 to 1.5 times the gap: together for 17–33% of its press.
        for share in [1.2, 1.5] {
            let first = gap * share
            for second in [first * 0.8, first, first * 1.3] {
                let frames = Self.pair(gap: gap, first: first, second: second)
                let out = Self.recognize(frames, Self.tapRules)
                let what = "gap \(Self.ms(gap)) ms, presses \(Self.ms(first)) and \(Self.ms(second)) ms"
                #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended", "tap 1 x1 ended"], "\(what): \(out.map(TouchScript.summary))")
                #expect(out.map(\.event.position.x) == [112, 128], "\(what): the first finger's tap first")
                #expect(zip(out.map { Self.ms($0.event.start) }, [1000, 1000 + Self.ms(gap)]).allSatisfy { abs($0 - $1) <= 1 } && out.count == 2,
                        "\(what): each tap starts when its finger landed")
            }
        }
    }

    @Test("a drumroll sampled at 100 Hz, 30–80 ms apart: two taps")
    func drumrollAt100Hz() {
        for gap in [0.03, 0.05, 0.08] {
            let out = Self.recognize(Self.pair(gap: gap, first: gap * 1.4, second: gap * 1.4, rate: 100), Self.tapRules)
            #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended", "tap 1 x1 ended"], "gap \(Self.ms(gap)) ms: \(out.map(TouchScript.summary))")
        }
    }

    @Test("pairs 10–80 ms apart down together for most of their contact are one two-finger tap", arguments: [0.01, 0.02, 0.04, 0.06, 0.08])
    func overlapping(gap: Double) {
        // Together twice as long as the gap: two thirds of the first finger's press.
        let first = gap * 3
        for lag in [0.0, 0.01] {
            let out = Self.recognize(Self.pair(gap: gap, first: first, second: first - gap + lag + 0.001), Self.tapRules)
            #expect(out.map(TouchScript.summary) == ["tap 2 x1 ended"], "gap \(Self.ms(gap)) ms, lag \(Self.ms(lag)) ms: \(out.map(TouchScript.summary))")
        }
    }

    @Test("ordinary two- and three-finger taps (landings and lifts spread 0–20 ms, presses 60–120 ms) stay one tap of them all", arguments: [2, 3])
    func ordinaryTaps(fingers: Int) {
        var wrong: [String] = []
        for press in [0.06, 0.09, 0.12] {
            for landSpread in [0.0, 0.01, 0.02] {
                for liftSpread in [0.0, 0.01, 0.02] {
                    for reversedLifts in [false, true] {
                        let plans = (0..<fingers).map { i -> FingerPlan in
                            let step = Double(i) / Double(fingers - 1)
                            let lands = landSpread * step
                            let lifts = press + liftSpread * (reversedLifts ? 1 - step : step)
                            return Self.finger(Vector(100 + 16 * Double(i), 75), lands: lands, lifts: lifts)
                        }
                        let out = Self.recognize(TouchScript.frames(plans, rate: 1000), Self.tapRules)
                        if out.map(TouchScript.summary) != ["tap \(fingers) x1 ended"] {
                            wrong.append("press \(Self.ms(press)), lands over \(Self.ms(landSpread)), lifts over \(Self.ms(liftSpread))\(reversedLifts ? " reversed" : ""): \(out.map(TouchScript.summary))")
                        }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("nested presses (the first lands first and lifts last) stay a two-finger tap")
    func nested() {
        for (gap, inner) in [(0.01, 0.02), (0.03, 0.03), (0.05, 0.06), (0.08, 0.1)] {
            let frames = TouchScript.frames([
                Self.finger(Vector(112, 75), lands: 0, lifts: gap + inner + 0.02),
                Self.finger(Vector(128, 75), lands: gap, lifts: gap + inner),
            ], rate: 1000)
            let out = Self.recognize(frames, Self.tapRules)
            #expect(out.map(TouchScript.summary) == ["tap 2 x1 ended"], "gap \(Self.ms(gap)) ms, inner \(Self.ms(inner)) ms: \(out.map(TouchScript.summary))")
        }
    }

    // MARK: - Arbitration

    @Test("only a 2-finger tap rule: a roll is two one-finger taps, which no rule binds, so nothing fires")
    func onlyTwoFingerRule() {
        let out = Self.recognize(Self.pair(gap: 0.05, first: 0.07, second: 0.07), ["2-finger tap"])
        #expect(out.isEmpty, "\(out.map(TouchScript.summary))")
        let tap = Self.recognize(Self.pair(gap: 0.01, first: 0.09, second: 0.09), ["2-finger tap"])
        #expect(tap.map(TouchScript.summary) == ["tap 2 x1 ended"], "a two-finger tap still is one")
    }

    @Test("only a tap rule: each finger of a roll fires at the last lift; a two-finger tap fires nothing, as before")
    func onlyOneFingerRule() throws {
        let frames = Self.pair(gap: 0.05, first: 0.07, second: 0.07)
        let out = Self.recognize(frames, ["tap"])
        let lastLift = try #require(frames.last?.time)
        #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended", "tap 1 x1 ended"])
        #expect(out.map(\.event.time) == [lastLift, lastLift])
        #expect(Self.recognize(Self.pair(gap: 0.01, first: 0.09, second: 0.09), ["tap"]).isEmpty)
    }

    @Test("tap and double tap bound: a roll is two taps, never a double tap, even with the fingers 8 mm apart")
    func rollIsNoDoubleTap() {
        for spacing in [8.0, 16.0] {
            let out = Self.recognize(Self.pair(gap: 0.05, first: 0.07, second: 0.07, spacing: spacing), ["tap", "double tap", "2-finger tap"])
            #expect(out.map(TouchScript.summary) == ["tap 1 x1 ended", "tap 1 x1 ended"], "\(spacing) mm: \(out.map(TouchScript.summary))")
        }
    }

    @Test("two rolls in a row, with a double-tap rule: four taps, the last once the interval passes")
    func twoRolls() throws {
        let roll = [Self.finger(Vector(112, 75), lands: 0, lifts: 0.07), Self.finger(Vector(128, 75), lands: 0.05, lifts: 0.12)]
        let frames = TouchScript.sequence([roll, roll], gap: 0.12, rate: 1000)
        let out = Self.recognize(frames, ["tap", "double tap", "2-finger tap"])
        #expect(out.map(TouchScript.summary) == Array(repeating: "tap 1 x1 ended", count: 4), "\(out.map(TouchScript.summary))")
        let lastLift = try #require(frames.last?.time)
        #expect(abs((out.last?.event.time ?? 0) - (lastLift + 0.3)) < 1e-6)
    }

    @Test("a tap, then a roll whose first finger taps the same spot: a double tap, then a tap")
    func tapThenRoll() {
        let tap = [Self.finger(Vector(112, 75), lands: 0, lifts: 0.07)]
        let roll = [Self.finger(Vector(113, 75), lands: 0, lifts: 0.07), Self.finger(Vector(128, 75), lands: 0.05, lifts: 0.12)]
        let out = Self.recognize(TouchScript.sequence([tap, roll], gap: 0.12, rate: 1000), ["tap", "double tap"])
        #expect(out.map(TouchScript.summary) == ["tap 1 x2 ended", "tap 1 x1 ended"], "\(out.map(TouchScript.summary))")
    }

    @Test("the trace says why the first finger's tap stands alone")
    func traceWords() {
        var arena = GestureArena(rules: ["tap", "double tap"].map { TouchScript.rule($0) })
        arena.tracing = true
        var out: [Delivery] = []
        for f in Self.pair(gap: 0.05, first: 0.07, second: 0.07) { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        let lines = arena.traceLines.map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(lines.contains("tap: possible → the next finger of a roll tapped → ended (1-finger, 1 tap)"), "\(lines)")
    }

    // MARK: - No longer held than before

    /// The frame (index) at which a tap recognizer bound for `phrases` fails, fed `frames` alone.
    static func failingFrame(_ frames: [TouchFrame], _ phrases: [String]) -> (index: Int, cause: TransitionCause)? {
        let config = TapRecognizer.Config(rules: phrases.map { TouchScript.rule($0).spec }, thresholds: Thresholds())
        var tap = TapRecognizer(config: config)
        var tracker = TouchTracker()
        for (i, frame) in frames.enumerated() {
            tracker.update(with: frame)
            var out: [Transition] = []
            tap.advance(to: frame.time, tracker: tracker, into: &out)
            tap.handle(frame, tracker: tracker, into: &out)
            if let failed = out.first(where: { $0.to == .failed }) { return (i, failed.cause) }
        }
        return nil
    }

    /// The first frame with two fingers down: where a 1-finger tap recognizer
    /// failed before rolls ("2 fingers, more than any tap rule").
    static func firstTwoFingerFrame(_ frames: [TouchFrame]) -> Int? {
        var down: Set<Int> = []
        for (i, frame) in frames.enumerated() {
            for t in frame.touches {
                if t.phase.isActive { down.insert(t.id) } else { down.remove(t.id) }
            }
            if down.count >= 2 { return i }
        }
        return nil
    }

    @Test("a two-finger scroll, fingers landing together: the one-finger tap fails at the landing frame, as before rolls, and a claiming tap rule holds nothing after it",
          arguments: [60.0, 120.0])
    func scrollFailsAsBefore(rate: Double) throws {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 90, length: 25, duration: 0.3), rate: rate)
        let before = try #require(Self.firstTwoFingerFrame(frames))
        #expect(before == 0)
        let failed = try #require(Self.failingFrame(frames, ["tap", "double tap"]))
        #expect(failed.index == before)
        guard case .tooManyFingers(2, .tap) = failed.cause else {
            Issue.record("failed for \(failed.cause.description)")
            return
        }
        var rule = TouchScript.rule("tap")
        rule.claims = true
        var arena = GestureArena(rules: [rule, TouchScript.rule("2-finger swipe up")])
        var out: [Delivery] = []
        arena.handle(frames[0], into: &out)
        #expect(!arena.claimMayStillFire, "the scroll is held no longer than its landing frame")
    }

    @Test("a two-finger scroll whose fingers land 20 ms apart: the tap waits for no roll once the fingers have moved beyond tap_max_movement")
    func staggeredScroll() throws {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 90, length: 25, duration: 0.3, stagger: [0, 0.02]), rate: 120)
        let failed = try #require(Self.failingFrame(frames, ["tap"]))
        // What a still pair, landing 20 ms apart, is held for at most: until
        // together for half the longest press still possible (the first
        // finger's, up to tap_max_duration).
        let limit = (frames[0].time + 0.02) + 0.5 * 0.3
        #expect(frames[failed.index].time <= limit + 1e-9)
        guard case .movedTooFar = failed.cause else {
            Issue.record("failed for \(failed.cause.description) at \(frames[failed.index].time)")
            return
        }
        // A still pair landing 20 ms apart gives up once together too long to roll.
        let still = TouchScript.frames([Self.finger(Vector(112, 75), lands: 0, lifts: 0.25), Self.finger(Vector(128, 75), lands: 0.02, lifts: 0.27)], rate: 1000)
        let held = try #require(Self.failingFrame(still, ["tap"]))
        #expect(abs(still[held.index].time - limit) <= 0.0011, "failed at \(still[held.index].time), expected \(limit)")
    }
}
