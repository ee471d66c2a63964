import GestureCore
import Testing

/// A rule that requires the failure of a Lua recognizer which keeps itself
/// undecided (a deadline that always re-arms): every one of its gestures
/// waits, across sequences, to the end of the input. scripts/bench-hostile
/// ("held taps") shows the cost stays linear in the taps.
@Suite("Gestures held by a recognizer that never decides")
struct HeldForeverTests {
    static let limbo = """
        recognizer("limbo", {
          frame = function(r, f) if not r.armed then r.armed = true; r:deadline(f.t + 0.5) end end,
          timeout = function(r, t) r:deadline(t + 0.5) end,
          reset = function(r) r.armed = nil end,
        })
        on("limbo", function(g) emit("limbo") end, { name = "limbo" })
        on("tap", function(g) emit("tap") end, { requires_failure_of = "limbo" })
        """

    @Test("60 taps wait to the end of input; then each is released once, in order, dated then; the recognizer never fires")
    func releasedAtTheEnd() throws {
        let s = try UserGestureScenario(Self.limbo, tracing: true)
        let strokes = (0..<60).map { Strokes.tap(at: Vector(100, 70), 1.0 + Double($0) * 0.7) }
        let frames = Strokes.frames(strokes)
        #expect(s.run(frames) == Array(repeating: "tap", count: 60))
        let lines = s.arena.traceLines
        #expect(lines.filter { $0.contains(#"rule "tap": held until rule "limbo" fail"#) }.count == 60, "\(lines.suffix(5))")
        #expect(lines.filter { $0.contains(#"rule "tap": released"#) }.count == 60, "\(lines.suffix(5))")
        let times = s.emitted.compactMap { $0["t"] as? Double }
        let last = try #require(frames.last?.time)
        #expect(times.count == 60 && times.allSatisfy { $0 >= last && $0 == times[0] }, "\(times.prefix(3)) after \(last)")
    }
}
