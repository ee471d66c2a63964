import GestureCore
import Testing
@testable import GestureScript

/// The three worked examples of docs/lua-api.md, as written there, on touches
/// timed to the millisecond.
@Suite("Lua recognizer examples")
struct RecognizerExampleTests {
    static let centre = Vector(120, 75)

    @Test("the examples are in the document")
    func present() {
        for name in ["tap-tap-hold", "zigzag", "corner taps"] { #expect(DocExamples.code(name).contains("recognizer("), "\(name)") }
    }

    // MARK: tap-tap-hold

    @Test("tap, tap, hold: the hold begins 0.4 s into the third press and ends at its lift; the taps are not delivered")
    func rhythm() throws {
        let s = try UserGestureScenario(DocExamples.code("tap-tap-hold"))
        let frames = Strokes.frames([
            Strokes.tap(at: Self.centre, 1.0), Strokes.tap(at: Self.centre, 1.25),
            Strokes.line([Self.centre, Self.centre + Vector(0.5, 0)], 1.5, for: 0.9),
        ])
        #expect(s.run(frames) == ["hold", "release"])
        #expect(s.emitted.first?["t"] as? Double == 1.9)
        #expect(s.emitted.first?["rhythm"] as? String == "tap-tap-hold")
    }

    @Test("a built-in tap waits for the rhythm to fail: a lone tap is delivered when the rhythm gives up, 0.4 s after its lift")
    func loneTap() throws {
        let s = try UserGestureScenario(DocExamples.code("tap-tap-hold"))
        #expect(s.run(Strokes.frames([Strokes.tap(at: Self.centre, 1.0)])) == ["tap"])
        // Lifted at 1.08, held until the rhythm failed 0.4 s later, and dated
        // when delivered: actions leave in time order.
        #expect(s.emitted.first?["t"] as? Double == 1.48)
    }

    @Test("out of rhythm: two taps then nothing, a slow second tap, a hold lifted early, two fingers")
    func outOfRhythm() throws {
        let c = Self.centre
        // Two taps and no third press: the taps, released when the rhythm fails.
        #expect(try UserGestureScenario(DocExamples.code("tap-tap-hold")).run(Strokes.frames([Strokes.tap(at: c, 1.0), Strokes.tap(at: c, 1.25)])) == ["tap", "tap"])
        // The second tap 0.6 s after the first: no rhythm, each tap on its own.
        #expect(try UserGestureScenario(DocExamples.code("tap-tap-hold")).run(Strokes.frames([Strokes.tap(at: c, 1.0), Strokes.tap(at: c, 1.7)])) == ["tap", "tap"])
        // The third press lifted after 0.2 s: a third tap, and no hold.
        let early = Strokes.frames([Strokes.tap(at: c, 1.0), Strokes.tap(at: c, 1.25), Strokes.tap(at: c, 1.5, for: 0.2)])
        #expect(try UserGestureScenario(DocExamples.code("tap-tap-hold")).run(early) == ["tap", "tap", "tap"])
        // A first press longer than a tap: nothing.
        #expect(try UserGestureScenario(DocExamples.code("tap-tap-hold")).run(Strokes.frames([Strokes.tap(at: c, 1.0, for: 0.6)])).isEmpty)
    }

    @Test("the trace shows the rhythm's states and the tap it held")
    func rhythmTrace() throws {
        let s = try UserGestureScenario(DocExamples.code("tap-tap-hold"), tracing: true)
        s.run(Strokes.frames([Strokes.tap(at: Self.centre, 1.0)]))
        #expect(s.arena.traceLines.contains("t=1.08 rule \"tap\": held until rule \"rhythm\" fail"), "\(s.arena.traceLines)")
        #expect(s.arena.traceLines.contains("t=1.48 tap-tap-hold: possible → fail(): out of rhythm → failed"), "\(s.arena.traceLines)")
    }

    // MARK: zigzag

    static func zigzag(turns: Int, width: Double = 20, start: Double = 1, leg: Double = 0.15) -> Strokes.Stroke {
        var points = [Vector(100, 40)]
        for i in 0...turns { points.append(Vector(i % 2 == 0 ? 100 + width : 100, 40 + Double(i + 1) * 8)) }
        return Strokes.line(points, start, for: leg * Double(turns + 1))
    }

    @Test("a zig-zag of three turns or more is one, at its lift, with the turns it made")
    func zigzag() throws {
        for turns in [3, 5] {
            let s = try UserGestureScenario(DocExamples.code("zigzag"))
            let frames = Strokes.frames([Self.zigzag(turns: turns)])
            #expect(s.run(frames) == ["scratch"])
            #expect(s.emitted.first?["turns"] as? Int == turns)
            #expect(s.emitted.first?["t"] as? Double == frames.last?.time)
        }
    }

    @Test("two turns, turns of 4 mm, a straight stroke, two fingers: no zig-zag")
    func notZigzag() throws {
        #expect(try UserGestureScenario(DocExamples.code("zigzag")).run(Strokes.frames([Self.zigzag(turns: 2)])).isEmpty)
        #expect(try UserGestureScenario(DocExamples.code("zigzag")).run(Strokes.frames([Self.zigzag(turns: 6, width: 4)])).isEmpty)
        let straight = Strokes.line([Vector(100, 40), Vector(160, 60)], 1, for: 0.3)
        #expect(try UserGestureScenario(DocExamples.code("zigzag")).run(Strokes.frames([straight])).isEmpty)
        let two = [Self.zigzag(turns: 4), { var s = Self.zigzag(turns: 4); s.path = s.path.map { $0 + Vector(30, 0) }; return s }()]
        #expect(try UserGestureScenario(DocExamples.code("zigzag")).run(Strokes.frames(two)).isEmpty)
    }

    @Test("beside swipe rules: a zig-zag is no swipe, a swipe is no zig-zag, and a first leg fast and straight enough is a swipe")
    func zigzagBesideSwipe() throws {
        let source = DocExamples.code("zigzag") + "\non(\"swipe down\", function(g) emit(\"down\") end)\non(\"swipe right\", function(g) emit(\"right\") end)\n"
        // Legs at 70 mm/s: the swipe never commits mid-gesture, fails at the lift (it wound), and the zig-zag wins.
        #expect(try UserGestureScenario(source).run(Strokes.frames([Self.zigzag(turns: 4, leg: 0.3)])) == ["scratch"])
        // Legs at 140 mm/s: the first leg, straight and fast, is a swipe right before it turns, as swipes are not slowed.
        #expect(try UserGestureScenario(source).run(Strokes.frames([Self.zigzag(turns: 4)])) == ["right"])
        let flick = Strokes.line([Vector(100, 40), Vector(150, 42)], 1, for: 0.15)
        #expect(try UserGestureScenario(source).run(Strokes.frames([flick])) == ["right"])
    }

    // MARK: corner taps

    @Test("taps in one corner are counted, and the gesture comes 0.5 s after the last")
    func cornerTaps() throws {
        let s = try UserGestureScenario(DocExamples.code("corner taps"))
        let corner = Vector(245, 5)
        let frames = Strokes.frames([Strokes.tap(at: corner, 1.0), Strokes.tap(at: corner, 1.3), Strokes.tap(at: corner + Vector(-3, 2), 1.6)])
        #expect(s.run(frames) == ["corner"])
        #expect(s.emitted.first?["corner"] as? String == "top-right")
        #expect(s.emitted.first?["count"] as? Int == 3)
        #expect(s.emitted.first?["t"] as? Double == 2.18)
    }

    @Test("two corners make two gestures when the taps are far enough apart in time; taps away from a corner none")
    func corners() throws {
        let frames = Strokes.frames([
            Strokes.tap(at: Vector(4, 146), 1.0), Strokes.tap(at: Vector(5, 145), 1.2),
            Strokes.tap(at: Vector(4, 4), 2.5),
            Strokes.tap(at: Vector(120, 75), 4.0), Strokes.tap(at: Vector(20, 4), 5.0),
        ])
        let s = try UserGestureScenario(DocExamples.code("corner taps"))
        #expect(s.run(frames) == ["corner", "corner"])
        #expect(s.emitted.map { "\($0["corner"] ?? "") \($0["count"] ?? "")" } == ["bottom-left 2", "top-left 1"])
        // A tap in another corner before the pause ends the first count, and,
        // seen again after the reset, starts its own (the frame that
        // fails a recognizer is its first after the reset).
        let mixed = Strokes.frames([Strokes.tap(at: Vector(4, 4), 1.0), Strokes.tap(at: Vector(246, 4), 1.2)])
        let again = try UserGestureScenario(DocExamples.code("corner taps"))
        #expect(again.run(mixed) == ["corner"])
        #expect(again.emitted.map { "\($0["corner"] ?? "") \($0["count"] ?? "")" } == ["top-right 1"])
    }
}
