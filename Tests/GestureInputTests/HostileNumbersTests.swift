import GestureCore
@testable import GestureInput
import Testing

// Numbers from outside that no device sends: each one is a `SOURCE:LINE:`
// message, its line is skipped, and everything around it is still read.

/// Decodes `text` with any decoder, named "in", fed 5 bytes at a time.
private func run<D: TouchDecoder>(_ decoder: D, _ text: String) -> (frames: [TouchFrame], diagnostics: [String], errors: Int) {
    var d = decoder
    let frames = drive(&d, Array(text.utf8), chunk: 5)
    return (frames, d.diagnostics.map(\.description), d.errorCount)
}

private func lines(_ l: [String]) -> String { l.joined(separator: "\n") + "\n" }

/// "id:phase" for each touch of each frame.
private func phases(_ frames: [TouchFrame]) -> [[String]] {
    frames.map { $0.touches.map { "\($0.id):\($0.phase)" } }
}

/// A 10-slot touchscreen at 10 units/mm; lines 1-6.
private let header = [
    "N: synthetic panel",
    "P: 02 00 00 00 00 00 00 00",
    "A: 2f 0 9 0 0 0",
    "A: 35 0 1000 0 0 10",
    "A: 36 0 1000 0 0 10",
    "A: 39 0 65535 0 0 0",
]

/// One contact in slot 0 that lands at `t`, moves, and lifts.
private func stroke(at t: Double, id: Int = 1) -> [String] {
    func time(_ dt: Double) -> String {
        let micros = Int(((t + dt) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
    return [
        "E: \(time(0)) 0003 002f 0", "E: \(time(0)) 0003 0039 \(id)", "E: \(time(0)) 0003 0035 100",
        "E: \(time(0)) 0003 0036 100", "E: \(time(0)) 0000 0000 0000",
        "E: \(time(0.01)) 0003 0035 120", "E: \(time(0.01)) 0000 0000 0000",
        "E: \(time(0.02)) 0003 0039 -1", "E: \(time(0.02)) 0000 0000 0000",
    ]
}

@Suite("Checked conversions")
struct CheckedConversionTests {
    @Test("out of range, NaN and infinities give nil instead of a trap")
    func doubles() {
        for v in [1e300, -1e300, Double.nan, Double.infinity, -Double.infinity, 9_223_372_036_854_775_808.0] {
            #expect(Checked.integer(v, as: Int.self) == nil, "\(v)")
            #expect(Checked.exactInteger(v, as: Int.self) == nil, "\(v)")
        }
        #expect(Checked.integer(3.7, as: Int.self) == 3)
        #expect(Checked.integer(-3.7, as: Int.self) == -3)
        #expect(Checked.integer(-0.0, as: Int.self) == 0)
        #expect(Checked.exactInteger(3.5, as: Int.self) == nil)
        #expect(Checked.integer(2_147_483_648.0, as: Int32.self) == nil)
        #expect(Checked.integer(-2_147_483_648.0, as: Int32.self) == Int32.min)
    }

    @Test("integers that do not fit give nil")
    func integers() {
        #expect(Checked.integer(Int64(Int32.max) + 1, as: Int32.self) == nil)
        #expect(Checked.integer(UInt64(0x1_0000), as: UInt16.self) == nil)
        #expect(Checked.integer(Int64(-1), as: UInt16.self) == nil)
        #expect(Checked.integer(Int64(0xFFFF), as: UInt16.self) == 0xFFFF)
    }

    @Test("clamping for output: ends of the range, and nil for NaN")
    func clamped() {
        #expect(Checked.clampedInteger(1e300, as: Int32.self) == Int32.max)
        #expect(Checked.clampedInteger(-1e300, as: Int32.self) == Int32.min)
        #expect(Checked.clampedInteger(Double.nan, as: Int32.self) == nil)
        #expect(Checked.clampedInteger(2.5, as: Int32.self) == 3)
    }
}

@Suite("Hostile numbers in evemu")
struct HostileEvemuTests {
    @Test("an A: line with a value that is not a 32-bit integer is reported and ignored",
          arguments: ["1e300", "nan", "inf", "-1e300", "0x10", "99999999999", "1.5"])
    func axisLine(value: String) {
        let r = run(EvemuDecoder(source: "in"), lines(header + ["A: 35 0 \(value) 0 0 10"] + stroke(at: 0)))
        #expect(r.diagnostics == ["in:7: an A: line's min, max, fuzz, flat and resolution are 32-bit integers, not \"\(value)\"; the axis is ignored"])
        #expect(r.errors == 1)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        // The axis line before it still describes the device: 1000 units at 10/mm.
        #expect(r.frames.first?.surface == Surface(width: 100, height: 100))
    }

    @Test("an ABS_MT_SLOT range of 2^31 slots is capped, not reserved")
    func hugeSlotRange() {
        let r = run(EvemuDecoder(source: "in"), lines(header + ["A: 2f 0 2147483647 0 0 0"] + stroke(at: 0)))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        var d = EvdevDescription()
        d.axes[ABS.mtSlot] = AxisInfo(minimum: -2_147_483_648, maximum: 2_147_483_647)
        #expect(d.slotCount == 64)
    }

    @Test("E: lines with numbers out of range or trailing text are reported and skipped", arguments: [
        ("E: 1e300 0003 0035 120", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
        ("E: 99999999999.5 0003 0035 120", "an E: line's time is out of range (more than 10000000000 seconds)"),
        ("E: 0.010000 10000 0035 120", "an E: line's type, code or value is out of range (type and code are 16-bit, the value 32-bit)"),
        ("E: 0.010000 0003 0035 2147483648", "an E: line's type, code or value is out of range (type and code are 16-bit, the value 32-bit)"),
        ("E: 0.010000 0003 0035 -2147483649", "an E: line's type, code or value is out of range (type and code are 16-bit, the value 32-bit)"),
        ("E: 0.010000 0003 0035 99999999999999999999999", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
        ("E: 0.010000 0003 0035 120 junk", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
        ("E: 0.010000 0x03 0035 120", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
        ("E: 0.010000 0003\u{0}0035 120", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
        ("E: -0.010000 0003 0035 120", "an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\""),
    ])
    func eventLine(line: String, message: String) {
        let r = run(EvemuDecoder(source: "in"), lines(header + [line] + stroke(at: 0)))
        #expect(r.diagnostics == ["in:7: \(message)"])
        #expect(r.errors == 1)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("type and code 0xFFFF, and events of types gesturemap does not read, are ignored without a word")
    func unknownTypes() {
        let r = run(EvemuDecoder(source: "in"), lines(header + ["E: 0.000000 ffff ffff -1", "E: 0.000000 0015 0050 7"] + stroke(at: 0)))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("-0 and leading zeros are ordinary values")
    func negativeZero() {
        let r = run(EvemuDecoder(source: "in"), lines(header + ["E: 0.000000 0003 002f -0"] + stroke(at: 0)))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("ABS_MT_SLOT outside 0...63 (1e6, -1): reported once, that slot's events ignored until a slot in range")
    func slotOutOfRange() {
        let bad = [
            "E: 0.000000 0003 002f 1000000", "E: 0.000000 0003 0039 7", "E: 0.000000 0003 0035 500", "E: 0.000000 0003 0036 500",
            "E: 0.000000 0003 002f -1", "E: 0.000000 0003 0039 8",
        ]
        let r = run(EvemuDecoder(source: "in"), lines(header + bad + stroke(at: 0)))
        #expect(r.diagnostics == ["in:7: \(AssemblyAnomaly.slotOutOfRange.message)"])
        #expect(r.errors == 0)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        #expect(r.frames.first?.touches.first?.position == Vector(10, 10))
    }

    @Test("evemu lines before the description: the description still applies to the events after it")
    func eventsBeforeDescription() {
        let r = run(EvemuDecoder(source: "in"), lines(stroke(at: 0) + header + stroke(at: 1, id: 2)))
        #expect(r.errors == 0)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"], ["2:began"], ["2:moved"], ["2:ended"]])
        #expect(r.frames.last?.surface == Surface(width: 100, height: 100))
    }
}

@Suite("Hostile numbers in evtest")
struct HostileEvtestTests {
    private static let top = [
        "Input driver version is 1.0.1",
        "Input device name: \"panel\"",
        "Supported events:",
        "  Event type 3 (EV_ABS)",
        "    Event code 53 (ABS_MT_POSITION_X)",
        "      Value      0",
        "      Min        0",
    ]

    private static let events = [
        "Event: time 1.000000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 5",
        "Event: time 1.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 100",
        "Event: time 1.000000, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 100",
        "Event: time 1.000000, -------------- SYN_REPORT ------------",
        "Event: time 1.010000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1",
        "Event: time 1.010000, -------------- SYN_REPORT ------------",
    ]

    @Test("Max, Value and Resolution that are no 32-bit integer are reported at their line", arguments: [
        ("Max", "1e300"), ("Max", "nan"), ("Value", "99999999999"), ("Resolution", "inf"), ("Min", "-1e300"),
    ])
    func headerField(key: String, value: String) {
        let r = run(EvtestDecoder(source: "in"), lines(Self.top + ["      \(key) \(value)"] + Self.events))
        #expect(r.diagnostics == ["in:8: evtest's \(key) for an axis is a 32-bit integer, not \"\(value)\"; ignored"])
        #expect(r.errors == 1)
        #expect(phases(r.frames) == [["1:began"], ["1:ended"]])
    }

    @Test("an event value beyond Int32 is reported and skipped")
    func valueOverflow() {
        let bad = "Event: time 1.005000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 4294967296"
        let r = run(EvtestDecoder(source: "in"), lines(Self.top + Array(Self.events.prefix(4)) + [bad] + Array(Self.events.suffix(2))))
        #expect(r.diagnostics == ["in:12: an evtest event's type, code or value is out of range (type and code are 16-bit, the value 32-bit)"])
        #expect(phases(r.frames) == [["1:began"], ["1:ended"]])
    }

    @Test("an event time out of range is reported and skipped")
    func timeOutOfRange() {
        let bad = "Event: time 99999999999.000000, -------------- SYN_REPORT ------------"
        let r = run(EvtestDecoder(source: "in"), lines(Self.top + Array(Self.events.prefix(4)) + [bad] + Array(Self.events.suffix(2))))
        #expect(r.diagnostics == ["in:12: an evtest event's time is out of range (more than 10000000000 seconds)"])
        #expect(phases(r.frames) == [["1:began"], ["1:ended"]])
    }
}

@Suite("Hostile numbers in NDJSON")
struct HostileNDJSONTests {
    private static func around(_ bad: String) -> String {
        lines([
            #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
            bad,
            #"{"t": 0.1, "ev": "move", "id": 1, "x": 96, "y": 192}"#,
            #"{"t": 0.2, "ev": "up", "id": 1}"#,
        ])
    }

    @Test("numbers out of range are reported with their line and skipped", arguments: [
        (#"{"t": 1e300, "ev": "move", "id": 1, "x": 5, "y": 5}"#, "\"t\" is out of range: 1e+300 s; times must be within ±10000000000 s"),
        (#"{"t": -1e300, "ev": "move", "id": 1, "x": 5, "y": 5}"#, "\"t\" is out of range: -1e+300 s; times must be within ±10000000000 s"),
        (#"{"t": 1e309, "ev": "move", "id": 1, "x": 5, "y": 5}"#, "\"t\" must be a finite number of seconds"),
        (#"{"t": 0.05, "ev": "move", "id": 1, "x": 1e300, "y": 5}"#, "\"x\" is out of range: 1e+300; device units must be within ±2147483648"),
        (#"{"t": 0.05, "ev": "move", "id": 1, "x": 5, "y": -1e300}"#, "\"y\" is out of range: -1e+300; device units must be within ±2147483648"),
        (#"{"t": 0.05, "ev": "move", "id": 1, "x": 5, "y": 1e309}"#, "\"y\" must be a finite number"),
        (#"{"t": 0.05, "ev": "move", "id": 9223372036854775808, "x": 5, "y": 5}"#, "\"id\" must be an integer, not 9.223372036854776e+18"),
        (#"{"t": 0.05, "ev": "move", "id": 1e300, "x": 5, "y": 5}"#, "\"id\" must be an integer, not 1e+300"),
        (#"{"t": 0.05, "ev": "move", "id": 1, "x": 0x10, "y": 5}"#, "invalid JSON: expected ',' or '}' at column 42"),
        (#"{"#, "invalid JSON: expected a string at column 2"),
        (#"{"t": 0.05, "ev": "move", "id": 1, "x": 5, "y": 5, "tool": "pen"}"#, "\"tool\" must be \"finger\" or \"palm\""),
        (#"{"device": {"x": {"min": 0, "max": 1e300}}}"#, "device axis \"x\" field \"max\" is out of range: 1e+300; device units must be within ±2147483648"),
        (#"{"device": {"x": {"resolution": 1e300}}}"#, "device axis \"x\" resolution is out of range: 1e+300; give units per millimetre from 0.001 to 1000000, or 0 for unknown"),
    ])
    func outOfRange(bad: String, message: String) {
        let r = run(NDJSONDecoder(source: "in"), Self.around(bad))
        #expect(r.diagnostics == ["in:2: \(message)"])
        #expect(r.errors == 1)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("-0 is a number like any other, as an id and as a coordinate")
    func negativeZero() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            #"{"t": 0, "ev": "down", "id": -0, "x": -0, "y": 0}"#, #"{"t": 0.1, "ev": "up", "id": 0}"#,
        ]))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["0:began"], ["0:ended"]])
    }

    @Test("a giant line is reported and skipped without being kept; the lines after it are read")
    func giantLine() {
        let giant = "{\"t\": 0.05, \"pad\": \"" + String(repeating: "a", count: (1 << 20) + 10) + "\"}"
        let r = run(NDJSONDecoder(source: "in"), Self.around(giant))
        #expect(r.diagnostics == ["in:2: line longer than 1048576 bytes; skipped"])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("a truncated last line is reported; everything before it is read")
    func truncated() {
        var d = NDJSONDecoder(source: "in")
        let text = #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n" + #"{"t": 0.1, "ev": "mo"#
        let frames = drive(&d, Array(text.utf8), chunk: 3)
        #expect(d.diagnostics.map(\.description) == ["in:2: invalid JSON: unterminated string at column 21"])
        #expect(phases(frames) == [["1:began"], ["1:cancelled"]])
    }
}

@Suite("Hostile numbers in libinput and raw input")
struct HostileLibinputAndRawTests {
    private static let touch = [
        " event4   TOUCH_DOWN   +0.000s   0 (0) 10.00/10.00 (10.00/10.00mm)",
        " event4   TOUCH_FRAME  +0.000s",
        " event4   TOUCH_UP     +0.050s   0 (0)",
        " event4   TOUCH_FRAME  +0.050s",
    ]

    @Test("libinput times and positions that are no plain numbers, or out of range, are reported and skipped", arguments: [
        (" event4   TOUCH_MOTION +1e300s   0 (0) 1/1 (1/1mm)", "TOUCH_MOTION without a time such as +0.123s"),
        (" event4   TOUCH_MOTION +nans   0 (0) 1/1 (1/1mm)", "TOUCH_MOTION without a time such as +0.123s"),
        (" event4   TOUCH_MOTION +99999999999.0s   0 (0) 1/1 (1/1mm)", "TOUCH_MOTION's time is out of range (more than 10000000000 seconds)"),
        (" event4   TOUCH_MOTION +0.010s   0 (0) nan/inf (nan/infmm)", "TOUCH_MOTION without a position such as 27.07/42.62 (68.39/71.37mm)"),
        (" event4   TOUCH_MOTION +0.010s   0 (0) 1/1 (9999999999.0/1mm)", "TOUCH_MOTION's position is out of range (more than a kilometre)"),
    ])
    func libinput(bad: String, message: String) {
        let r = run(LibinputDecoder(source: "in"), lines(Array(Self.touch.prefix(2)) + [bad] + Array(Self.touch.suffix(2))))
        #expect(r.diagnostics == ["in:3: \(message)"])
        #expect(phases(r.frames) == [["0:began"], ["0:ended"]])
    }

    /// One `struct input_event` as the kernel lays it out on 64-bit Linux.
    static func record(_ seconds: Int64, _ micros: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: micros.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    static func rawStroke(at seconds: Int64 = 0, tool: Int32? = nil, palmAfterMove: Bool = false) -> [UInt8] {
        var b: [UInt8] = []
        b += record(seconds, 0, 3, 0x2F, 0)
        b += record(seconds, 0, 3, 0x39, 1)
        if let tool { b += record(seconds, 0, 3, 0x37, tool) }
        b += record(seconds, 0, 3, 0x35, 100)
        b += record(seconds, 0, 3, 0x36, 100)
        b += record(seconds, 0, 0, 0, 0)
        b += record(seconds, 10_000, 3, 0x35, 120)
        if palmAfterMove { b += record(seconds, 10_000, 3, 0x37, MTTool.palm) }
        b += record(seconds, 10_000, 0, 0, 0)
        b += record(seconds, 20_000, 3, 0x39, -1)
        b += record(seconds, 20_000, 0, 0, 0)
        return b
    }

    @Test("raw records with impossible times are reported by record number and skipped; type and code 0xFFFF are ignored")
    func raw() {
        var bytes = Self.record(0, 0, 0xFFFF, 0xFFFF, -1)
        bytes += Self.record(1 << 62, 0, 3, 0x35, 5)
        bytes += Self.record(0, 2_000_000, 3, 0x35, 5)
        bytes += Self.record(0, -1, 3, 0x35, 5)
        bytes += Self.rawStroke()
        var d = RawEventDecoder(source: "in", resolution: (10, 10))
        let frames = drive(&d, bytes, chunk: 7)
        #expect(d.diagnostics.map(\.description) == [
            "in: record 2 (byte 24): its time (4611686018427387904 s, 0 µs) is not a time the kernel gives; the record is skipped",
            "in: record 3 (byte 48): its time (0 s, 2000000 µs) is not a time the kernel gives; the record is skipped",
            "in: record 4 (byte 72): its time (0 s, -1 µs) is not a time the kernel gives; the record is skipped",
        ])
        #expect(d.errorCount == 3)
        #expect(phases(frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("--strict stops raw input at the first bad record")
    func rawStrict() {
        var bytes = Self.record(0, 2_000_000, 3, 0x35, 5)
        bytes += Self.rawStroke()
        var d = RawEventDecoder(source: "in", resolution: (10, 10))
        d.stopsAtFirstError = true
        let frames = drive(&d, bytes, chunk: nil)
        #expect(d.errorCount == 1)
        #expect(frames.isEmpty)
    }
}
