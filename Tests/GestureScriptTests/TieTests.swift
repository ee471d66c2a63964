import GestureCore
import Testing

/// When two rules are recognized in the same frame, the gesture that
/// began first wins the sequence, whichever is built in and whichever is Lua;
/// gestures that began together go in the arena's order, built-in kinds first.
@Suite("Ties between gestures recognized in the same frame")
struct TieTests {
    static let centre = Vector(120, 75)

    /// A discrete Lua kind that ends at every lift: it begins with the press it ends on.
    static let lift = CooldownTests.lift + #"on("lift", function(g) emit("lift") end, { name = "lift" })"#

    @Test("a Lua kind that began earlier beats a built-in tap ending in the same frame (the knock over the two-finger tap)")
    func luaBeganFirst() throws {
        let s = try UserGestureScenario(KnockExampleTests.source, tracing: true)
        #expect(s.run(Strokes.frames(KnockExampleTests.knock(1.0))) == ["knock"])
        #expect(s.arena.traceLines.contains { $0.hasSuffix(#"tap: lost this sequence to rule "knock""#) }, "\(s.arena.traceLines)")
    }

    @Test("a built-in double tap that began a tap earlier beats a Lua kind ending on its second lift")
    func builtInBeganFirst() throws {
        // Ends at a lift that follows another within 0.5 s: it begins with the second press.
        let again = """
            local last
            recognizer("again", {
              frame = function(r, f)
                for _, touch in ipairs(f.touches) do
                  if touch.phase == "ended" then
                    local quick = last and f.t - last < 0.5
                    last = f.t
                    if quick then return r:ended() end
                  end
                end
              end,
            })
            on("again", function(g) emit("again") end)
            on("double tap", function(g) emit("double") end, { name = "double" })
            """
        let s = try UserGestureScenario(again, tracing: true)
        // The second lift ends both; the double tap began a tap earlier.
        #expect(s.run(Strokes.frames([Strokes.tap(at: Self.centre, 1.0), Strokes.tap(at: Self.centre, 1.2)])) == ["double"])
        #expect(s.arena.traceLines.contains { $0.hasSuffix(#"again: lost this sequence to rule "double""#) }, "\(s.arena.traceLines)")
    }

    @Test("begun together: the built-in kind goes first")
    func begunTogether() throws {
        let s = try UserGestureScenario(Self.lift + #"on("tap", function(g) emit("tap") end)"#, tracing: true)
        #expect(s.run(Strokes.frames([Strokes.tap(at: Self.centre, 1.0)])) == ["tap"])
        #expect(s.arena.traceLines.contains { $0.hasSuffix(#"lift: lost this sequence to rule "tap""#) }, "\(s.arena.traceLines)")
    }
}
