import GestureCore
@testable import GestureInput
import Testing

// MARK: - Helpers

/// What one decoding run produced.
private struct LibinputRun {
    var frames: [TouchFrame]
    var diagnostics: [String]
    var errors: Int
    var deviceName: String?
    var eventCount: Int
    var units: String
}

/// Decodes `text` as libinput debug-events output named "debug.txt".
private func decodeLibinput(_ text: String, chunk: Int? = nil) -> LibinputRun {
    var decoder = LibinputDecoder(source: "debug.txt")
    let frames = drive(&decoder, Array(text.utf8), chunk: chunk)
    return LibinputRun(
        frames: frames, diagnostics: decoder.diagnostics.map(\.description), errors: decoder.errorCount,
        deviceName: decoder.deviceName, eventCount: decoder.eventCount, units: decoder.unitsExplanation)
}

/// Decodes `text` through `AutoDecoder` named "auto.txt".
private func decodeAuto(_ text: String, format: InputFormat? = nil, chunk: Int? = nil) -> (decoder: AutoDecoder, run: LibinputRun) {
    var decoder = AutoDecoder(source: "auto.txt", format: format)
    let frames = drive(&decoder, Array(text.utf8), chunk: chunk)
    let run = LibinputRun(
        frames: frames, diagnostics: decoder.diagnostics.map(\.description), errors: decoder.errorCount,
        deviceName: decoder.deviceName, eventCount: decoder.eventCount, units: decoder.unitsExplanation)
    return (decoder, run)
}

/// Joins lines with "\n" and ends with a newline.
private func text(_ l: String...) -> String {
    l.joined(separator: "\n") + "\n"
}

private func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

private func near(_ p: Vector?, _ x: Double, _ y: Double) -> Bool {
    guard let p else { return false }
    return near(p.x, x) && near(p.y, y)
}

/// The touches of a frame as (id, x, y, phase), for readable comparisons.
private func summary(_ frame: TouchFrame) -> [String] {
    frame.touches.map { "\($0.id)@\($0.position.x),\($0.position.y) \($0.phase)" }
}

/// The exact messages in Sources/GestureInput/LibinputDebugParser.swift and InputFormat.swift.
private let notLibinput =
    #"not a libinput debug-events line; expected "event4  TOUCH_DOWN  +0.000s  0 (0) 27.07/42.62 (68.39/71.37mm)""#
private let downWithoutPosition =
    "TOUCH_DOWN without a position such as 27.07/42.62 (68.39/71.37mm)"
private let undetectable =
    "cannot tell the input format: no line among the first ones is ndjson, evemu, evtest or libinput text, nor is it raw event records; give --format ndjson, evemu, evtest, libinput, raw"

/// A two-finger touch as libinput prints it (space-separated, leading space).
private let twoFingers = text(
    " event4   TOUCH_DOWN              +0.000s       0 (0) 27.07/42.62 (68.39/71.37mm)",
    " event4   TOUCH_DOWN              +0.000s       1 (1) 26.45/53.27 (66.82/89.21mm)",
    " event4   TOUCH_FRAME             +0.000s",
    " event4   TOUCH_MOTION            +0.051s       1 (1) 26.84/53.27 (67.82/89.21mm)",
    " event4   TOUCH_FRAME             +0.051s",
    " event4   TOUCH_UP                +0.079s       0 (0)",
    " event4   TOUCH_UP                +0.079s       1 (1)",
    " event4   TOUCH_FRAME             +0.079s"
)

/// Filter with `--filter GestureInputTests.LibinputDecoderTests`.
@Suite("LibinputDecoder")
struct LibinputDecoderTests {}

// MARK: - Touch lines

extension LibinputDecoderTests {
    @Test("TOUCH_DOWN/MOTION/UP/FRAME become frames in millimetres, slot as id")
    func basicFrames() throws {
        let r = decodeLibinput(twoFingers)
        #expect(r.diagnostics.isEmpty)
        #expect(r.errors == 0)
        #expect(r.eventCount == 5)
        #expect(r.frames.map(\.time) == [0.0, 0.051, 0.079])
        try #require(r.frames.count == 3)
        #expect(r.frames[0].touches == [
            Touch(id: 0, position: Vector(68.39, 71.37), phase: .began),
            Touch(id: 1, position: Vector(66.82, 89.21), phase: .began),
        ])
        #expect(r.frames[1].touches == [
            Touch(id: 0, position: Vector(68.39, 71.37), phase: .stationary),
            Touch(id: 1, position: Vector(67.82, 89.21), phase: .moved),
        ])
        #expect(r.frames[2].touches == [
            Touch(id: 0, position: Vector(68.39, 71.37), phase: .ended),
            Touch(id: 1, position: Vector(67.82, 89.21), phase: .ended),
        ])
        #expect(r.frames.allSatisfy { $0.surface == nil && $0.device == 0 })
        #expect(r.units == "debug.txt: libinput debug-events, positions from its millimetre column")
    }

    @Test("the slot number is the touch id, whatever its value")
    func slotIsId() throws {
        let r = decodeLibinput(text(
            "event4 TOUCH_DOWN +0.000s 7 (7) 10.00/10.00 (25.30/16.70mm)",
            "event4 TOUCH_FRAME +0.000s",
            "event4 TOUCH_UP +0.050s 7 (7)",
            "event4 TOUCH_FRAME +0.050s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map { $0.touches.map(\.id) } == [[7], [7]])
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began], [.ended]])
    }

    @Test("TOUCH_FRAME closes a frame even when the next event has the same time")
    func touchFrameClosesFrame() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.100s   0 (0) 10.00/10.00 (20.00/30.00mm)",
            " event4   TOUCH_FRAME   +0.100s",
            " event4   TOUCH_MOTION  +0.100s   0 (0) 11.00/10.00 (22.00/30.00mm)",
            " event4   TOUCH_FRAME   +0.100s",
            " event4   TOUCH_UP      +0.200s   0 (0)",
            " event4   TOUCH_FRAME   +0.200s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map(\.time) == [0.1, 0.1, 0.2])
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began], [.moved], [.ended]])
        #expect(near(r.frames.dropFirst().first?.touches.first?.position, 22, 30))
    }

    @Test("without TOUCH_FRAME, several events at one time still make one frame, closed at the end")
    func noFrameLines() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.000s   0 (0) 1.00/1.00 (1.00/2.00mm)",
            " event4   TOUCH_DOWN    +0.000s   1 (1) 1.00/1.00 (3.00/4.00mm)"
        ))
        #expect(r.diagnostics.isEmpty)
        // One frame for both downs, then the end of input cancels both.
        #expect(r.frames.map(\.time) == [0.0, 0.0])
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began, .began], [.cancelled, .cancelled]])
    }

    @Test("TOUCH_CANCEL cancels the touch")
    func touchCancel() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.000s   3 (3) 10.00/10.00 (20.00/30.00mm)",
            " event4   TOUCH_FRAME   +0.000s",
            " event4   TOUCH_CANCEL  +0.050s   3 (3)",
            " event4   TOUCH_FRAME   +0.050s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map(summary) == [["3@20.0,30.0 began"], ["3@20.0,30.0 cancelled"]])
    }

    @Test("repaired input is reported once per kind and is not an error")
    func repaired() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_UP      +0.000s   5 (5)",
            " event4   TOUCH_UP      +0.010s   6 (6)",
            " event4   TOUCH_DOWN    +0.020s   0 (0) 10.00/10.00 (20.00/30.00mm)",
            " event4   TOUCH_FRAME   +0.020s",
            " event4   TOUCH_UP      +0.050s   0 (0)",
            " event4   TOUCH_FRAME   +0.050s"
        ))
        #expect(r.diagnostics == ["debug.txt:1: \(FramingAnomaly.upForUnknownTouch.message)"])
        #expect(r.errors == 0)
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began], [.ended]])
    }

    @Test("TAB-separated and space-separated columns decode to the same frames")
    func tabsAndSpaces() throws {
        let tabs = text(
            " event4   TOUCH_DOWN              +0.000s\t0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_DOWN              +0.000s\t1 (1) 26.45/53.27 (66.82/89.21mm)",
            " event4   TOUCH_FRAME             +0.000s\t",
            " event4   TOUCH_MOTION            +0.051s\t1 (1) 26.84/53.27 (67.82/89.21mm)",
            " event4   TOUCH_FRAME             +0.051s\t",
            " event4   TOUCH_UP                +0.079s\t0 (0)",
            " event4   TOUCH_UP                +0.079s\t1 (1)",
            " event4   TOUCH_FRAME             +0.079s\t"
        )
        let allTabs = text(
            "event4\tTOUCH_DOWN\t+0.000s\t0\t(0)\t27.07/42.62\t(68.39/71.37mm)",
            "event4\tTOUCH_DOWN\t+0.000s\t1\t(1)\t26.45/53.27\t(66.82/89.21mm)",
            "event4\tTOUCH_FRAME\t+0.000s",
            "event4\tTOUCH_MOTION\t+0.051s\t1\t(1)\t26.84/53.27\t(67.82/89.21mm)",
            "event4\tTOUCH_FRAME\t+0.051s",
            "event4\tTOUCH_UP\t+0.079s\t0\t(0)",
            "event4\tTOUCH_UP\t+0.079s\t1\t(1)",
            "event4\tTOUCH_FRAME\t+0.079s"
        )
        let spaces = decodeLibinput(twoFingers)
        for variant in [tabs, allTabs] {
            let r = decodeLibinput(variant)
            #expect(r.diagnostics.isEmpty)
            #expect(r.frames == spaces.frames)
        }
        #expect(spaces.frames.count == 3)
    }

    @Test("CRLF line ends decode like LF")
    func crlf() throws {
        let r = decodeLibinput(twoFingers.split(separator: "\n").map { $0 + "\r\n" }.joined())
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames == decodeLibinput(twoFingers).frames)
    }

    @Test("a leading \"-event4\" (the device's first line) works like \"event4\"")
    func leadingDash() throws {
        let r = decodeLibinput(text(
            "-event4   TOUCH_DOWN    +0.000s   0 (0) 27.07/42.62 (68.39/71.37mm)",
            "-event4   TOUCH_FRAME   +0.000s",
            " event4   TOUCH_UP      +0.050s   0 (0)",
            " event4   TOUCH_FRAME   +0.050s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map(summary) == [["0@68.39,71.37 began"], ["0@68.39,71.37 ended"]])
    }

    @Test("any chunking of the input gives the same frames", arguments: [1, 2, 7, 64])
    func chunking(size: Int) throws {
        let whole = decodeLibinput(twoFingers)
        let chunked = decodeLibinput(twoFingers, chunk: size)
        #expect(chunked.diagnostics.isEmpty)
        #expect(chunked.frames == whole.frames)
    }
}

// MARK: - Other libinput lines

extension LibinputDecoderTests {
    @Test("pointer, keyboard and device lines are skipped without diagnostics")
    func otherEventsSkipped() throws {
        let r = decodeLibinput(text(
            "-event9   DEVICE_ADDED            Logitech USB Receiver             seat0 default group5  cap:p left scroll-nat scroll-button",
            " event9   POINTER_MOTION          +0.010s\t  1.00/  2.00 ( +1.00/ +2.00)",
            " event3   KEYBOARD_KEY            +0.020s\t*** (-1) pressed",
            " event3   KEYBOARD_KEY            +0.030s\t*** (-1) released",
            " event9   POINTER_BUTTON          +0.040s\tBTN_LEFT (272) pressed, seat count: 1",
            " event7   GESTURE_SWIPE_BEGIN     +0.045s\t3",
            " event4   TOUCH_DOWN              +0.050s\t0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_FRAME             +0.050s",
            " event9   POINTER_MOTION          +0.060s\t  1.00/  2.00 ( +1.00/ +2.00)",
            " event4   TOUCH_UP                +0.070s\t0 (0)",
            " event4   TOUCH_FRAME             +0.070s",
            "-event9   DEVICE_REMOVED          Logitech USB Receiver             seat0 default group5  cap:p"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.errors == 0)
        #expect(r.eventCount == 2)
        #expect(r.frames.map(summary) == [["0@68.39,71.37 began"], ["0@68.39,71.37 ended"]])
    }

    @Test("DEVICE_ADDED with a size sets frame.surface, and its name becomes deviceName")
    func deviceAdded() throws {
        let r = decodeLibinput(text(
            "-event4   DEVICE_ADDED            NTRG0001:01 1B96:1B05             seat0 default group7  cap:t  size 253x167mm ntouches 10 calib",
            " event4   TOUCH_DOWN              +0.000s\t0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_FRAME             +0.000s",
            " event4   TOUCH_UP                +0.040s\t0 (0)",
            " event4   TOUCH_FRAME             +0.040s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.deviceName == "NTRG0001:01 1B96:1B05")
        #expect(r.frames.count == 2)
        #expect(r.frames.allSatisfy { $0.surface == Surface(width: 253, height: 167) })
    }

    /// `libinput debug-events` without `--device` lists every device first; the
    /// touch events come from the touchscreen, so its name and size should hold,
    /// not those of whichever device was listed last (here the Type Cover's
    /// touchpad, 98x50 mm, which makes touches at x > 98 mm lie "outside" the
    /// surface and start edge swipes from the right edge).
    @Test("several DEVICE_ADDED lines: the touch device's name and size hold")
    func severalDevicesAdded() throws {
        let r = decodeLibinput(text(
            "-event7   DEVICE_ADDED            Video Bus                         seat0 default group1  cap:k",
            "-event4   DEVICE_ADDED            NTRG0001:01 1B96:1B05             seat0 default group7  cap:t  size 253x167mm ntouches 10 calib",
            "-event10  DEVICE_ADDED            Microsoft Surface Type Cover Touchpad seat0 default group8  cap:pg  size 98x50mm tap(dl off) left scroll-nat",
            "-event14  DEVICE_ADDED            Surface Pro 3/4 Buttons           seat0 default group2  cap:k",
            " event4   TOUCH_DOWN              +0.000s\t0 (0) 96.00/42.62 (242.88/71.37mm)",
            " event4   TOUCH_FRAME             +0.000s",
            " event4   TOUCH_UP                +0.040s\t0 (0)",
            " event4   TOUCH_FRAME             +0.040s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.count == 2)
        #expect(r.deviceName == "NTRG0001:01 1B96:1B05")
        #expect(r.frames.first?.surface == Surface(width: 253, height: 167))
    }

    @Test("without DEVICE_ADDED there is no device name and no surface")
    func noDeviceAdded() throws {
        let r = decodeLibinput(twoFingers)
        #expect(r.deviceName == nil)
        #expect(r.frames.allSatisfy { $0.surface == nil })
    }

    @Test("blank lines are skipped quietly")
    func blankLines() throws {
        let r = decodeLibinput("\n   \n\t\n" + twoFingers + "\n\n")
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames == decodeLibinput(twoFingers).frames)
    }
}

// MARK: - Malformed lines

extension LibinputDecoderTests {
    @Test("a garbage line is reported as SOURCE:LINE and the lines around it still work",
          arguments: ["hello world", "TOUCH_DOWN +0.000s 0 (0) 1/1 (1/1mm)", "event4", "{\"t\": 0}"])
    func garbageLine(garbage: String) throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.000s   0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_FRAME   +0.000s",
            garbage,
            " event4   TOUCH_MOTION  +0.050s   0 (0) 28.00/42.62 (70.00/71.37mm)",
            " event4   TOUCH_FRAME   +0.050s",
            " event4   TOUCH_UP      +0.080s   0 (0)",
            " event4   TOUCH_FRAME   +0.080s"
        ))
        #expect(r.diagnostics == ["debug.txt:3: \(notLibinput)"])
        #expect(r.errors == 1)
        #expect(r.frames.map(summary) == [
            ["0@68.39,71.37 began"], ["0@70.0,71.37 moved"], ["0@70.0,71.37 ended"],
        ])
    }

    @Test("a TOUCH_DOWN without a position is reported with the exact message and skipped")
    func downWithoutPositionReported() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.000s   0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_DOWN    +0.000s   1 (1)",
            " event4   TOUCH_FRAME   +0.000s",
            " event4   TOUCH_UP      +0.080s   0 (0)",
            " event4   TOUCH_FRAME   +0.080s"
        ))
        #expect(r.diagnostics == ["debug.txt:2: \(downWithoutPosition)"])
        #expect(r.errors == 1)
        #expect(r.frames.map { $0.touches.map(\.id) } == [[0], [0]])
    }

    @Test("a touch line without a time or a slot is reported")
    func missingTimeOrSlot() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_FRAME",
            " event4   TOUCH_UP      0.080s   0 (0)",
            " event4   TOUCH_UP      +0.080s",
            " event4   TOUCH_MOTION  +0.080s   x (0) 1.00/1.00 (2.00/2.00mm)"
        ))
        #expect(r.diagnostics == [
            "debug.txt:1: TOUCH_FRAME without a time such as +0.123s",
            "debug.txt:2: TOUCH_UP without a time such as +0.123s",
            "debug.txt:3: TOUCH_UP without a slot number",
            "debug.txt:4: TOUCH_MOTION without a slot number",
        ])
        #expect(r.errors == 4)
        #expect(r.frames.isEmpty)
    }

    @Test("under stopsAtFirstError the first malformed line stops the input")
    func strict() throws {
        var decoder = LibinputDecoder(source: "debug.txt")
        decoder.stopsAtFirstError = true
        let frames = drive(&decoder, Array(text(
            " event4   TOUCH_DOWN    +0.000s   0 (0) 27.07/42.62 (68.39/71.37mm)",
            " event4   TOUCH_FRAME   +0.000s",
            "garbage",
            " event4   TOUCH_UP      +0.080s   0 (0)",
            " event4   TOUCH_FRAME   +0.080s"
        ).utf8), chunk: nil)
        #expect(decoder.halted)
        #expect(decoder.diagnostics.map(\.description) == ["debug.txt:3: \(notLibinput)"])
        #expect(frames.count == 1)
    }
}

// MARK: - Positions

extension LibinputDecoderTests {
    @Test("positions without a mm column fall back to the percentages")
    func percentFallback() throws {
        let r = decodeLibinput(text(
            " event4   TOUCH_DOWN    +0.000s   0 (0) 27.07/42.62",
            " event4   TOUCH_FRAME   +0.000s",
            " event4   TOUCH_MOTION  +0.050s   0 (0) 28.50/43.00",
            " event4   TOUCH_FRAME   +0.050s",
            " event4   TOUCH_UP      +0.080s   0 (0)",
            " event4   TOUCH_FRAME   +0.080s"
        ))
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map(summary) == [["0@27.07,42.62 began"], ["0@28.5,43.0 moved"], ["0@28.5,43.0 ended"]])
        #expect(r.units == "debug.txt: libinput debug-events without millimetre columns; taking its 0-100 screen percentages as millimetres")
    }

    @Test("the mm column wins over the percentages that come before it")
    func millimetresPreferred() throws {
        let p = LibinputDebugParser.position(["(0)", "27.07/42.62", "(68.39/71.37mm)"])
        #expect(p?.millimetres == true)
        #expect(near(p?.value, 68.39, 71.37))
        let q = LibinputDebugParser.position(["(0)", "27.07/42.62"])
        #expect(q?.millimetres == false)
        #expect(near(q?.value, 27.07, 42.62))
        #expect(LibinputDebugParser.position(["(0)"]) == nil)
        #expect(LibinputDebugParser.position([]) == nil)
    }

    @Test("times are read from \"+s.sss\" only")
    func times() {
        #expect(LibinputDebugParser.time("+0.000s") == 0)
        #expect(LibinputDebugParser.time("+12.345s") == 12.345)
        #expect(LibinputDebugParser.time("0.5s") == nil)
        #expect(LibinputDebugParser.time("+0.5") == nil)
        #expect(LibinputDebugParser.time("+s") == nil)
    }
}

// MARK: - Format detection

extension LibinputDecoderTests {
    private static func detect(_ s: String, complete: Bool) -> InputFormat?? {
        switch Array(s.utf8).withUnsafeBytes({ FormatDetector.detect($0, complete: complete) }) {
        case .needMore: return nil
        case .format(let format, _): return .some(format)
        case .noFormat, .nothing, .notText: return .some(nil)
        }
    }

    @Test("FormatDetector: \"{\" is ndjson, an event column is libinput, other text is neither")
    func detect() {
        #expect(Self.detect("{\"t\":0\n", complete: false) == .some(.ndjson))
        #expect(Self.detect("  \n\t{\n", complete: false) == .some(.ndjson))
        #expect(Self.detect(" event4   TOUCH_DOWN  +0.000s\n", complete: false) == .some(.libinput))
        #expect(Self.detect("-event4   DEVICE_ADDED  x\n", complete: false) == .some(.libinput))
        #expect(Self.detect("\n\n event4   TOUCH_DOWN\n", complete: false) == .some(.libinput))
        #expect(Self.detect("hello world\n", complete: true) == .some(nil))
        // Not enough to tell yet: a line still arriving, or only garbage so far.
        #expect(Self.detect(" event4   TOUCH_DO", complete: false) == nil)
        #expect(Self.detect("hello world\n", complete: false) == nil)
        #expect(Self.detect("   ", complete: false) == nil)
        #expect(Self.detect("", complete: false) == nil)
        // At the end of input a partial line is judged as it is.
        #expect(Self.detect(" event4   TOUCH_DO", complete: true) == .some(.libinput))
        #expect(Self.detect("", complete: true) == .some(nil))
    }

    @Test("AutoDecoder detects ndjson from \"{\"")
    func autoNDJSON() throws {
        let (decoder, r) = decodeAuto(#"{"t": 0.0, "ev": "down", "id": 1, "x": 10, "y": 20}"# + "\n" + #"{"t": 0.1, "ev": "up", "id": 1}"# + "\n")
        #expect(decoder.format == .ndjson)
        #expect(r.diagnostics.isEmpty)
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began], [.ended]])
    }

    @Test("AutoDecoder detects libinput from \" event4 ...\", also after blank lines and fed 1 byte at a time",
          arguments: [(prefix: "", chunk: nil), (prefix: "\n\n", chunk: nil), (prefix: "", chunk: 1), (prefix: "\n \n", chunk: 1), (prefix: "", chunk: 5)] as [(prefix: String, chunk: Int?)])
    func autoLibinput(prefix: String, chunk: Int?) throws {
        let (decoder, r) = decodeAuto(prefix + twoFingers, chunk: chunk)
        #expect(decoder.format == .libinput)
        #expect(r.diagnostics.isEmpty)
        #expect(r.errors == 0)
        #expect(r.frames == decodeLibinput(twoFingers).frames)
        #expect(r.eventCount == 5)
    }

    @Test("AutoDecoder passes a DEVICE_ADDED first line's name through")
    func autoDeviceName() throws {
        let (decoder, r) = decodeAuto(
            "-event4   DEVICE_ADDED   NTRG0001:01 1B96:1B05   seat0 default group7  cap:t  size 253x167mm ntouches 10 calib\n" + twoFingers,
            chunk: 3)
        #expect(decoder.format == .libinput)
        #expect(r.diagnostics.isEmpty)
        #expect(r.deviceName == "NTRG0001:01 1B96:1B05")
        #expect(r.frames.first?.surface == Surface(width: 253, height: 167))
    }

    @Test("AutoDecoder skips a garbage first line with one message, and reads the stream after it",
          arguments: [nil, 1] as [Int?])
    func autoSkipsLeadingGarbage(chunk: Int?) throws {
        let (decoder, r) = decodeAuto("hello world\n" + twoFingers, chunk: chunk)
        #expect(decoder.format == .libinput)
        #expect(r.diagnostics == ["auto.txt:1: 1 line before line 2 is in no format gesturemap reads; skipped (the libinput input begins at line 2)"])
        #expect(r.errors == 1)
        #expect(r.frames == decodeLibinput(twoFingers).frames)
    }

    @Test("AutoDecoder: text in no format at all is reported once, as line 1, and nothing is read from it")
    func autoUndetectable() throws {
        let (decoder, r) = decodeAuto("hello world\nstill nothing\n")
        #expect(decoder.format == nil)
        #expect(r.diagnostics == ["auto.txt:1: \(undetectable)"])
        #expect(r.errors == 1)
        #expect(r.frames.isEmpty)
        #expect(r.units == "auto.txt: no touch events")
    }

    @Test("AutoDecoder reports a first line without a newline at the end of input")
    func autoUndetectableAtEnd() throws {
        let (decoder, r) = decodeAuto("hello")
        #expect(decoder.format == nil)
        #expect(r.diagnostics == ["auto.txt:1: \(undetectable)"])
        #expect(r.errors == 1)
    }

    @Test("AutoDecoder says nothing about empty or blank input")
    func autoEmpty() throws {
        for input in ["", "\n\n  \n"] {
            let (decoder, r) = decodeAuto(input)
            #expect(decoder.format == nil)
            #expect(r.diagnostics.isEmpty)
            #expect(r.errors == 0)
            #expect(r.frames.isEmpty)
        }
    }

    @Test("with format: given, no detection happens")
    func explicitFormat() throws {
        // libinput forced on NDJSON: every line is malformed libinput, not NDJSON.
        let (forcedLibinput, a) = decodeAuto(#"{"t": 0.0, "ev": "down", "id": 1, "x": 10, "y": 20}"# + "\n", format: .libinput)
        #expect(forcedLibinput.format == .libinput)
        #expect(a.diagnostics == ["auto.txt:1: \(notLibinput)"])
        #expect(a.frames.isEmpty)

        // ndjson forced on libinput: reported as NDJSON problems, not as undetectable.
        let (forcedNDJSON, b) = decodeAuto(twoFingers, format: .ndjson)
        #expect(forcedNDJSON.format == .ndjson)
        #expect(b.frames.isEmpty)
        #expect(b.errors > 0)
        #expect(!b.diagnostics.contains { $0.contains("cannot tell the input format") })
        #expect(b.diagnostics.first?.hasPrefix("auto.txt:1: ") == true)

        // Text that detection would reject is read as libinput when told.
        let (told, c) = decodeAuto("hello\n" + twoFingers, format: .libinput)
        #expect(told.format == .libinput)
        #expect(c.diagnostics == ["auto.txt:1: \(notLibinput)"])
        #expect(c.frames == decodeLibinput(twoFingers).frames)
    }
}
