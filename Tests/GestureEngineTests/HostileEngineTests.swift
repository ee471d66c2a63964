import Foundation
import GestureCore
@testable import GestureEngine
import GestureInput
import Testing

// The engine's side of hostile input: a device opened again keeps every
// option, edge swipes say why they cannot fire, and a replay paced at its
// recorded speed survives a clock that jumps.

@Suite("Hostile input in the engine")
struct HostileEngineTests {
    /// 0..4000 x 0..3000 with no resolution: a touchscreen.
    private var screen: EvdevDescription {
        var d = EvdevDescription(name: "panel")
        d.axes[ABS.mtPositionX] = AxisInfo(minimum: 0, maximum: 4000)
        d.axes[ABS.mtPositionY] = AxisInfo(minimum: 0, maximum: 3000)
        d.properties = 1 << UInt64(InputProperty.direct)
        return d
    }

    @Test("a device's decoder, whether opened at the start or again after an unplug, has --strict, --resolution, the transform and --size")
    func reopenKeepsOptions() throws {
        var options = RunOptions()
        options.strict = true
        options.transform = Transform(rotation: 90)
        options.deviceSizes = [("event7", Surface(width: 200, height: 150))]
        let engine = try #require(Engine(options: options, console: Console(), output: RecordingSink()))
        let decoder = engine.deviceDecoder(for: "/dev/input/event7", description: screen, index: 2)
        #expect(decoder.stopsAtFirstError)
        #expect(decoder.dropRecovery == .kernelState)
        #expect(decoder.converter.transform == Transform(rotation: 90))
        #expect(decoder.converter.origin == .hint(SizeHint(.millimetres(width: 200, height: 150), from: .sizeOption)))
        // Rotated a quarter turn, the screen's width is the device's height.
        #expect(decoder.converter.surface == Surface(width: 150, height: 200))

        options.resolution = (x: 10, y: 10)
        let withResolution = try #require(Engine(options: options, console: Console(), output: RecordingSink()))
            .deviceDecoder(for: "/dev/input/event7", description: screen, index: 2)
        #expect(withResolution.converter.origin == .commandLine)
        #expect(withResolution.stopsAtFirstError)
    }

    @Test("a device's decoder asks the system for its size (udev, the display) when the kernel gives none")
    func reopenProbesTheSystem() throws {
        // A fake udev database whose entry is /dev/null's (1:3), a device the test can open.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-udev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "E:LIBINPUT_ATTR_SIZE_HINT=160x120\n".write(to: root.appendingPathComponent("c1:3"), atomically: true, encoding: .utf8)
        var options = RunOptions()
        options.sizeProbe = DeviceSizeProbe(udev: UdevDatabase(root: root.path, sysfs: root.appendingPathComponent("no-sys").path))
        let engine = try #require(Engine(options: options, console: Console(), output: RecordingSink()))
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        let decoder = engine.deviceDecoder(for: "/dev/input/event7", description: screen, index: 0, fd: fd)
        #expect(decoder.converter.surface == Surface(width: 160, height: 120))
        #expect(decoder.converter.origin.isGuess)
    }

    @Test("edge-swipe rules on an input with no surface size: said once, naming the input")
    func edgeSwipesNeedASize() throws {
        let input = (0..<3).map { i in #"{"t": \#(Double(i) * 0.05), "ev": "\#(i == 0 ? "down" : i == 1 ? "move" : "up")", "id": 1, "x": \#(i * 60), "y": 10}"# }
            .joined(separator: "\n") + "\n"
        let rules = #"on("edge swipe from left", function(g) emit("edge") end)"#
        let run = try runEngine(input: input + input.replacingOccurrences(of: "\"id\": 1", with: "\"id\": 2").replacingOccurrences(of: "\"t\": 0", with: "\"t\": 1"), rules: rules)
        let said = run.messages.filter { $0.contains("edge-swipe rules cannot fire") }
        #expect(said.count == 1, "\(run.messages)")
        #expect(said.first?.hasSuffix("input.ndjson: the touch surface's size is unknown, so edge-swipe rules cannot fire; give the axis ranges (an NDJSON device header with min and max, or a device description)") == true)

        let header = #"{"device": {"x": {"min": 0, "max": 1000}, "y": {"min": 0, "max": 1000}}}"# + "\n"
        let sized = try runEngine(input: header + input, rules: rules)
        #expect(!sized.messages.contains { $0.contains("edge-swipe") }, "\(sized.messages)")
        let noEdgeRules = try runEngine(input: input, rules: #"on("tap", function(g) end)"#)
        #expect(!noEdgeRules.messages.contains { $0.contains("edge-swipe") })
    }

    @Test("--realtime over a clock that jumps a day and more: no trap, the jump reported, the gestures after it delivered")
    func realtimeJump() throws {
        // A still finger whose middle sample is stamped 9e9 s, then a second tap.
        let input = [
            #"{"t": 0, "ev": "down", "id": 1, "x": 10, "y": 10}"#,
            #"{"t": 9000000000, "ev": "move", "id": 1, "x": 10, "y": 10}"#,
            #"{"t": 0.05, "ev": "up", "id": 1}"#,
            #"{"t": 0.5, "ev": "down", "id": 2, "x": 10, "y": 10}"#,
            #"{"t": 0.55, "ev": "up", "id": 2}"#,
        ].joined(separator: "\n") + "\n"
        let run = try runEngine(input: input, rules: #"on("tap", function(g) emit("tap") end)"#) { $0.realtime = true }
        #expect(run.status == .ok)
        #expect(run.lines.count == 2, "\(run.lines)")
        #expect(run.messages.contains { $0.contains("the time jumped by more than a day") }, "\(run.messages)")
    }
}
