import GestureCore
import Testing

/// `cooldown` is one fact, kept by the core. A rule in its cooldown
/// steps aside from a gesture as a disabled rule does, for built-in and Lua
/// kinds alike.
@Suite("Cooldown in the core")
struct CooldownTests {
    static let centre = Vector(120, 75)
    /// Three taps 0.3 s apart, far enough apart in place to stay single taps.
    static let threeTaps = Strokes.frames([
        Strokes.tap(at: centre, 1.0), Strokes.tap(at: centre + Vector(40, 0), 1.3), Strokes.tap(at: centre - Vector(40, 0), 1.6),
    ])

    /// A discrete Lua kind that ends at every lift.
    static let lift = """
        recognizer("lift", {
          frame = function(r, f)
            for _, touch in ipairs(f.touches) do
              if touch.phase == "ended" then return r:ended() end
            end
          end,
        })
        """

    @Test("a discrete Lua kind under cooldown = 100 fires once for three taps, as a built-in tap does")
    func discreteLuaKind() throws {
        let lua = try UserGestureScenario(Self.lift + #"on("lift", function(g) emit("lift") end, { cooldown = 100 })"#)
        #expect(lua.run(Self.threeTaps) == ["lift"])
        let builtIn = try UserGestureScenario(#"on("tap", function(g) emit("tap") end, { cooldown = 100 })"#)
        #expect(builtIn.run(Self.threeTaps) == ["tap"])
        #expect(lua.emitted.compactMap { $0["t"] as? Double } == builtIn.emitted.compactMap { $0["t"] as? Double })
    }

    @Test("the cooldown ends on the input's clock: taps 0.3 s apart under cooldown = 0.5 fire first and third")
    func cooldownEnds() throws {
        let lua = try UserGestureScenario(Self.lift + #"on("lift", function(g) emit("lift") end, { cooldown = 0.5 })"#)
        #expect(lua.run(Self.threeTaps) == ["lift", "lift"])
        let builtIn = try UserGestureScenario(#"on("tap", function(g) emit("tap") end, { cooldown = 0.5 })"#)
        #expect(builtIn.run(Self.threeTaps) == ["tap", "tap"])
    }

    @Test("a rule in its cooldown steps aside: the gesture goes to the next rule that matches it, as if the first were disabled")
    func stepsAside() throws {
        let s = try UserGestureScenario("""
            on({ kind = "tap" }, function(g) emit("any tap") end)
            on("tap", function(g) emit("one-finger tap") end, { cooldown = 100 })
            """, tracing: true)
        #expect(s.run(Self.threeTaps) == ["one-finger tap", "any tap", "any tap"])
        let held = s.arena.traceLines.filter { $0.contains("held back by its cooldown") }
        #expect(held.count == 2, "\(s.arena.traceLines)")
        // The figure is the time really left: 100 s from the first lift, 0.3 s and 0.6 s later.
        #expect(held.first?.hasSuffix(#"rule "tap": held back by its cooldown (99.7 s left)"#) == true, "\(held)")
        #expect(held.last?.hasSuffix(#"rule "tap": held back by its cooldown (99.4 s left)"#) == true, "\(held)")
    }

    @Test("a rule in its cooldown claims nothing: a double tap rule still gets its taps")
    func claimsNothing() throws {
        let s = try UserGestureScenario(Self.lift + """
            on("lift", function(g) emit("lift") end, { cooldown = 100 })
            on("double tap", function(g) emit("double") end)
            """)
        let frames = Strokes.frames([
            Strokes.tap(at: Self.centre, 1.0),
            Strokes.tap(at: Self.centre + Vector(60, 0), 2.0), Strokes.tap(at: Self.centre + Vector(60, 0), 2.2),
        ])
        #expect(s.run(frames) == ["lift", "double"])
    }
}
