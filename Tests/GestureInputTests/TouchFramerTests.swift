import GestureCore
import GestureInput
import Testing

/// The framer takes the usual move (a contact down, the clock running forward,
/// nothing ignored) on a short path; these pin that it frames every move the
/// way the general path does, at each edge of that path.
@Suite("TouchFramer: moves")
struct TouchFramerTests {
    /// Applies `events`, returning the frames closed and the anomalies reported.
    private func frames(
        _ events: [(TouchEventKind, Double, Int, Double?, Double?)], palmAt: Int? = nil
    ) -> (frames: [TouchFrame], anomalies: [FramingAnomaly?]) {
        var framer = TouchFramer()
        var out: [TouchFrame] = []
        var anomalies: [FramingAnomaly?] = []
        for (n, (kind, time, id, x, y)) in events.enumerated() {
            if n == palmAt { _ = framer.palm(time: time, id: 9, emit: { out.append($0) }) }
            anomalies.append(framer.apply(kind, time: time, id: id, x: x, y: y, emit: { out.append($0) }))
        }
        framer.finish { out.append($0) }
        return (out, anomalies)
    }

    private func summary(_ frame: TouchFrame) -> [String] {
        frame.touches.map { "\($0.id)@\($0.position.x),\($0.position.y):\($0.phase)" }
    }

    @Test("a move at a new time closes the open frame; a contact that did not move is stationary")
    func newTimeCloses() {
        let r = frames([
            (.down, 1, 1, 10, 10), (.down, 1, 2, 20, 20),
            (.move, 2, 1, 11, 10),
            (.move, 3, 2, 21, 22), (.move, 3, 1, 12, 10),
        ])
        #expect(r.anomalies.allSatisfy { $0 == nil })
        #expect(r.frames.map(\.time) == [1, 2, 3, 3])
        #expect(summary(r.frames[0]) == ["1@10.0,10.0:began", "2@20.0,20.0:began"])
        #expect(summary(r.frames[1]) == ["1@11.0,10.0:moved", "2@20.0,20.0:stationary"])
        #expect(summary(r.frames[2]) == ["1@12.0,10.0:moved", "2@21.0,22.0:moved"])
        #expect(summary(r.frames[3]) == ["1@12.0,10.0:cancelled", "2@21.0,22.0:cancelled"])
    }

    @Test("moves within one instant merge: the last position wins, and the frame stays open")
    func sameInstantMerges() {
        let r = frames([(.down, 1, 1, 10, 10), (.sync, 1, 0, nil, nil), (.move, 2, 1, 11, 11), (.move, 2, 1, 13, 14), (.sync, 2, 0, nil, nil)])
        #expect(r.frames.count == 3)
        #expect(summary(r.frames[1]) == ["1@13.0,14.0:moved"])
    }

    @Test("a move back in time is framed at the previous time and reported")
    func backwardsMove() {
        let r = frames([(.down, 5, 1, 10, 10), (.sync, 5, 0, nil, nil), (.move, 4, 1, 11, 10), (.sync, 4, 0, nil, nil)])
        #expect(r.anomalies[2] == .timeWentBackwards)
        #expect(r.frames.map(\.time) == [5, 5, 5])
        #expect(summary(r.frames[1]) == ["1@11.0,10.0:moved"])
    }

    @Test("a move after a jump of more than a day goes on from the previous time, reported")
    func clockJump() {
        let r = frames([(.down, 5, 1, 10, 10), (.sync, 5, 0, nil, nil), (.move, 5 + 200_000, 1, 11, 10), (.sync, 5 + 200_000, 0, nil, nil)])
        #expect(r.anomalies[2] == .clockJumped)
        #expect(r.frames.map(\.time) == [5, 5, 5])
    }

    @Test("a move of a contact that is not down lands it, reported")
    func moveOfUnknown() {
        let r = frames([(.down, 1, 1, 10, 10), (.move, 2, 7, 30, 30)])
        #expect(r.anomalies[1] == .moveForUnknownTouch)
        #expect(summary(r.frames[1]) == ["1@10.0,10.0:stationary", "7@30.0,30.0:began"])
    }

    @Test("a move far off the surface is ignored; an axis without a value keeps its last one")
    func outOfRangeAndOneAxis() {
        let far = InputLimits.maxMillimetres * 2
        let r = frames([(.down, 1, 1, 10, 10), (.move, 2, 1, far, 10), (.move, 3, 1, nil, 12)])
        #expect(r.anomalies[1] == .positionOutOfRange)
        #expect(r.frames.map(\.time) == [1, 3, 3])
        #expect(summary(r.frames[1]) == ["1@10.0,12.0:moved"])
    }

    @Test("with a palm ignored, the fingers beside it still move")
    func palmBeside() {
        let r = frames([(.down, 1, 9, 50, 50), (.down, 1, 1, 10, 10), (.move, 2, 1, 11, 10), (.move, 2, 9, 60, 60)], palmAt: 2)
        #expect(r.anomalies.allSatisfy { $0 == nil })
        // The palm's cancel closes the landing frame; its later move is dropped.
        #expect(summary(r.frames[1]) == ["9@50.0,50.0:cancelled", "1@11.0,10.0:moved"])
        #expect(r.frames.count == 3)
    }
}
