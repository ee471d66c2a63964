import Testing
@testable import GestureCore

/// A swipe's clock starts when the hand starts to stroke, not when it lands.
@Suite("Stroke onset")
struct StrokeOnsetTests {
    static let rules = TouchScript.rules("swipe right", "2-finger swipe right")

    @Test("a finger that rests, then swipes, is a swipe at the stroke's own speed", arguments: [0.0, 0.3, 0.9, 3.0])
    func restThenSwipe(rest: Double) throws {
        let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 60, duration: 0.4, holdBefore: rest)
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: 100, noise: 0.2, seed: 3), rules: Self.rules)
        let swipe = try #require(out.first?.event)
        #expect(out.count == 1)
        #expect(swipe.direction == .right)
        // Committed while the finger is still down, at about the stroke's 150 mm/s.
        #expect(swipe.time < 1.0 + rest + 0.4)
        #expect(swipe.velocity > 120 && swipe.velocity < 190, "\(swipe.velocity)")
        // g.duration keeps its meaning: since the first finger landed.
        #expect(swipe.duration > rest)
    }

    @Test("a finger that creeps 4 mm at 8 mm/s before it strokes is judged from the stroke")
    func creepThenSwipe() throws {
        let creep = 0.5, creepSpeed = 8.0
        let plan = [FingerPlan(lands: 0, lifts: creep + 0.45) { t in
            t < creep ? Vector(60 + creepSpeed * t, 75) : Vector(60 + creepSpeed * creep + 150 * (t - creep), 75)
        }]
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: 100, noise: 0.2, seed: 4), rules: Self.rules)
        #expect(out.map(\.event.direction) == [.right])
        #expect((out.first?.event.velocity ?? 0) > 120)
    }

    @Test("a drag that never strokes faster than a creep is no swipe, however long it rests first")
    func creepOnly() {
        for rest in [0.0, 0.5] {
            let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 12, duration: 1.0, holdBefore: rest)
            #expect(TouchScript.recognize(TouchScript.frames(plan, rate: 100, noise: 0.2, seed: 5), rules: Self.rules).isEmpty)
        }
    }

    @Test("the time limit counts from the onset: a stroke still going 2 s after it began is no swipe")
    func limitFromOnset() {
        // 60 mm/s, straight, 2.4 s: too slow to commit, too long to judge at its lift.
        let plan = TouchScript.stroke(fingers: 1, angle: 0, length: 144, duration: 2.4, holdBefore: 0.5)
        #expect(TouchScript.recognize(TouchScript.frames(plan, rate: 100, noise: 0.2, seed: 6), rules: Self.rules).isEmpty)
        // The same speed over 1.5 s of stroke, after a 0.5 s rest, is judged at the lift.
        let shorter = TouchScript.stroke(fingers: 1, angle: 0, length: 90, duration: 1.5, holdBefore: 0.5)
        #expect(TouchScript.recognize(TouchScript.frames(shorter, rate: 100, noise: 0.2, seed: 6), rules: Self.rules).map(\.event.direction) == [.right])
    }

    @Test("the onset waits while the hand is slower than a creep, then stays")
    func states() {
        var onset = StrokeOnset.landed(at: 0, from: .zero)
        // Too soon after the landing to know the speed: it stays at the landing,
        // and a flick that lifts now is measured from there.
        onset.advance(time: 0.01, position: Vector(0.4, 0), speed: nil)
        #expect(onset == .landed(at: 0, from: .zero))
        // Over less than the minimum window the time counts as the window:
        // 8 mm in 40 ms reads as 8 mm in 50 ms, still a flick.
        #expect(abs(onset.speed(at: 0.04, position: Vector(8, 0)) - 160) < 1e-9)
        #expect(abs(onset.speed(at: 0.08, position: Vector(8, 0)) - 100) < 1e-9)
        onset.advance(time: 0.1, position: Vector(0.5, 0), speed: 5)
        #expect(onset == .creeping(at: 0.1, from: Vector(0.5, 0)))
        // Creeping is no stroke: a lift now has no stroke's speed.
        #expect(onset.speed(at: 0.11, position: Vector(1.5, 0)) == 0)
        onset.advance(time: 0.2, position: Vector(3, 0), speed: 25)
        #expect(onset == .stroking(since: 0.1, from: Vector(0.5, 0)))
        onset.advance(time: 0.3, position: Vector(3, 0), speed: 0)
        #expect(onset == .stroking(since: 0.1, from: Vector(0.5, 0)))
        #expect(abs(onset.speed(at: 0.3, position: Vector(40.5, 0)) - 200) < 1e-9)
    }
}
