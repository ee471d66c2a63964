import GestureCore
import Testing

/// What a Lua recognizer's frame holds. One frame per input instant;
/// `f.touches` every contact down plus those lifting in it, each with its
/// phase; `f.fingers` counting them the same way; the frame that fails it seen
/// again after its reset.
@Suite("The frame a Lua recognizer gets")
struct RecognizerFrameTests {
    /// Logs every frame as "t fingers id:phase ..." and ends at the last lift.
    static let logger = """
        recognizer("log", {
          frame = function(r, f)
            local words = { string.format("%.3f", f.t), tostring(f.fingers) }
            local down = 0
            for _, touch in ipairs(f.touches) do
              words[#words + 1] = touch.id .. ":" .. touch.phase
              if touch.phase ~= "ended" and touch.phase ~= "cancelled" then down = down + 1 end
            end
            emit("frame", { text = table.concat(words, " ") })
            if down == 0 then r:ended() end
          end,
        })
        on("log", function(g) end)
        """

    static func frames(_ s: UserGestureScenario) -> [String] {
        s.emitted.compactMap { $0["text"] as? String }
    }

    @Test("a second finger landing beside the first (held back a frame by the continuity stage) shows once, as began, with the first in the same frame")
    func secondFingerLands() throws {
        let surface = Surface(width: 250, height: 150)
        let a = Vector(100, 70), b = Vector(112, 70)
        var input: [TouchFrame] = []
        input.append(TouchFrame(time: 1.00, touches: [Touch(id: 1, position: a, phase: .began)], surface: surface))
        input.append(TouchFrame(time: 1.02, touches: [Touch(id: 1, position: a + Vector(0.2, 0), phase: .moved)], surface: surface))
        // The landing within 20 mm of finger 1 is held until the next report.
        input.append(TouchFrame(time: 1.04, touches: [Touch(id: 1, position: a + Vector(0.3, 0), phase: .moved),
                                                      Touch(id: 2, position: b, phase: .began)], surface: surface))
        input.append(TouchFrame(time: 1.06, touches: [Touch(id: 1, position: a + Vector(0.3, 0), phase: .stationary),
                                                      Touch(id: 2, position: b + Vector(0.1, 0), phase: .moved)], surface: surface))
        input.append(TouchFrame(time: 1.08, touches: [Touch(id: 1, position: a + Vector(0.3, 0), phase: .ended),
                                                      Touch(id: 2, position: b + Vector(0.1, 0), phase: .stationary)], surface: surface))
        input.append(TouchFrame(time: 1.10, touches: [Touch(id: 2, position: b + Vector(0.1, 0), phase: .ended)], surface: surface))
        let s = try UserGestureScenario(Self.logger)
        s.run(input)
        let shown = Self.frames(s)
        let times = shown.compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "one frame per instant: \(shown)")
        #expect(shown.filter { $0.contains("2:began") }.count == 1, "\(shown)")
        for line in shown {
            let words = line.split(separator: " ")
            #expect(Int(words[1]) == words.count - 2, "f.fingers counts f.touches: \(line)")
        }
        // Finger 1 lifts in a frame that still shows finger 2; the next frame shows finger 2 alone.
        #expect(shown.contains { $0.hasPrefix("1.080 2 ") && $0.contains("1:ended") && $0.contains("2:") }, "\(shown)")
        #expect(shown.last == "1.100 1 2:ended", "\(shown)")
        #expect(!shown.contains { $0.hasPrefix("1.040") && !$0.contains("1:") }, "no frame of the new finger alone: \(shown)")
    }

    @Test("a recognizer that fails in a frame is reset and sees that frame again, once")
    func failedFrameSeenAgain() throws {
        let s = try UserGestureScenario("""
            recognizer("picky", {
              frame = function(r, f)
                r.seen = (r.seen or 0) + 1
                emit("frame", { text = string.format("%.2f %d %s", f.t, r.seen, r.state) })
                if f.touches[1].phase == "began" and f.t > 1.5 then return r:fail("late") end
              end,
              reset = function(r) r.seen = nil end,
            })
            on("picky", function(g) end)
            """)
        s.run(Strokes.frames([Strokes.tap(at: Vector(100, 70), 2.0, for: 0.02)]))
        // 2.00 fails, is seen again after the reset (count back to 1), fails again, and stays failed.
        #expect(Self.frames(s) == ["2.00 1 possible", "2.00 1 possible"], "\(Self.frames(s))")
    }
}
