import GestureCore
import GestureSynth
import Testing

/// The evidence point, the first frame at which all of a swipe's
/// fingers are down and each has travelled `swipe_min_distance` from where it landed.
@Suite("A swipe's evidence point")
struct SwipeEvidenceTests {
    /// Fingers moving right at `step` mm a frame of 10 ms from their landing,
    /// each from its own landing frame; every finger lifts at frame `lift`.
    static func frames(landings: [Int], step: Double, lift: Int, liftEarly: (finger: Int, frame: Int)? = nil) -> [TouchFrame] {
        (0...lift).map { k in
            let touches = landings.enumerated().compactMap { i, landed -> Touch? in
                guard k >= landed else { return nil }
                let lifts = liftEarly?.finger == i ? liftEarly?.frame ?? lift : lift
                guard k <= lifts else { return nil }
                let p = Vector(20 + step * Double(k - landed), 20 + 15 * Double(i))
                return Touch(id: i + 1, position: p, phase: k == landed ? .began : k == lifts ? .ended : .moved)
            }
            return TouchFrame(time: Double(k) * 0.01, touches: touches)
        }
    }

    @Test("fingers landing together: the first frame at which each has gone 10 mm")
    func together() throws {
        let measured = SwipeEvidence.measure(Self.frames(landings: [0, 0], step: 2.5, lift: 10))
        let swipe = try #require(measured.first)
        #expect(measured.count == 1)
        #expect(swipe.fingers == 2)
        #expect(swipe.firstLanding == 0)
        #expect(abs(swipe.lastLift - 0.1) < 1e-9)
        #expect(abs((swipe.evidence ?? -1) - 0.04) < 1e-9)
    }

    @Test("a finger landing late: the evidence waits for it to travel 10 mm from where it landed")
    func lateFinger() throws {
        let swipe = try #require(SwipeEvidence.measure(Self.frames(landings: [0, 3], step: 2.5, lift: 12)).first)
        #expect(swipe.fingers == 2)
        #expect(abs((swipe.evidence ?? -1) - 0.07) < 1e-9)
    }

    @Test("a finger that lifts before it has travelled the distance leaves no evidence point")
    func liftFirst() throws {
        let frames = Self.frames(landings: [0, 0], step: 2, lift: 10, liftEarly: (finger: 1, frame: 3))
        let swipe = try #require(SwipeEvidence.measure(frames).first)
        #expect(swipe.fingers == 2)
        #expect(swipe.evidence == nil)
    }

    @Test("a stroke shorter than the distance has none; a sequence still open is left out")
    func shortAndOpen() {
        #expect(SwipeEvidence.measure(Self.frames(landings: [0], step: 0.5, lift: 10)).first?.evidence == nil)
        #expect(SwipeEvidence.measure(Array(Self.frames(landings: [0], step: 3, lift: 10).dropLast())).isEmpty)
    }

    @Test("one entry per touch sequence, each with its own times")
    func sequences() {
        let first = Self.frames(landings: [0], step: 3, lift: 8)
        let second = Self.frames(landings: [0, 0, 1], step: 3, lift: 9).map { frame -> TouchFrame in
            var f = frame
            f.time += 1
            f.touches = f.touches.map { Touch(id: $0.id + 10, position: $0.position, phase: $0.phase) }
            return f
        }
        let measured = SwipeEvidence.measure(first + second)
        #expect(measured.map(\.fingers) == [1, 3])
        #expect(measured.map(\.firstLanding) == [0, 1])
        #expect(abs((measured.last?.evidence ?? -1) - 1.05) < 1e-9)
    }
}
