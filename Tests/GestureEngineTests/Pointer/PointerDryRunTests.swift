import Foundation
import GestureActions
import GestureCore
import GestureInput
import GestureEngine
import GestureSynth
import Testing

/// `pointer.*` and `touchpad.*` under `--dry-run`: the packets the virtual
/// devices would get, one JSON line each, from synthesized strokes.
@Suite("pointer and touchpad, dry run")
struct PointerDryRunTests {
    static func stream(seed: UInt64, _ gestures: [(String, Double)]) -> String {
        var synth = Synthesizer(seed: seed)
        var lines = JSONLines()
        lines.line(synth.header())
        for (phrase, gap) in gestures {
            guard case .success(let spec) = PhraseParser.parse(phrase) else { continue }
            synth.append(SynthGesture(spec: spec, gap: gap), to: &lines)
        }
        return lines.text
    }

    static func run(_ input: String, rules: String) throws -> (lines: [[String: Any]], messages: [String]) {
        let run = try runEngine(input: input, rules: rules) { $0.dryRun = true }
        let lines = run.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (lines, run.messages)
    }

    static func pointerLines(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["action"] as? String == "pointer" } }
    static func presses(_ lines: [[String: Any]], _ value: Int) -> [Double] {
        pointerLines(lines).filter { $0["button"] as? String == "left" && $0["value"] as? Int == value }.compactMap { $0["t"] as? Double }
    }
    static func total(_ lines: [[String: Any]], _ key: String) -> Int {
        pointerLines(lines).reduce(0) { $0 + (($1[key] as? Int) ?? 0) }
    }

    static let drag = """
    local lx, ly = 0, 0
    local function follow(g) pointer.move(g.dx - lx, g.dy - ly); lx, ly = g.dx, g.dy end
    on("3-finger pan", {
      began = function(g) lx, ly = 0, 0; pointer.press("left"); follow(g) end,
      changed = follow,
      ended = function(g) follow(g); emit("end", { dx = g.dx, dy = g.dy }); pointer.release("left") end,
      cancelled = function(g) pointer.release("left") end,
    })
    """

    @Test("a three-finger drag: one press before any motion, motion summing to the pan's translation times the gain (15 counts a mm), one release after",
          arguments: ["right", "left", "up", "down", "up-right"])
    func drag(direction: String) throws {
        for seed: UInt64 in 1...6 {
            let (lines, _) = try Self.run(Self.stream(seed: seed, [("3-finger pan \(direction)", 0.1)]), rules: Self.drag)
            let end = try #require(lines.first { $0["action"] as? String == "end" }, "seed \(seed): the pan never ended")
            let pointer = Self.pointerLines(lines)
            #expect(pointer.first?["button"] as? String == "left" && pointer.first?["value"] as? Int == 1)
            #expect(pointer.last?["button"] as? String == "left" && pointer.last?["value"] as? Int == 0)
            #expect(Self.presses(lines, 1).count == 1 && Self.presses(lines, 0).count == 1)
            let dx = try #require(end["dx"] as? Double), dy = try #require(end["dy"] as? Double)
            #expect(abs(Double(Self.total(lines, "dx")) - dx * 15) <= 0.5 + 1e-9, "seed \(seed): \(Self.total(lines, "dx")) counts for \(dx) mm")
            #expect(abs(Double(Self.total(lines, "dy")) - dy * 15) <= 0.5 + 1e-9, "seed \(seed): \(Self.total(lines, "dy")) counts for \(dy) mm")
        }
    }

    @Test("pointer_gain scales the counts")
    func gain() throws {
        let (lines, _) = try Self.run(Self.stream(seed: 3, [("3-finger pan right", 0.1)]), rules: "config{ pointer_gain = 2 }\n" + Self.drag)
        let end = try #require(lines.first { $0["action"] as? String == "end" })
        let dx = try #require(end["dx"] as? Double)
        #expect(abs(Double(Self.total(lines, "dx")) - dx * 2) <= 0.5 + 1e-9)
    }

    @Test("a press the rule never releases goes up when its gesture ends, at the end's time")
    func releasedAtEnd() throws {
        let rules = """
        on("3-finger pan", {
          began = function(g) pointer.press("left"); pointer.press("right") end,
          ended = function(g) emit("end") end,
          cancelled = function(g) emit("end") end,
        })
        """
        let (lines, _) = try Self.run(Self.stream(seed: 2, [("3-finger pan right", 0.1), ("tap", 0.5)]), rules: rules)
        let end = try #require(lines.firstIndex { $0["action"] as? String == "end" })
        let endTime = try #require(lines[end]["t"] as? Double)
        let ups = lines.enumerated().filter { $0.element["value"] as? Int == 0 }
        #expect(ups.map { $0.element["button"] as? String } == ["left", "right"])
        #expect(ups.allSatisfy { $0.offset > end && $0.element["t"] as? Double == endTime })
    }

    @Test("a release with `after` lingers: fingers back within it carry on the same drag (no release, no second press); back later, a new drag")
    func linger() throws {
        let rules = """
        on("3-finger pan", {
          began = function(g) pointer.press("left") end,
          ended = function(g) emit("end"); pointer.release("left", { after = 0.5 }) end,
        })
        """
        let soon = try Self.run(Self.stream(seed: 4, [("3-finger pan right", 0.1), ("3-finger pan right", 0.2)]), rules: rules).lines
        #expect(soon.filter { $0["action"] as? String == "end" }.count == 2)
        #expect(Self.presses(soon, 1).count == 1)
        #expect(Self.presses(soon, 0).count == 1)

        let later = try Self.run(Self.stream(seed: 4, [("3-finger pan right", 0.1), ("3-finger pan right", 1.5), ("tap", 1.5)]), rules: rules).lines
        let ends = later.filter { $0["action"] as? String == "end" }.compactMap { $0["t"] as? Double }
        #expect(Self.presses(later, 1).count == 2)
        let releases = Self.presses(later, 0)
        #expect(releases.count == 2)
        if let first = releases.first, let end = ends.first { #expect(abs(first - (end + 0.5)) < 1e-6) }
    }

    @Test("NaN, infinity and huge amounts: a clear error naming the call, and nothing sent")
    func badNumbers() throws {
        let rules = """
        on("tap", function(g)
          for _, call in ipairs({
            function() pointer.move(0/0, 1) end,
            function() pointer.move(1, math.huge) end,
            function() pointer.move(5000, 0) end,
            function() pointer.scroll(0, -1e9) end,
            function() pointer.move("1", 2) end,
            function() pointer.press("back") end,
            function() pointer.click("left", 7) end,
            function() pointer.release("left", { after = 60 }) end,
            function() touchpad.begin(1) end,
            function() touchpad.move(1, 1) end,
          }) do
            local ok, err = pcall(call)
            emit("error", { message = tostring(err) })
          end
        end)
        """
        let (lines, _) = try Self.run(Self.stream(seed: 1, [("tap", 0.1)]), rules: rules)
        #expect(Self.pointerLines(lines).isEmpty)
        #expect(lines.filter { $0["action"] as? String == "touchpad" }.isEmpty)
        let messages = lines.compactMap { $0["message"] as? String }.map { $0.replacingOccurrences(of: #"^[^:]*rules\.lua:\d+: "#, with: "", options: .regularExpression) }
        #expect(messages == [
            "pointer.move(nan, 1): the amounts must be finite numbers of mm; nothing was sent",
            "pointer.move(1, inf): the amounts must be finite numbers of mm; nothing was sent",
            "pointer.move(5000, 0): at most 1000 mm a call; nothing was sent (is the amount in mm?)",
            "pointer.scroll(0, -1000000000): at most 100 notches a call; nothing was sent (is the amount in notches?)",
            "pointer.move(dx, dy) takes two numbers (mm), as in pointer.move(g.dx - last_dx, g.dy - last_dy); it got a string, 2",
            "pointer.press(button): button is \"left\", \"right\" or \"middle\", not \"back\"",
            "pointer.click(\"left\", count): count is 1 to 3 clicks (2 for a double click), not 7",
            "pointer.release(\"left\", { after = 60 }): after is 0 to 5 seconds",
            "touchpad.begin(fingers): fingers is 2 to 5 (2 scrolls, 3 and 4 are the desktop's swipes), not 1",
            "touchpad.move(): no fingers are on the virtual touchpad; call touchpad.begin(fingers) first, as the gesture begins",
        ])
    }

    @Test("a handler that loops cannot flood the desktop: 64 packets an input instant, said once, and the release still goes")
    func budget() throws {
        let rules = """
        on("3-finger pan", {
          began = function(g) pointer.press("left") end,
          changed = function(g) for i = 1, 1000 do pointer.move(1, 0) end end,
          ended = function(g) for i = 1, 1000 do pointer.scroll(0, 1) end; pointer.release("left") end,
        })
        """
        let run = try Self.run(Self.stream(seed: 5, [("3-finger pan right", 0.1)]), rules: rules)
        let byTime = Dictionary(grouping: Self.pointerLines(run.lines)) { $0["t"] as? Double ?? -1 }
        #expect(byTime.count > 3)
        #expect(byTime.values.allSatisfy { $0.count <= 64 + 1 })
        #expect(Self.presses(run.lines, 0).count == 1)
        let said = run.messages.filter { $0.contains("calls at this input instant already") }
        #expect(said.count == 1)
        #expect(said.first?.hasSuffix("pointer and touchpad: 64 calls at this input instant already, the most there may be; the rest of that instant's are dropped, here and at any instant after (releases and lifts still go through; said once)") == true)
    }

    @Test("clicking a button that is down is refused; a click is a press and a release, count times")
    func clicks() throws {
        let rules = """
        on("tap", function(g)
          pointer.click("right", 2)
          pointer.press("middle")
          local ok, err = pcall(pointer.click, "middle")
          emit("error", { message = tostring(err) })
        end)
        """
        let (lines, _) = try Self.run(Self.stream(seed: 1, [("tap", 0.1)]), rules: rules)
        let buttons = Self.pointerLines(lines).map { "\($0["button"] as? String ?? "?")\($0["value"] as? Int ?? -1)" }
        #expect(buttons == ["right1", "right0", "right1", "right0", "middle1", "middle0"])
        let message = try #require(lines.first { $0["action"] as? String == "error" }?["message"] as? String)
        #expect(message.hasSuffix("pointer.click(\"middle\"): the middle button is down; release it first (pointer.release(\"middle\"))"))
    }

    @Test("scrolling: notches become hi-res units (120 each) and classic wheel clicks, down negative")
    func scroll() throws {
        let (lines, _) = try Self.run(Self.stream(seed: 1, [("tap", 0.1)]), rules: "on('tap', function(g) pointer.scroll(0, 2.5); pointer.scroll(-1, 0) end)")
        #expect(Self.total(lines, "wheel_hi_res") == -300)
        #expect(Self.total(lines, "wheel") == -2)
        #expect(Self.total(lines, "hwheel_hi_res") == -120)
        #expect(Self.total(lines, "hwheel") == -1)
    }

    @Test("a four-finger pan on a touchscreen handed to the virtual touchpad: fingers land at its start, follow it 1:1 in mm, and lift at its end, even when the rule forgets to")
    func touchpad() throws {
        let rules = """
        local lx, ly = 0, 0
        on("4-finger pan", {
          began = function(g) touchpad.begin(4); lx, ly = 0, 0; touchpad.move(g.dx, g.dy); lx, ly = g.dx, g.dy end,
          changed = function(g) touchpad.move(g.dx - lx, g.dy - ly); lx, ly = g.dx, g.dy end,
          ended = function(g) touchpad.move(g.dx - lx, g.dy - ly); emit("end", { dx = g.dx, dy = g.dy }) end,
        })
        """
        let (lines, _) = try Self.run(Self.stream(seed: 2, [("4-finger pan left", 0.1)]), rules: rules)
        let pad = lines.filter { $0["action"] as? String == "touchpad" }
        let end = try #require(lines.first { $0["action"] as? String == "end" })
        #expect(pad.first?["fingers"] as? Int == 4)
        #expect(pad.first?["x"] as? Double == 150 && pad.first?["y"] as? Double == 100)
        #expect(pad.last?["fingers"] as? Int == 0)
        let lastDown = try #require(pad.dropLast().last)
        let dx = try #require(end["dx"] as? Double), dy = try #require(end["dy"] as? Double)
        #expect(abs((lastDown["x"] as? Double ?? 0) - (150 + dx)) < 1e-6)
        #expect(abs((lastDown["y"] as? Double ?? 0) - (100 + dy)) < 1e-6)
    }
}

@Suite("the virtual touchpad is not read back")
struct OwnTouchpadTests {
    @Test("the name device discovery skips is the virtual touchpad's")
    func sameName() {
        #expect(DeviceScanner.ownTouchpadName == VirtualPointingDevice.touchpadName)
        #expect(DeviceScanner.ownPointerName == VirtualPointingDevice.pointerName)
    }
}
