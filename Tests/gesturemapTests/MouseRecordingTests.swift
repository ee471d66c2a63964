import Foundation
import Testing

/// A mouse's recording (evemu, raw evdev records, NDJSON mouse lines) read
/// by `run` and `test`: its strokes and chords go through the shared mouse's
/// gate, on the recording's own clock, to the rules.
@Suite("Mouse recordings, through the binary")
struct MouseRecordingTests {
    static let rules = """
    on({ kind = "stroke", direction = "left" }, function(g) emit("back", { button = g.button, direction = g.direction }) end)
    on({ kind = "chord", button = "right", wheel = "up" }, function(g) emit("louder", { wheel = g.wheel }) end)

    """

    /// A right click, then a right-button stroke left of 600 counts (15 mm at 1000 dpi).
    static func clickThenStroke() -> KernelMouse.Script {
        var s = KernelMouse.Script()
        s.click(KernelMouse.right)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 30)
        return s
    }

    static func run(_ input: String, rules: String = MouseRecordingTests.rules, _ extra: [String] = []) throws -> Binary.Result {
        let file = try Binary.temporaryFile("mouse.lua", rules)
        return try Binary.run(["run", "--rules", file.path] + extra + [input])
    }

    @Test("an evemu recording's right-button stroke left runs the left rule, with g.button and g.direction; its right click runs none")
    func evemuStroke() throws {
        let result = try Self.run(Self.clickThenStroke().file("stroke.evemu"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [#"{"action":"back","t":0.864,"button":"right","direction":"left"}"#], "\(result.stderr)")
        // Counts are no surface's units: nothing is said of CSS pixels.
        #expect(!result.stderr.contains("CSS pixels"), "\(result.stderr)")
    }

    @Test("raw evdev records of the same mouse run the same rule, once")
    func rawStroke() throws {
        let raw = try Binary.temporaryDirectory().appendingPathComponent("stroke.raw")
        try Self.records(of: Self.clickThenStroke()).write(to: raw)
        let result = try Self.run(raw.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [#"{"action":"back","t":0.864,"button":"right","direction":"left"}"#], "\(result.stderr)")
    }

    @Test("-v says what became of each press of a bound button: too short, no rule for it, taken; and the resolution it read at")
    func verboseReasons() throws {
        var s = KernelMouse.Script()
        s.press(KernelMouse.right)
        s.move(dx: -20, dy: 0, packets: 6)   // 120 counts: 3.0 mm
        s.release(KernelMouse.right)
        s.pause(0.5)
        s.press(KernelMouse.right)
        s.move(dx: 0, dy: -20, packets: 30)  // up: no rule names it
        s.release(KernelMouse.right)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 30)
        let rules = try Binary.temporaryFile("mouse.lua", Self.rules)
        let result = try Binary.run(["run", "--rules", rules.path, "-v", try s.file("reasons.evemu")])
        #expect(result.status == 0)
        let said = result.errorLines.filter { $0.contains("mouse stroke") || $0.contains("dpi") }
        #expect(said == [
            "gesturemap: gesturemap kernel-test mouse: a mouse's recording: its strokes are read at 1000 dpi (a recording carries no MOUSE_DPI; set config{ mouse_dpi = N } to give the mouse's own)",
            "gesturemap: gesturemap kernel-test mouse: t=0.156 mouse stroke (right button): no stroke: it went 3.0 mm; a stroke goes 5.0 mm or more",
            "gesturemap: gesturemap kernel-test mouse: t=0.744 mouse stroke (right button): its first arm goes up, and no rule for the right button starts so: the desktop gets the press and the drag at once",
            "gesturemap: gesturemap kernel-test mouse: t=1.668 mouse stroke left (right button): \(rules.path):1 takes it",
        ], "\(result.stderr)")
    }

    @Test("the gate's 250 ms rest runs on the recording's clock: a stroke that rests 0.3 s before the release is a drag, one that rests 0.2 s a stroke")
    func restOnTheRecordingsClock() throws {
        var s = KernelMouse.Script()
        s.press(KernelMouse.right)
        s.move(dx: -20, dy: 0, packets: 30)
        s.pause(0.3)
        s.release(KernelMouse.right)
        s.pause(0.5)
        s.press(KernelMouse.right)
        s.move(dx: -20, dy: 0, packets: 30)
        s.pause(0.2)
        s.release(KernelMouse.right)
        let result = try Self.run(s.file("rest.evemu"), ["--trace=json"])
        #expect(result.status == 0)
        let strokes = result.errorLines.compactMap(Binary.json).filter { $0["type"] as? String == "stroke" }
        #expect(strokes.map { $0["outcome"] as? String } == ["released", "claimed"], "\(result.stderr)")
        #expect(strokes.first?["reason"] as? String
                == "no stroke: it rested 0.25 s before the button went up; a stroke ends at the release, and a rest this long makes it a drag")
        #expect(result.lines.count == 1, "\(result.stdout)")
    }

    @Test("config{ mouse_dpi } sets the counts a millimetre: 150 counts are 3.8 mm at 1000 dpi (no stroke) and 9.5 mm at 400 (a stroke)")
    func configuredResolution() throws {
        var s = KernelMouse.Script()
        s.drag(KernelMouse.right, dx: -15, dy: 0, packets: 10)
        let input = try s.file("short.evemu")
        #expect(try Self.run(input).lines.isEmpty)
        let at400 = try Self.run(input, rules: "config{ mouse_dpi = 400 }\n" + Self.rules, ["-v"])
        #expect(at400.lines.count == 1, "\(at400.stderr)")
        #expect(at400.stderr.contains("its strokes are read at 400 dpi (config{ mouse_dpi })"), "\(at400.stderr)")
    }

    @Test("NDJSON mouse lines: a stroke and a chord run their rules; malformed mouse lines are named at their line and skipped")
    func ndjson() throws {
        var lines = [#"{"t":0.1,"ev":"press","button":"right"}"#]
        for i in 1...30 { lines.append(#"{"t":\#(0.1 + Double(i) * 0.008),"ev":"motion","dx":-20,"dy":1}"#) }
        lines += [
            #"{"t":0.4,"ev":"release","button":"right"}"#,
            #"{"t":1.0,"ev":"press","button":"thumb"}"#,
            #"{"t":1.0,"ev":"motion","dx":0.5}"#,
            #"{"t":1.0,"ev":"wheel"}"#,
            #"{"t":2.0,"ev":"press","button":"right"}"#,
            #"{"t":2.1,"ev":"wheel","dir":"up"}"#,
            #"{"t":2.2,"ev":"release","button":"right"}"#,
        ]
        let input = try Binary.temporaryFile("mouse.ndjson", lines.joined(separator: "\n") + "\n")
        let result = try Self.run(input.path)
        #expect(result.status == 0)
        #expect(result.lines == [
            #"{"action":"back","t":0.4,"button":"right","direction":"left"}"#,
            #"{"action":"louder","t":2.1,"wheel":"up"}"#,
        ], "\(result.stderr)")
        #expect(result.errorLines == [
            "\(input.path):33: unknown \"button\" \"thumb\"; use one of left, right, middle, side, extra",
            "\(input.path):34: \"dx\" and \"dy\" must be whole counts, within ±2147483647",
            "\(input.path):35: a \"wheel\" line needs \"dir\": up, down, left or right",
        ])
    }

    @Test("phrases run as their tables do: \"right-drag left\" and \"right+wheel up\"")
    func phrases() throws {
        let rules = """
        on("right-drag left", function(g) emit("back", { button = g.button, direction = g.direction }) end)
        on("right+wheel up", function(g) emit("louder", { wheel = g.wheel }) end)

        """
        var lines = [#"{"t":0.1,"ev":"press","button":"right"}"#]
        for i in 1...30 { lines.append(#"{"t":\#(0.1 + Double(i) * 0.008),"ev":"motion","dx":-20,"dy":1}"#) }
        lines += [#"{"t":0.4,"ev":"release","button":"right"}"#, #"{"t":2.0,"ev":"press","button":"right"}"#,
                  #"{"t":2.1,"ev":"wheel","dir":"up"}"#, #"{"t":2.2,"ev":"release","button":"right"}"#]
        let input = try Binary.temporaryFile("mouse.ndjson", lines.joined(separator: "\n") + "\n")
        let result = try Self.run(input.path, rules: rules)
        #expect(result.lines == [
            #"{"action":"back","t":0.4,"button":"right","direction":"left"}"#,
            #"{"action":"louder","t":2.1,"wheel":"up"}"#,
        ], "\(result.stderr)")
    }

    @Test("check reads mouse phrases as run does, and names a wrong one at its line")
    func checkPhrases() throws {
        let good = try Binary.temporaryFile("good.lua", #"on("middle-drag up,left", function(g) end)"# + "\n" + #"on("left+right", function(g) end)"# + "\n")
        let ok = try Binary.run(["check", good.path])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try Binary.temporaryFile("bad.lua", "\n" + #"on("right-drag left-left", function(g) end)"# + "\n")
        let refused = try Binary.run(["check", bad.path])
        #expect(refused.status == 1)
        #expect(refused.errorLines.first == "\(bad.path):2: cannot read gesture phrase \"right-drag left-left\": \"left-left\" goes left twice in a row, which is one arm; write \"left\" once there; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"", "\(refused.stderr)")
    }

    @Test("several files: a mouse's strokes merge by time with another file's gestures, whichever file is named first")
    func merged() throws {
        let touch = try Binary.run(["synth", "--seed", "2", "two-finger swipe left", "two-finger swipe left", "two-finger swipe left"])
        let touchFile = try Binary.temporaryFile("touch.ndjson", touch.stdout)
        var lines: [String] = []
        for start in [0.9, 2.3] {
            lines.append(#"{"t":\#(start),"ev":"press","button":"right"}"#)
            for i in 1...30 { lines.append(#"{"t":\#(start + Double(i) * 0.008),"ev":"motion","dx":-20,"dy":0}"#) }
            lines.append(#"{"t":\#(start + 0.25),"ev":"release","button":"right"}"#)
        }
        let mouseFile = try Binary.temporaryFile("mouse.ndjson", lines.joined(separator: "\n") + "\n")
        let rules = #"on("two-finger swipe left", function(g) emit("swipe") end)"# + "\n" + #"on("right-drag left", function(g) emit("stroke") end)"# + "\n"
        let file = try Binary.temporaryFile("merged.lua", rules)
        for inputs in [[mouseFile.path, touchFile.path], [touchFile.path, mouseFile.path]] {
            let result = try Binary.run(["run", "--rules", file.path] + inputs)
            let actions = result.lines.compactMap { Binary.json($0)?["action"] as? String }
            #expect(actions == ["swipe", "stroke", "swipe", "swipe", "stroke"], "\(result.stdout)\(result.stderr)")
            let times = result.lines.compactMap { Binary.json($0)?["t"] as? Double }
            #expect(times == times.sorted())
        }
    }

    @Test("record --from a mouse's recording says it converts touch events only, rather than writing nothing without a word")
    func record() throws {
        let input = try Self.clickThenStroke().file("stroke.evemu")
        let result = try Binary.run(["record", "--from", input])
        #expect(result.status == 0)
        #expect(result.errorLines.contains("gesturemap record: \(input) is a mouse's recording, and record converts touch events only; run, test, explain and draw read it as it is"), "\(result.stderr)")
    }

    @Test("gesturemap test checks a mouse recording against its expected lines")
    func golden() throws {
        let dir = try Binary.temporaryDirectory()
        let rules = dir.appendingPathComponent("mouse.lua")
        try Self.rules.write(to: rules, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("stroke.evemu")
        try FileManager.default.copyItem(atPath: try Self.clickThenStroke().file("stroke.evemu"), toPath: input.path)
        try (#"{"action":"back","t":0.864,"button":"right","direction":"left"}"# + "\n")
            .write(to: dir.appendingPathComponent("stroke.expected"), atomically: true, encoding: .utf8)
        let pass = try Binary.run(["test", rules.path, input.path])
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        try "".write(to: dir.appendingPathComponent("stroke.expected"), atomically: true, encoding: .utf8)
        let fail = try Binary.run(["test", rules.path, input.path])
        #expect(fail.status == 1, "\(fail.stdout)\(fail.stderr)")
    }

    @Test("hostile mouse lines (the largest counts, time going back, a release with no press) cost run, explain and draw nothing but their lines")
    func hostile() throws {
        var lines = [#"{"t":1,"ev":"release","button":"right"}"#, #"{"t":1,"ev":"press","button":"right"}"#]
        for i in 0..<100 { lines.append(#"{"t":\#(1 + Double(i) * 0.008),"ev":"motion","dx":2147483647,"dy":-2147483648}"#) }
        lines += [#"{"t":0.5,"ev":"release","button":"right"}"#, #"{"t":0.4,"ev":"press","button":"right"}"#,
                  #"{"t":0.41,"ev":"motion","dx":-2147483648,"dy":0}"#, #"{"t":0.42,"ev":"release","button":"right"}"#]
        let input = try Binary.temporaryFile("hostile.ndjson", lines.joined(separator: "\n") + "\n")
        let rules = try Binary.temporaryFile("mouse.lua", Self.rules)
        for command in ["run", "explain", "draw"] {
            let result = try Binary.run([command, "--rules", rules.path, input.path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(command)")
            #expect(result.stdout.utf8.count < 200_000, "\(command): \(result.stdout.utf8.count) bytes")
        }
    }

    /// The script's events as the kernel's `struct input_event` records.
    static func records(of script: KernelMouse.Script) -> Data {
        var data = Data()
        for line in script.lines {
            let f = line.split(separator: " ")
            guard f.count == 5, let time = Double(f[1]), let type = UInt16(f[2], radix: 16), let code = UInt16(f[3], radix: 16),
                  let value = Int32(f[4]) else { continue }
            let seconds = Int64(time.rounded(.down))
            let micros = Int64(((time - Double(seconds)) * 1e6).rounded())
            for var n in [seconds, micros] { withUnsafeBytes(of: &n) { data.append(contentsOf: $0) } }
            var t = type, c = code, v = value
            withUnsafeBytes(of: &t) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: &c) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: &v) { data.append(contentsOf: $0) }
        }
        return data
    }
}
