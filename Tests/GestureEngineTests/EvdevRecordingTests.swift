import Foundation
import GestureActions
import GestureCore
import GestureEngine
import GestureInput
import Testing

// Real evdev recordings (evemu and evtest text) run through the whole engine:
// `<package root>/../shared/data/real/evemu-devices` (whot/evemu-devices) and
// `.../chromeos-autotest-firmware_TouchMTB` (ChromeOS autotest). Each folder's
// SOURCE.md states the outcome each recording should give; these tests assert it.

/// `<package root>/../shared/data/real`, from this file's path.
let realDataDirectory: String = {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GestureEngineTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/real")
        .path
}()

let evdevRecordingsPresent =
    FileManager.default.fileExists(atPath: realDataDirectory + "/evemu-devices")
    && FileManager.default.fileExists(atPath: realDataDirectory + "/chromeos-autotest-firmware_TouchMTB")

func evemuPath(_ relative: String) -> String { realDataDirectory + "/evemu-devices/" + relative }
func touchMTBPath(_ name: String) -> String { realDataDirectory + "/chromeos-autotest-firmware_TouchMTB/data/" + name }

// MARK: - Running the engine on recordings

private final class EvdevRecordingSink: LineSink {
    var lines: [String] = []
    func write(line: String) { lines.append(line) }
}

/// One gesture as the rules' handler emitted it.
struct EvdevGesture: Equatable, CustomStringConvertible {
    var kind: String
    var fingers: Int
    var direction: String?
    var taps: Int
    var time: Double

    var description: String {
        "\(fingers)-finger \(kind)\(direction.map { " " + $0 } ?? "")\(taps > 0 ? " taps=\(taps)" : "") at \(time)"
    }
}

struct EvdevRecordingRun {
    var status: ExitCode
    var lines: [String]
    var messages: [String]
    var framesProcessed: Int
    var gestures: [EvdevGesture]
}

private func parseEvdevGesture(_ line: String) throws -> EvdevGesture {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    let dict = try #require(object as? [String: Any], "not an object: \(line)")
    #expect(dict["action"] as? String == "gesture", "unexpected action in \(line)")
    #expect(line.hasPrefix(#"{"action":"gesture","t":"#), "action and t come first: \(line)")
    return EvdevGesture(
        kind: try #require(dict["kind"] as? String, "no kind in \(line)"),
        fingers: try #require((dict["fingers"] as? NSNumber)?.intValue, "no fingers in \(line)"),
        direction: dict["direction"] as? String,
        taps: (dict["taps"] as? NSNumber)?.intValue ?? 0,
        time: (dict["t"] as? NSNumber)?.doubleValue ?? -1)
}

/// Runs the engine in-process on `files`. One file is read where it is; several
/// are concatenated byte for byte into one temporary input first, as
/// `cat X.desc X.events | gesturemap run -` does.
func runRecording(_ files: [String], rules: String, configure: (inout RunOptions) -> Void = { _ in }) throws -> EvdevRecordingRun {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-evdev-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let rulesURL = dir.appendingPathComponent("rules.lua")
    try rules.write(to: rulesURL, atomically: true, encoding: .utf8)

    let input: String
    if files.count == 1 {
        input = files[0]
    } else {
        var bytes = Data()
        for file in files {
            bytes.append(try #require(FileManager.default.contents(atPath: file), "cannot read \(file)"))
        }
        let url = dir.appendingPathComponent("recording.evemu")
        try bytes.write(to: url)
        input = url.path
    }
    var options = RunOptions()
    options.inputs = [input]
    options.rulesPath = rulesURL.path
    configure(&options)
    let console = Console()
    var messages: [String] = []
    // Most of these devices give no resolution, and the engine says once which
    // size it assumed (HostileInputTests holds that message); the rest must be silent.
    console.capture = { if !$0.contains(": the device gives no resolution; using ") { messages.append($0) } }
    let sink = EvdevRecordingSink()
    let engine = try #require(Engine(options: options, console: console, output: sink))
    let status = engine.run()
    return EvdevRecordingRun(status: status, lines: sink.lines, messages: messages,
                             framesProcessed: engine.framesProcessed, gestures: try sink.lines.map(parseEvdevGesture))
}

/// Lua rules binding every phrase in `phrases` to one handler that emits the gesture.
func evdevRules(_ phrases: [String]) -> String {
    var text = """
    local function report(g)
      emit("gesture", { kind = g.kind, fingers = g.fingers, direction = g.direction, taps = g.taps })
    end

    """
    for phrase in phrases { text += "on(\"\(phrase)\", report)\n" }
    return text
}

let directions = ["up", "down", "left", "right"]

/// 1- to 4-finger swipes in every direction.
let allSwipes: [String] = (1...4).flatMap { n in directions.map { "\(n)-finger swipe \($0)" } }

let pinchesAndRotations = [
    "pinch in", "pinch out", "rotate clockwise", "rotate counterclockwise", "pinch", "rotate",
]

let tapsAndHolds = [
    "tap", "double tap", "2-finger tap", "2-finger double tap", "3-finger tap",
    "long press", "2-finger long press",
]

/// The decoded frames of one input, for comparing decoders.
func evdevFrames(_ path: String, resolution: (x: Double, y: Double)?) throws -> (frames: [TouchFrame], decoder: AutoDecoder) {
    let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
    var decoder = AutoDecoder(source: path, resolution: resolution)
    var frames: [TouchFrame] = []
    Array(data).withUnsafeBytes { decoder.feed($0) { frames.append($0) } }
    decoder.finish { frames.append($0) }
    return (frames, decoder)
}

@Suite("Real evdev recordings", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/{evemu-devices,chromeos-autotest-firmware_TouchMTB} beside the package"))
struct EvdevRecordingTests {
    // MARK: Atmel maXTouch touchscreen (self-contained evemu 1.3 files)

    @Test("Atmel 4-finger-drag-down: exactly one 4-finger swipe down (the 4th finger lands 111 ms late)")
    func atmelFourFingerDragDown() throws {
        let run = try runRecording([evemuPath("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")],
                                   rules: evdevRules(allSwipes))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.direction ?? "-")" } == ["4 swipe down"], "\(run.gestures)")
    }

    @Test("Atmel 1-finger-fast-taps with only a single-tap rule: 9 one-finger taps")
    func atmelFastTapsSingleRule() throws {
        let run = try runRecording([evemuPath("touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")],
                                   rules: evdevRules(["tap"]))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.count == 9, "\(run.gestures)")
        #expect(run.gestures.allSatisfy { $0.kind == "tap" && $0.fingers == 1 && $0.taps == 1 }, "\(run.gestures)")
        #expect(zip(run.gestures, run.gestures.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test("Atmel 1-finger-fast-taps with tap and double-tap rules: 4 double taps, then 1 single tap")
    func atmelFastTapsDoubleRule() throws {
        let run = try runRecording([evemuPath("touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")],
                                   rules: evdevRules(["tap", "double tap"]))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == [
            "1 tap 2", "1 tap 2", "1 tap 2", "1 tap 2", "1 tap 1",
        ], "\(run.gestures)")
    }

    @Test("Atmel 2-fingers-touch-release: no swipe and no pinch")
    func atmelTwoFingersTouchRelease() throws {
        // Held 0.82 s with ≤12 units of motion: a 2-finger long press, or nothing.
        let run = try runRecording([evemuPath("touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events")],
                                   rules: evdevRules(allSwipes + ["pinch in", "pinch out", "pinch", "2-finger long press"]))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(!run.gestures.contains { $0.kind == "swipe" }, "\(run.gestures)")
        #expect(!run.gestures.contains { $0.kind == "pinch" }, "\(run.gestures)")
        #expect(run.gestures.allSatisfy { $0.kind == "long_press" && $0.fingers == 2 }, "\(run.gestures)")
    }

    @Test("Atmel 1-finger-drag-up-down: no swipe down at the end")
    func atmelDragUpDown() throws {
        // y 379 → 89 → 393. The device gives no resolution; taken as a typical 13.3-inch
        // screen (2.76 units/mm), the first stroke, about 105 mm up at 125 mm/s, is a
        // swipe up (as CSS pixels it was 94 mm/s and nothing fired). Never a swipe down.
        let run = try runRecording([evemuPath("touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events")],
                                   rules: evdevRules(allSwipes))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(!run.gestures.contains { $0.kind == "swipe" && $0.direction == "down" }, "\(run.gestures)")
        #expect(run.framesProcessed > 0)
    }

    // MARK: Wacom ISDv4 E6 (events-only files, given their .desc first)

    @Test("Wacom ISDv4 E6: 2fg-tap is one 2-finger tap, single-tap-center one 1-finger tap, double-tap-center one double tap",
          arguments: [
              ("2fg-tap", "2 tap 1"),
              ("single-tap-center", "1 tap 1"),
              ("double-tap-center", "1 tap 2"),
          ])
    func wacomISDv4Taps(name: String, expected: String) throws {
        let run = try runRecording(
            [evemuPath("tablets/Wacom ISDv4 E6 Finger.desc"), evemuPath("tablets/Wacom ISDv4 E6 Finger.\(name).events")],
            rules: evdevRules(["tap", "double tap", "2-finger tap", "2-finger double tap"]))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == [expected], "\(run.gestures)")
    }

    // MARK: Touchpads

    /// The ALPS pad reports no resolution. 28 units/mm is our estimate: the
    /// events files' own header gives 0..2000 × 0..1400, which makes a pad of about
    /// 71 × 50 mm, a typical size for this laptop touchpad.
    @Test("ALPS GlidePoint at 28 units/mm: single-tap is a 1-finger tap, double-tap a 1-finger double tap",
          arguments: [("single-tap", "1 tap 1"), ("double-tap", "1 tap 2")])
    func alpsTaps(name: String, expected: String) throws {
        let run = try runRecording([evemuPath("touchpads/AlpsPS2 ALPS GlidePoint.\(name).events")],
                                   rules: evdevRules(tapsAndHolds)) { $0.resolution = (x: 28, y: 28) }
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == [expected], "\(run.gestures)")
    }

    /// The three-finger count comes from BTN_TOOL_TRIPLETAP: the pad is semi-MT
    /// with 2 slots, and slot 1 never reports a position.
    @Test("Cypress: two_finger_tap is a 2-finger tap, three_finger_tap a 3-finger tap",
          arguments: [("two_finger_tap", "2 tap 1"), ("three_finger_tap", "3 tap 1")])
    func cypressTaps(name: String, expected: String) throws {
        let run = try runRecording([evemuPath("touchpads/CyPS2 Cypress Trackpad.\(name).events")],
                                   rules: evdevRules(tapsAndHolds))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == [expected], "\(run.gestures)")
    }

    // MARK: Wacom double-center-circle: two fingers circling together

    @Test("Wacom double-center-circle: no pinch and no rotate", arguments: [
        ("Wacom ISDv4 E6 Finger", "Wacom ISDv4 E6 Finger.double-center-circle.events"),
        ("Wacom Intuos5 touch M Finger", "Wacom Intuos5 touch M Finger double-center-circle.events"),
        ("Wacom Bamboo 16FG 4x5 Finger", "Wacom Bamboo 16FG 4x5 Finger double-center-circle.events"),
    ])
    func wacomDoubleCenterCircle(device: String, events: String) throws {
        let desc = evemuPath("tablets/\(device).desc")
        let path = evemuPath("tablets/\(events)")
        #expect(FileManager.default.fileExists(atPath: path), "missing \(path)")
        let run = try runRecording([desc, path], rules: evdevRules(pinchesAndRotations))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        // The recording was decoded: over a hundred frames of two fingers moving.
        #expect(run.framesProcessed > 100, "\(run.framesProcessed) frames")
        #expect(!run.gestures.contains { $0.kind == "pinch" || $0.kind == "rotate" }, "\(run.gestures)")
        #expect(run.gestures.isEmpty, "\(run.gestures)")
    }

    // MARK: ChromeOS autotest (evtest text)

    @Test("pinch_to_zoom.zoom_in.dat at 20 units/mm: a 2-finger pinch out")
    func pinchToZoom() throws {
        let run = try runRecording([touchMTBPath("pinch_to_zoom.zoom_in.dat")],
                                   rules: evdevRules(pinchesAndRotations + allSwipes)) { $0.resolution = (x: 20, y: 20) }
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.direction ?? "-")" } == ["2 pinch out"], "\(run.gestures)")
    }

    @Test("one_finger_long_hold.dat at 20 units/mm: a 1-finger long press")
    func oneFingerLongHold() throws {
        let run = try runRecording([touchMTBPath("one_finger_long_hold.dat")],
                                   rules: evdevRules(tapsAndHolds + allSwipes)) { $0.resolution = (x: 20, y: 20) }
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind)" } == ["1 long_press"], "\(run.gestures)")
    }

    @Test("two_finger_long_hold.dat: a 2-finger long press")
    func twoFingerLongHold() throws {
        let run = try runRecording([touchMTBPath("two_finger_long_hold.dat")], rules: evdevRules(tapsAndHolds + allSwipes))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind)" } == ["2 long_press"], "\(run.gestures)")
    }

    @Test("two_finger_tap_one_finger_hold.dat: a 2-finger tap, then a 1-finger long press")
    func twoFingerTapThenHold() throws {
        let run = try runRecording([touchMTBPath("two_finger_tap_one_finger_hold.dat")], rules: evdevRules(tapsAndHolds + allSwipes))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == ["2 tap 1", "1 long_press 0"], "\(run.gestures)")
    }

    @Test("two_finger_tap.vertical.dat: a 2-finger tap (one contact already down, without a tracking id)")
    func twoFingerTapVertical() throws {
        let path = touchMTBPath("two_finger_tap.vertical.dat")
        let run = try runRecording([path], rules: evdevRules(tapsAndHolds + allSwipes))
        #expect(run.status == .ok)
        #expect(run.gestures.map { "\($0.fingers) \($0.kind) \($0.taps)" } == ["2 tap 1"], "\(run.gestures)")
        // The repairs are reported, once each, and are not errors.
        #expect(run.messages == [
            "\(path):71: \(AssemblyAnomaly.liftForSlotWithoutContact.message)",
            "\(path):77: \(AssemblyAnomaly.contactAlreadyDown.message)",
        ])
    }

    // MARK: EP0430M09: Y inverted against the labels

    @Test("EP0430M09 4-finger-drag-down: downward with --flip-y, upward without", arguments: [true, false])
    func ep0430FourFingerDrag(flipY: Bool) throws {
        let rules = evdevRules(["4-finger pan"] + directions.map { "4-finger swipe \($0)" })
        let run = try runRecording([evemuPath("touchscreens/EP0430M09.4-finger-drag-down.events")], rules: rules) {
            if flipY { $0.transform = Transform(flipY: true) }
        }
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        let want = flipY ? "down" : "up"
        let against = flipY ? "up" : "down"
        #expect(!run.gestures.isEmpty, "no 4-finger movement recognized")
        #expect(run.gestures.allSatisfy { $0.fingers == 4 && ($0.kind == "pan" || $0.kind == "swipe") }, "\(run.gestures)")
        #expect(run.gestures.contains { $0.direction == want }, "\(run.gestures)")
        #expect(!run.gestures.contains { $0.direction == against }, "\(run.gestures)")
    }

    // MARK: N-Trig protocol A

    @Test("N-Trig protocol-A files are decoded without diagnostics", arguments: ["1-finger-drag-NW-SE", "2-fingers-touch-release"])
    func nTrigHandled(name: String) throws {
        let run = try runRecording(
            [evemuPath("touchscreens/N-Trig MultiTouch.desc"), evemuPath("touchscreens/N-Trig MultiTouch.\(name).events")],
            rules: evdevRules(["pan", "2-finger pan"] + tapsAndHolds + allSwipes + pinchesAndRotations)) { $0.strict = true }
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.framesProcessed > 100, "\(run.framesProcessed) frames")
    }

    @Test("N-Trig 1-finger-drag-NW-SE: a 1-finger pan toward the right or down")
    func nTrigDrag() throws {
        let run = try runRecording(
            [evemuPath("touchscreens/N-Trig MultiTouch.desc"), evemuPath("touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events")],
            rules: evdevRules(["pan"]))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        let pan = try #require(run.gestures.first, "no pan")
        #expect(run.gestures.count == 1, "\(run.gestures)")
        #expect(pan.kind == "pan" && pan.fingers == 1)
        #expect(pan.direction == "right" || pan.direction == "down", "\(pan)")
    }

    /// The N-Trig drag decoded directly: desc + events, `resolution` units/mm (nil:
    /// none; the description has none, so a typical touchscreen's size stands in).
    private func nTrigDragFrames(resolution: Double?) throws -> (frames: [TouchFrame], diagnostics: [Diagnostic], unitsPerMM: Double) {
        var bytes = Data()
        for file in ["touchscreens/N-Trig MultiTouch.desc", "touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events"] {
            bytes.append(try #require(FileManager.default.contents(atPath: evemuPath(file))))
        }
        var decoder = AutoDecoder(source: "n-trig", resolution: resolution.map { (x: $0, y: $0) })
        var frames: [TouchFrame] = []
        Array(bytes).withUnsafeBytes { decoder.feed($0) { frames.append($0) } }
        decoder.finish { frames.append($0) }
        #expect(decoder.format == .evemu)
        return (frames, decoder.diagnostics, 1 / decoder.converter.xScale)
    }

    /// One finger, 106 packets of one contact each, then an empty packet. The
    /// largest step between packets is 378 units.
    @Test("N-Trig 1-finger-drag-NW-SE: one contact from the first packet, (205, 183), to the last, (9369, 6967)",
          arguments: [nil, 40.0, 96 / 25.4])
    func nTrigOneContact(resolution: Double?) throws {
        let (frames, diagnostics, unitsPerMM) = try nTrigDragFrames(resolution: resolution)
        func units(_ p: Vector) -> [Int] { [Int((p.x * unitsPerMM).rounded()), Int((p.y * unitsPerMM).rounded())] }
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let ids = Set(frames.flatMap { $0.touches.map(\.id) })
        let last = try #require(frames.last?.touches.last)
        #expect(last.phase == .ended)
        #expect(units(last.position) == [9369, 6967], "\(last.position)")
        #expect(frames.allSatisfy { $0.activeCount <= 1 }, "never two fingers down at once")
        // Taken as CSS pixels, the fast middle of the stroke moves up to 378 units
        // (100 "mm") between packets: still one finger, since every packet holds
        // exactly one contact.
        #expect(ids.count == 1, "\(ids.count) contact ids")
        let first = try #require(frames.first)
        #expect(first.touches.map(\.phase) == [.began])
        // The first contact's X/Y come before the first SYN_MT_REPORT shows the
        // protocol; they are kept, and the finger lands in the first packet.
        #expect(abs(first.time - 1357751027.090934) < 1e-6, "\(first.time)")
        #expect(first.touches.map { units($0.position) } == [[205, 183]])
    }

    // MARK: evtest and evemu forms of the same events

    @Test("one_finger_swipe.dat (evtest) and one_finger_swipe.evemu.dat decode to identical frames")
    func evtestEvemuTwins() throws {
        let (evtest, evtestDecoder) = try evdevFrames(touchMTBPath("one_finger_swipe.dat"), resolution: (x: 12, y: 12))
        let (evemu, evemuDecoder) = try evdevFrames(touchMTBPath("one_finger_swipe.evemu.dat"), resolution: (x: 12, y: 12))
        #expect(evtestDecoder.format == .evtest)
        #expect(evemuDecoder.format == .evemu)
        #expect(evtestDecoder.diagnostics.isEmpty, "\(evtestDecoder.diagnostics)")
        #expect(evemuDecoder.diagnostics.isEmpty, "\(evemuDecoder.diagnostics)")
        #expect(evtestDecoder.eventCount == evemuDecoder.eventCount)
        // 1 contact, 5 frames: (861,259) → (713,347).
        #expect(evtest.count == 5)
        #expect(evtest.count == evemu.count)
        #expect(evtest.map(\.time) == evemu.map(\.time))
        #expect(evtest.map { $0.touches.map(\.id) } == evemu.map { $0.touches.map(\.id) })
        #expect(evtest.map { $0.touches.map(\.phase) } == evemu.map { $0.touches.map(\.phase) })
        #expect(evtest.map { $0.touches.map(\.position) } == evemu.map { $0.touches.map(\.position) })
        let first = try #require(evtest.first?.touches.first)
        #expect(first.phase == .began)
        #expect(Int((first.position.x * 12).rounded()) == 861 && Int((first.position.y * 12).rounded()) == 259, "\(first)")
        let last = try #require(evtest.last?.touches.first)
        #expect(last.phase == .ended)
        #expect(Int((last.position.x * 12).rounded()) == 713 && Int((last.position.y * 12).rounded()) == 347, "\(last)")
    }
}
