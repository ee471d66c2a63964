import Testing
@testable import GestureCore

/// Whether a claiming rule may still take the touches down: what a shared
/// device's desktop waits on before it gets a held sequence.
@Suite("Claims in the arena")
struct ClaimTests {
    static func arena(_ phrases: [(String, Bool)]) -> GestureArena {
        GestureArena(rules: phrases.map { phrase, claims in
            var rule = TouchScript.rule(phrase)
            rule.claims = claims
            return rule
        })
    }

    @Test("no claiming rule: never")
    func none() {
        var arena = Self.arena([("3-finger swipe left", false)])
        var out: [Delivery] = []
        for f in TouchScript.frames(TouchScript.stroke(fingers: 3, angle: 180, length: 5, duration: 0.05)).prefix(2) { arena.handle(f, into: &out) }
        #expect(!arena.claimMayStillFire)
    }

    @Test("a claimed swipe: open while three fingers may still swipe, closed once they lift without one")
    func swipe() {
        var arena = Self.arena([("3-finger swipe left", true), ("3-finger tap", false)])
        var out: [Delivery] = []
        let frames = TouchScript.frames(TouchScript.still(fingers: 3, duration: 0.1))
        arena.handle(frames[0], into: &out)
        #expect(arena.claimMayStillFire)
        for f in frames.dropFirst() { arena.handle(f, into: &out) }
        #expect(!arena.claimMayStillFire, "the fingers are up")
    }

    @Test("a claimed edge swipe: closed at once for a touch that lands away from the edge")
    func edge() {
        var out: [Delivery] = []
        var arena = Self.arena([("edge swipe from left", true)])
        arena.handle(TouchFrame(time: 1, touches: [Touch(id: 1, position: Vector(120, 75), phase: .began)], surface: Surface(width: 240, height: 150)), into: &out)
        #expect(!arena.claimMayStillFire)
        var near = Self.arena([("edge swipe from left", true)])
        near.handle(TouchFrame(time: 1, touches: [Touch(id: 1, position: Vector(1, 75), phase: .began)], surface: Surface(width: 240, height: 150)), into: &out)
        #expect(near.claimMayStillFire)
    }

    @Test("a claimed swipe left: closed once a slow stroke is settled as up (past swipe_min_distance, clear of the diagonal), still open while it goes left or is short",
          arguments: [(270.0, 22.0, false), (180.0, 22.0, true), (270.0, 6.0, true), (225.0, 22.0, true)])
    func settledDirection(angle: Double, travelled: Double, open: Bool) {
        var arena = Self.arena([("3-finger swipe left", true), ("3-finger swipe right", true)])
        var out: [Delivery] = []
        // 30 mm in 1 s: under swipe_commit_speed, so the swipe recognizer is still possible to the lift.
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 3, angle: angle, length: 30, duration: 1))
        let start = frames.first?.time ?? 0
        for frame in frames where frame.time - start <= travelled / 30 { arena.handle(frame, into: &out) }
        #expect(arena.tracker.downCount == 3)
        #expect(arena.claimMayStillFire == open)
    }
}
