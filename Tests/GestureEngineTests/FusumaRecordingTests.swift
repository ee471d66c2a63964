import Foundation
import GestureActions
import GestureCore
import GestureEngine
import GestureInput
import Testing

// Real `libinput debug-events` recordings from a Surface Pro 3 touchscreen
// (fusuma-plugin-touchscreen's spec samples); SOURCE.md beside them states the
// outcome upstream asserts for each.

/// `<package root>/../shared/data/real/fusuma-plugin-touchscreen`, from this file's path.
private let fusumaDirectory: String = {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GestureEngineTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/real/fusuma-plugin-touchscreen")
        .path
}()

private func fusumaPath(_ name: String) -> String { fusumaDirectory + "/" + name }

private let recordingsPresent = FileManager.default.fileExists(atPath: fusumaDirectory)

// MARK: - Running the engine on a file

private final class FusumaSink: LineSink {
    var lines: [String] = []
    func write(line: String) { lines.append(line) }
}

private struct FusumaRun {
    var status: ExitCode
    var lines: [String]
    var messages: [String]
}

/// Runs the engine in-process on an existing input file, with `rules` written to
/// a fresh temporary directory.
private func runEngineOnFile(path: String, rules: String, configure: (inout RunOptions) -> Void = { _ in }) throws -> FusumaRun {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-fusuma-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let rulesURL = dir.appendingPathComponent("rules.lua")
    try rules.write(to: rulesURL, atomically: true, encoding: .utf8)

    var options = RunOptions()
    options.inputs = [path]
    options.rulesPath = rulesURL.path
    configure(&options)
    let console = Console()
    var messages: [String] = []
    console.capture = { messages.append($0) }
    let sink = FusumaSink()
    let status = try #require(Engine(options: options, console: console, output: sink)).run()
    return FusumaRun(status: status, lines: sink.lines, messages: messages)
}

/// One emitted gesture, as the rules' handler wrote it.
struct FusumaSeen: Equatable, CustomStringConvertible {
    var kind: String
    var fingers: Int
    var direction: String?
    var time: Double = 0

    static func == (a: FusumaSeen, b: FusumaSeen) -> Bool {
        a.kind == b.kind && a.fingers == b.fingers && a.direction == b.direction
    }

    var description: String { "\(fingers)-finger \(kind)\(direction.map { " " + $0 } ?? "") at \(time)s" }
}

private func parseSeen(_ line: String) throws -> FusumaSeen {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    let dict = try #require(object as? [String: Any], "not an object: \(line)")
    #expect(dict["action"] as? String == "gesture", "unexpected action in \(line)")
    let kind = try #require(dict["kind"] as? String, "no kind in \(line)")
    let fingers = try #require((dict["fingers"] as? NSNumber)?.intValue, "no fingers in \(line)")
    let time = (dict["t"] as? NSNumber)?.doubleValue ?? -1
    return FusumaSeen(kind: kind, fingers: fingers, direction: dict["direction"] as? String, time: time)
}

/// The seven expected gestures, bound to one handler, plus the gestures each
/// recording could be mistaken for, so that a wrong recognition shows.
private let fusumaRules = """
local function report(g)
  emit("gesture", { kind = g.kind, fingers = g.fingers, direction = g.direction })
end

-- expected outcomes
on("2-finger swipe right", report)
on("3-finger tap", report)
on("long press", report)
on("3-finger pinch in", report)
on("3-finger pinch out", report)
on("rotate clockwise", report)
on("rotate counterclockwise", report)

-- opposites and confusables
on("2-finger swipe left", report)
on("2-finger swipe up", report)
on("2-finger swipe down", report)
on("3-finger swipe right", report)
on("swipe right", report)
on("2-finger tap", report)
on("tap", report)
on("double tap", report)
on("2-finger long press", report)
on("3-finger long press", report)
on("2-finger pinch in", report)
on("pinch out", report)
on("3-finger rotate clockwise", report)
on("3-finger rotate counterclockwise", report)
"""

struct FusumaRecording: Sendable, CustomTestStringConvertible {
    var file: String
    var kind: String
    var fingers: Int
    var direction: String?
    /// Gestures besides the expected one that may follow it (the stray touch after the pinch).
    var alsoAllowed: [Allowed] = []

    struct Allowed: Sendable {
        var kind: String
        var fingers: Int
        var direction: String?
        var notBefore: Double
    }

    var expected: FusumaSeen { FusumaSeen(kind: kind, fingers: fingers, direction: direction) }
    var testDescription: String { file }
}

private let recordings: [FusumaRecording] = [
    FusumaRecording(file: "1-finger-hold.txt", kind: "long_press", fingers: 1, direction: nil),
    FusumaRecording(file: "2-fingers-rotate-clockwise.txt", kind: "rotate", fingers: 2, direction: "clockwise"),
    FusumaRecording(file: "2-fingers-rotate-counterclockwise.txt", kind: "rotate", fingers: 2, direction: "counterclockwise"),
    FusumaRecording(file: "2-fingers-swipe-right.txt", kind: "swipe", fingers: 2, direction: "right"),
    // The stray 77 ms touch at +4.63 s is a 1-finger tap of its own; it may be
    // reported, but only after the pinch and only as that.
    FusumaRecording(file: "3-fingers-pinch-in.txt", kind: "pinch", fingers: 3, direction: "in",
              alsoAllowed: [.init(kind: "tap", fingers: 1, direction: nil, notBefore: 4.6)]),
    FusumaRecording(file: "3-fingers-pinch-out.txt", kind: "pinch", fingers: 3, direction: "out"),
    FusumaRecording(file: "3-fingers-tap.txt", kind: "tap", fingers: 3, direction: nil),
]

/// Filter with `--filter GestureEngineTests.FusumaRecordingTests`.
@Suite("Fusuma touchscreen recordings", .enabled(if: recordingsPresent, "needs ../shared/data/real/fusuma-plugin-touchscreen beside the package"))
struct FusumaRecordingTests {
    @Test("each real recording is recognized as upstream's spec states", arguments: recordings)
    func recognized(recording: FusumaRecording) throws {
        let run = try runEngineOnFile(path: fusumaPath(recording.file), rules: fusumaRules)
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "diagnostics: \(run.messages)")
        let seen = try run.lines.map(parseSeen)
        let first = try #require(seen.first, "no gesture recognized in \(recording.file)")
        #expect(first == recording.expected, "first gesture \(first), expected \(recording.expected); all: \(seen)")
        for other in seen.dropFirst() where other != recording.expected {
            let allowed = recording.alsoAllowed.contains {
                $0.kind == other.kind && $0.fingers == other.fingers && $0.direction == other.direction && other.time >= $0.notBefore
            }
            #expect(allowed, "confusable gesture \(other) in \(recording.file); all: \(seen)")
        }
    }

    @Test("the stray touch after the 3-finger pinch in does not change the result")
    func pinchInStrayTouch() throws {
        let run = try runEngineOnFile(path: fusumaPath("3-fingers-pinch-in.txt"), rules: fusumaRules)
        let seen = try run.lines.map(parseSeen)
        #expect(seen.first == FusumaSeen(kind: "pinch", fingers: 3, direction: "in"))
        #expect(seen.filter { $0 == FusumaSeen(kind: "pinch", fingers: 3, direction: "in") }.count == 1)
        #expect(!seen.contains { $0.kind == "pinch" && $0.direction == "out" })
        // Whatever the stray touch gives, it comes after the pinch and uses one finger.
        for s in seen.dropFirst() {
            #expect(s.fingers == 1 && s.time >= 4.6, "after the pinch: \(s)")
        }
    }

    @Test("detecting the format and giving --format libinput agree", arguments: recordings)
    func explicitFormat(recording: FusumaRecording) throws {
        let detected = try runEngineOnFile(path: fusumaPath(recording.file), rules: fusumaRules)
        let told = try runEngineOnFile(path: fusumaPath(recording.file), rules: fusumaRules) { $0.format = .libinput }
        #expect(told.status == .ok)
        #expect(told.lines == detected.lines)
    }

    @Test("a DEVICE_ADDED header before the recording changes nothing about the gesture")
    func deviceHeader() throws {
        let recording = try String(contentsOfFile: fusumaPath("2-fingers-swipe-right.txt"), encoding: .utf8)
        let header = "-event4   DEVICE_ADDED            NTRG0001:01 1B96:1B05             seat0 default group7  cap:t  size 253x167mm ntouches 10 calib\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-fusuma-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("swipe-with-header.txt").path
        try (header + recording).write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runEngineOnFile(path: path, rules: fusumaRules)
        #expect(run.messages.isEmpty)
        #expect(try run.lines.map(parseSeen) == [FusumaSeen(kind: "swipe", fingers: 2, direction: "right")])
    }

    /// README: "`device` is the source's device name" (the input's name when the
    /// source names no device), already for gestures in the very first read.
    @Test("g.device names the source for gestures in the first read")
    func deviceNameInHandler() throws {
        let rules = """
        on("2-finger swipe right", function(g) emit("gesture", { device = tostring(g.device) }) end)
        """
        let path = fusumaPath("2-fingers-swipe-right.txt")
        let run = try runEngineOnFile(path: path, rules: rules)
        #expect(run.lines.count == 1)
        let line = try #require(run.lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["device"] as? String == path, "\(line)")
    }

    @Test("the swipe recording through AutoDecoder: first frame holds both fingers in mm")
    func swipeFrames() throws {
        let data = try #require(FileManager.default.contents(atPath: fusumaPath("2-fingers-swipe-right.txt")))
        var decoder = AutoDecoder(source: "2-fingers-swipe-right.txt")
        var frames: [TouchFrame] = []
        Array(data).withUnsafeBytes { decoder.feed($0) { frames.append($0) } }
        decoder.finish { frames.append($0) }
        #expect(decoder.format == .libinput)
        #expect(decoder.diagnostics.isEmpty)
        #expect(decoder.errorCount == 0)

        let first = try #require(frames.first)
        #expect(first.time == 0)
        #expect(first.touches.count == 2)
        #expect(first.touches.map(\.id) == [0, 1])
        #expect(first.touches.allSatisfy { $0.phase == .began })
        let close = { (a: Double, b: Double) in abs(a - b) < 1e-9 }
        let positions = first.touches.map(\.position)
        #expect(positions.count == 2 && close(positions[0].x, 68.39) && close(positions[0].y, 71.37), "\(positions)")
        #expect(positions.count == 2 && close(positions[1].x, 66.82) && close(positions[1].y, 89.21), "\(positions)")

        // Every frame is a 2-finger frame, ending with both lifted, and time never goes back.
        #expect(frames.allSatisfy { $0.touches.count == 2 })
        #expect(frames.last?.touches.map(\.phase) == [.ended, .ended])
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
}
