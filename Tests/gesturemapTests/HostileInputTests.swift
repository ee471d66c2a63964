import Foundation
import Testing

// Hostile input through the real binary: recordings made to crash, hang or
// mislead the engine. Each one ends with a clear message on stderr, the rest
// of the input processed, and the process alive to exit by itself.

/// `<package root>/../shared/data/real/evemu-devices`.
private let evemuDevices = Binary.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/data/real/evemu-devices").path
private let evemuDevicesPresent = FileManager.default.fileExists(atPath: evemuDevices)

private let tapRules = """
    local function report(g) emit("gesture", { kind = g.kind, fingers = g.fingers, taps = g.taps }) end
    for _, p in ipairs({ "tap", "double tap", "2-finger tap", "2-finger double tap", "3-finger tap", "long press" }) do on(p, report) end
    """

/// A one-finger swipe left in NDJSON, 16 units/mm, written here (not by synth).
private let swipeLeft: String = {
    var lines = [#"{"device": {"x": {"min": 0, "max": 4000, "resolution": 16}, "y": {"min": 0, "max": 3000, "resolution": 16}}}"#]
    for i in 0...10 {
        let ev = i == 0 ? "down" : "move"
        lines.append(#"{"t": \#(Double(i) * 0.01), "ev": "\#(ev)", "id": 1, "x": \#(3000 - i * 100), "y": 1500}"#)
    }
    lines.append(#"{"t": 0.11, "ev": "up", "id": 1}"#)
    return lines.joined(separator: "\n") + "\n"
}()

/// A 10-slot touchscreen at 10 units/mm, then one tap at `t`.
private func evemuTap(at t: String = "0", extraHeader: [String] = [], extraEvents: [String] = []) -> String {
    ([
        "N: hostile panel", "P: 02 00 00 00 00 00 00 00", "A: 2f 0 9 0 0 0", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10", "A: 39 0 65535 0 0 0",
    ] + extraHeader + extraEvents + [
        "E: \(t).000000 0003 002f 0", "E: \(t).000000 0003 0039 1", "E: \(t).000000 0003 0035 500", "E: \(t).000000 0003 0036 500",
        "E: \(t).000000 0000 0000 0000", "E: \(t).050000 0003 0039 -1", "E: \(t).050000 0000 0000 0000",
    ]).joined(separator: "\n") + "\n"
}

private func run(_ input: Data, _ arguments: [String] = [], rules: String = tapRules) throws -> Binary.Result {
    let rulesFile = try Binary.temporaryFile("rules.lua", rules)
    let file = try Binary.temporaryFile("input", "")
    try input.write(to: file)
    return try Binary.run(["run", "--rules", rulesFile.path] + arguments + [file.path])
}

private func run(_ input: String, _ arguments: [String] = [], rules: String = tapRules) throws -> Binary.Result {
    try run(Data(input.utf8), arguments, rules: rules)
}

private func kinds(_ r: Binary.Result) -> [String] {
    r.lines.compactMap(Binary.json).map { "\($0["fingers"] ?? "?") \($0["kind"] ?? $0["action"] ?? "?")" }
}

@Suite("Hostile input, end to end", .serialized)
struct HostileInputTests {
    // MARK: Numbers

    @Test("1e300, nan and friends in an evemu axis line: the line reported, the tap still delivered, exit 0", arguments: ["1e300", "nan", "-1e300", "inf", "0x10"])
    func evemuAxis(value: String) throws {
        let r = try run(evemuTap(extraHeader: ["A: 2f 0 \(value) 0 0 0", "A: 35 0 \(value) 0 0 10"]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.errorLines.filter { $0.contains(":7: an A: line's") || $0.contains(":8: an A: line's") }.count == 2, "\(r.stderr)")
        #expect(kinds(r) == ["1 tap"], "\(r.stderr)")
    }

    @Test("evtest Max of 1e300 and a Value overflowing Int32: reported with their lines; --strict stops with 65")
    func evtestHeader() throws {
        let text = [
            "Input driver version is 1.0.1", "Input device name: \"panel\"", "Supported events:", "  Event type 3 (EV_ABS)",
            "    Event code 53 (ABS_MT_POSITION_X)", "      Value 99999999999", "      Min 0", "      Max 1e300",
            "Event: time 1.000000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 5",
            "Event: time 1.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 100",
            "Event: time 1.000000, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 100",
            "Event: time 1.000000, -------------- SYN_REPORT ------------",
            "Event: time 1.050000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1",
            "Event: time 1.050000, -------------- SYN_REPORT ------------",
        ].joined(separator: "\n") + "\n"
        let r = try run(text)
        #expect(r.status == 0)
        #expect(r.errorLines.contains { $0.hasSuffix(":6: evtest's Value for an axis is a 32-bit integer, not \"99999999999\"; ignored") }, "\(r.stderr)")
        #expect(r.errorLines.contains { $0.hasSuffix(":8: evtest's Max for an axis is a 32-bit integer, not \"1e300\"; ignored") }, "\(r.stderr)")
        #expect(kinds(r) == ["1 tap"])
        let strict = try run(text, ["--strict"])
        #expect(strict.status == 65)
        #expect(strict.lines.isEmpty)
    }

    @Test("run --realtime with a t of 1e300 between events: reported, no trap, the gesture after it delivered")
    func realtimeHugeTime() throws {
        let input = #"{"t": 1e300, "ev": "sync"}"# + "\n" + swipeLeft
        let r = try run(input, ["--realtime"], rules: #"on("swipe left", function(g) emit("left") end)"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.errorLines.contains { $0.hasSuffix(":1: \"t\" is out of range: 1e+300 s; times must be within ±10000000000 s") }, "\(r.stderr)")
        #expect(r.lines.count == 1)
    }

    @Test("a t days ahead in the middle of a stream: reported once, and every later gesture still fires")
    func clockJumpMidStream() throws {
        var input = swipeLeft
        let later = swipeLeft.split(separator: "\n").dropFirst().map { line in
            line.replacingOccurrences(of: "\"t\": 0.", with: "\"t\": 1.").replacingOccurrences(of: "\"t\": 1.0,", with: "\"t\": 1.0,")
        }
        input += #"{"t": 5000000000, "ev": "sync"}"# + "\n" + later.joined(separator: "\n") + "\n"
        input += swipeLeft.split(separator: "\n").dropFirst().map { $0.replacingOccurrences(of: "\"t\": 0.", with: "\"t\": 3.") }.joined(separator: "\n") + "\n"
        let r = try run(input, rules: #"on("swipe left", function(g) emit("left") end)"#)
        #expect(r.status == 0)
        #expect(r.lines.count == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.errorLines.filter { $0.contains("the time jumped by more than a day") }.count == 1, "\(r.stderr)")
    }

    @Test("--resolution, --calibration and --size out of range are usage errors (64), not traps", arguments: [
        (["--resolution", "1e300"], "gesturemap run: --resolution takes units per millimetre from 0.001 to 1000000, not \"1e300\""),
        (["--resolution", "nan"], "gesturemap run: --resolution takes units per millimetre from 0.001 to 1000000, not \"nan\""),
        (["--calibration", "1e300 0 0 0 1 0"], "gesturemap run: --calibration takes six numbers from -1000 to 1000, a b c d e f (libinput's matrix), as in --calibration \"1 0 0 0 1 0\""),
        (["--size", "1e300x5"], "gesturemap run: --size takes the surface's width and height in millimetres (up to 10000), as 300x200 or DEVICE=300x200, not \"1e300x5\""),
        (["--size", "300"], "gesturemap run: --size takes the surface's width and height in millimetres (up to 10000), as 300x200 or DEVICE=300x200, not \"300\""),
        (["--size", "0x200"], "gesturemap run: --size takes the surface's width and height in millimetres (up to 10000), as 300x200 or DEVICE=300x200, not \"0x200\""),
    ])
    func usage(arguments: [String], message: String) throws {
        let r = try Binary.run(["run"] + arguments, stdin: Data())
        #expect(r.status == 64)
        #expect(r.errorLines.first == message, "\(r.stderr)")
    }

    // MARK: Detection

    @Test("leading garbage and comments before NDJSON: one message, the swipe delivered, exit 0; --strict: exit 65 and nothing read")
    func leadingGarbage() throws {
        let input = "$ gesturemap record > touches\n# kiosk, 3rd floor\n" + swipeLeft
        let rules = #"on("swipe left", function(g) emit("left") end)"#
        let r = try run(input, ["-v"], rules: rules)
        #expect(r.status == 0)
        #expect(r.lines.count == 1)
        #expect(r.errorLines.contains { $0.hasSuffix(":1: 1 line before line 3 is in no format gesturemap reads; skipped (the ndjson input begins at line 3)") }, "\(r.stderr)")
        #expect(r.errorLines.contains { $0.hasSuffix(": reading ndjson (detected at line 3)") }, "\(r.stderr)")
        let strict = try run(input, ["--strict"], rules: rules)
        #expect(strict.status == 65)
        #expect(strict.lines.isEmpty)
    }

    @Test("UTF-16 input: a clear error naming the fix; exit 65 under --strict")
    func utf16() throws {
        let bytes = try #require(swipeLeft.data(using: .utf16))
        let r = try run(bytes)
        #expect(r.errorLines.contains { $0.hasSuffix(": the input is UTF-16LE text (byte order mark FF FE); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-16LE -t UTF-8 FILE | gesturemap run -") }, "\(r.stderr)")
        #expect(r.lines.isEmpty)
        let strict = try run(bytes, ["--strict"])
        #expect(strict.status == 65)
    }

    @Test("an assortment an adversary would try: each gives its message, the valid gesture after it still fires, nobody crashes", arguments: [
        ("truncated line", #"{"t": 0.0, "ev": "mo"#, "unterminated string"),
        ("a lone brace", "{", "invalid JSON"),
        ("1e309", #"{"t": 1e309, "ev": "sync"}"#, "\"t\" must be a finite number of seconds"),
        ("0x10", #"{"t": 0x10, "ev": "sync"}"#, "invalid JSON"),
        ("id 2^63", #"{"t": 0, "ev": "down", "id": 9223372036854775808, "x": 1, "y": 1}"#, "\"id\" must be an integer"),
        ("NUL mid-line", "{\"t\": 0,\u{0} \"ev\": \"sync\"}", "invalid JSON"),
        ("BOM mid-line", "{\"t\": 0,\u{FEFF} \"ev\": \"sync\"}", "invalid JSON"),
        ("giant line", "GIANT", "line longer than 1048576 bytes; skipped"),
    ])
    func assortment(name: String, bad: String, message: String) throws {
        // Built here, so the test's name does not print a megabyte.
        let bad = bad == "GIANT" ? "{\"pad\": \"" + String(repeating: "x", count: 1_100_000) + "\"}" : bad
        let lines = swipeLeft.split(separator: "\n").map(String.init)
        let input = ([lines[0], bad] + lines.dropFirst()).joined(separator: "\n") + "\n"
        let r = try run(input, rules: #"on("swipe left", function(g) emit("left") end)"#)
        #expect(r.status == 0, "\(name): \(r.stderr)")
        #expect(r.errorLines.contains { $0.contains(":2: ") && $0.contains(message) }, "\(name): \(r.stderr)")
        #expect(r.lines.count == 1, "\(name): \(r.stdout)")
    }

    @Test("CR-only line ends and a BOM at the start of a later line (files joined with cat) are read")
    func lineEnds() throws {
        let rules = #"on("swipe left", function(g) emit("left") end)"#
        let cr = try run(swipeLeft.replacingOccurrences(of: "\n", with: "\r"), rules: rules)
        #expect(cr.lines.count == 1, "\(cr.stderr)")
        #expect(cr.errorLines.contains { $0.hasSuffix(": lines end in CR alone (classic Mac OS); reading CR as the end of a line") })
        let joined = swipeLeft + "\u{FEFF}" + swipeLeft.split(separator: "\n").dropFirst().map { $0.replacingOccurrences(of: "\"t\": 0.", with: "\"t\": 2.") }.joined(separator: "\n") + "\n"
        let bom = try run(joined, rules: rules)
        #expect(bom.lines.count == 2, "\(bom.stderr)")
        #expect(bom.stderr.isEmpty, "\(bom.stderr)")
    }

    @Test("evemu: ABS_MT_SLOT 1e6, type and code 0xFFFF, 200 contacts at once: each said once, the tap after them delivered")
    func evemuStream() throws {
        var flood: [String] = []
        for i in 0..<200 { flood += ["E: 0.000000 0003 0035 \(i)", "E: 0.000000 0003 0036 \(i)", "E: 0.000000 0000 0002 0000"] }
        let protocolA = (["N: flood", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10"] + flood + ["E: 0.000000 0000 0000 0000", "E: 0.010000 0000 0000 0000"]).joined(separator: "\n") + "\n"
        let a = try run(protocolA)
        #expect(a.status == 0)
        #expect(a.errorLines.filter { $0.contains("more than 64 contacts in one SYN_MT_REPORT packet") }.count == 1, "\(a.stderr)")

        let b = try run(evemuTap(at: "1", extraEvents: ["E: 0.000000 0003 002f 1000000", "E: 0.000000 0003 0039 9", "E: 0.000000 ffff ffff -1", "E: 0.000000 0000 0000 0000"]))
        #expect(b.status == 0)
        #expect(b.errorLines.filter { $0.contains("ABS_MT_SLOT outside 0...63") }.count == 1, "\(b.stderr)")
        #expect(kinds(b) == ["1 tap"])
    }

    // MARK: Sizes

    @Test("ALPS GlidePoint without --resolution: its single tap, double tap and two-finger tap, with one line saying the size was assumed",
          .enabled(if: evemuDevicesPresent, "needs ../shared/data/real/evemu-devices"),
          arguments: [("single-tap", 1, 1), ("double-tap", 1, 2), ("2-finger-tap", 2, 1)])
    func alps(name: String, fingers: Int, taps: Int) throws {
        let path = evemuDevices + "/touchpads/AlpsPS2 ALPS GlidePoint.\(name).events"
        let rules = try Binary.temporaryFile("rules.lua", tapRules)
        let r = try Binary.run(["run", "--rules", rules.path, path])
        #expect(r.status == 0)
        let got = r.lines.compactMap(Binary.json)
        #expect(got.map { "\($0["fingers"] ?? "?") \($0["kind"] ?? "?") \($0["taps"] ?? "?")" } == ["\(fingers) tap \(taps)"], "\(r.stdout)\n\(r.stderr)")
        #expect(r.errorLines == ["\(path): the device gives no resolution; using a typical touchpad of 69 x 50 mm, as libinput assumes, 28.99 x 28 units/mm; give --size WxH (mm) to set it"])
        // Given --size, nothing is assumed and nothing said.
        let sized = try Binary.run(["run", "--rules", rules.path, "--size", "ALPS=70x50", path])
        #expect(sized.stderr.isEmpty, "\(sized.stderr)")
        #expect(sized.lines.count == 1)
    }
}
