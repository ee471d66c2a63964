import Foundation
import GestureActions
import GestureCore
import GestureEngine
import Testing

final class RecordingSink: LineSink {
    var lines: [String] = []
    func write(line: String) { lines.append(line) }
}

struct EngineRun {
    var status: ExitCode
    var lines: [String]
    var messages: [String]
}

func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-engine-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try contents.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

func runEngine(input: String, rules: String? = nil, configure: (inout RunOptions) -> Void = { _ in }) throws -> EngineRun {
    var options = RunOptions()
    options.inputs = [try temporaryFile("input.ndjson", input)]
    if let rules { options.rulesPath = try temporaryFile("rules.lua", rules) }
    configure(&options)
    let console = Console()
    var messages: [String] = []
    console.capture = { messages.append($0) }
    let sink = RecordingSink()
    let status = try #require(Engine(options: options, console: console, output: sink)).run()
    return EngineRun(status: status, lines: sink.lines, messages: messages)
}

/// NDJSON written by this test, not by synth: a straight two-finger stroke in
/// device units at `resolution` units per mm (nil: no header, CSS pixels).
func strokeNDJSON(resolution: Double?, rate: Double, dx: Double, dy: Double, duration: Double = 0.2, stagger: Double = 0.03) -> String {
    var lines: [String] = []
    let unitsPerMM = resolution ?? 96 / 25.4
    if let resolution {
        lines.append(#"{"device":{"name":"test panel","x":{"min":0,"max":\#(Int(300 * resolution)),"resolution":\#(resolution)},"y":{"min":0,"max":\#(Int(200 * resolution)),"resolution":\#(resolution)}}}"#)
    }
    let starts = [Vector(120, 80), Vector(120, 100)]
    let lands = [0.0, stagger]
    var t = 0.0
    var down = [false, false]
    while t <= duration + 0.0001 {
        for i in 0..<2 where t >= lands[i] {
            let u = min(t / duration, 1)
            let p = starts[i] + Vector(dx * u, dy * u)
            let x = (p.x * unitsPerMM * 100).rounded() / 100
            let y = (p.y * unitsPerMM * 100).rounded() / 100
            lines.append(#"{"t":\#(t),"ev":"\#(down[i] ? "move" : "down")","id":\#(i + 1),"x":\#(x),"y":\#(y)}"#)
            down[i] = true
        }
        t = ((t + 1 / rate) * 1e6).rounded() / 1e6
    }
    lines.append(#"{"t":\#(t),"ev":"up","id":1}"#)
    lines.append(#"{"t":\#(t),"ev":"up","id":2}"#)
    return lines.joined(separator: "\n") + "\n"
}

@Suite("Engine")
struct EngineTests {
    static let pager = """
    on("two-finger swipe left", function(g) emit("next_page", { fingers = g.fingers }) end)
    on("two-finger swipe right", function(g) emit("prev_page") end)
    """

    @Test("the same physical swipe at any resolution, with or without a header, is one swipe",
          arguments: [5.0, 12.0, 16.0, 40.0, 0.0], [60.0, 133.0, 240.0])
    func resolutions(resolution: Double, rate: Double) throws {
        let text = strokeNDJSON(resolution: resolution == 0 ? nil : resolution, rate: rate, dx: -40, dy: 3)
        let run = try runEngine(input: text, rules: Self.pager)
        #expect(run.status == .ok)
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.hasPrefix(#"{"action":"next_page""#) == true)
    }

    @Test("--resolution overrides the header: the same units are a shorter stroke")
    func resolutionOverride() throws {
        let text = strokeNDJSON(resolution: 10, rate: 100, dx: -15, dy: 0)
        #expect(try runEngine(input: text, rules: Self.pager).lines.count == 1)
        let scaled = try runEngine(input: text, rules: Self.pager) { $0.resolution = (x: 40, y: 40) }
        #expect(scaled.lines.isEmpty)
    }

    @Test("a malformed line is reported with its line and every valid event around it is still used")
    func malformedLineSkipped() throws {
        var lines = strokeNDJSON(resolution: 10, rate: 100, dx: -40, dy: 0).split(separator: "\n").map(String.init)
        lines.insert("{\"t\": 0.05, \"ev\": \"wiggle\", \"id\": 1}", at: 6)
        let run = try runEngine(input: lines.joined(separator: "\n") + "\n", rules: Self.pager)
        #expect(run.status == .ok)
        #expect(run.lines.count == 1)
        #expect(run.messages.count == 1)
        #expect(run.messages.first?.hasSuffix(":7: unknown \"ev\" value \"wiggle\"; use one of down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel") == true)
    }

    @Test("--strict stops at the first malformed line with exit 65")
    func strict() throws {
        let text = "{\"t\": 0, \"ev\": \"down\", \"id\": 1}\n" + strokeNDJSON(resolution: 10, rate: 100, dx: -40, dy: 0)
        let run = try runEngine(input: text, rules: Self.pager) { $0.strict = true }
        #expect(run.status == .dataError)
        #expect(run.lines.isEmpty)
        #expect(run.messages.first?.hasSuffix(":1: \"down\" needs both \"x\" and \"y\"") == true)
        #expect(run.messages.last == "gesturemap: stopping at malformed input (--strict); fix the line above or run without --strict to skip such lines")
    }

    @Test("rules that do not load: exit 1 with every problem, before any input is read")
    func badRules() throws {
        let run = try runEngine(input: "", rules: "on(\"swipe sideways\", function() end)\non(\"tap\", 1)\n")
        #expect(run.status == .ruleFailure)
        #expect(run.messages.count == 2)
    }

    @Test("--trace logs each recognizer transition")
    func trace() throws {
        let run = try runEngine(input: strokeNDJSON(resolution: 10, rate: 100, dx: 40, dy: 0), rules: Self.pager) { $0.trace = .text }
        #expect(run.messages.contains { $0.hasPrefix("trace: t=") && $0.contains("swipe: possible →") && $0.hasSuffix("→ ended (2-finger right)") })
    }

    @Test("a rule disabled by another rule stops matching at once")
    func disableFromHandler() throws {
        var text = strokeNDJSON(resolution: 10, rate: 100, dx: 40, dy: 0)
        text += strokeNDJSON(resolution: nil, rate: 100, dx: -40, dy: 0)
            .split(separator: "\n")
            .map { $0.replacingOccurrences(of: #""t":"#, with: #""t":5+"#) }
            .map { line -> String in
                // shift time by 5 s and ids by 10, in this test's own simple format
                var l = line
                if let r = l.range(of: #""t":5+"#) {
                    let rest = l[r.upperBound...]
                    let number = rest.prefix { "0123456789.".contains($0) }
                    l.replaceSubrange(r.lowerBound..<number.endIndex, with: "\"t\":\(5 + (Double(number) ?? 0))")
                }
                return l.replacingOccurrences(of: #""id":1"#, with: #""id":11"#).replacingOccurrences(of: #""id":2"#, with: #""id":12"#)
            }
            .joined(separator: "\n") + "\n"
        let rules = """
        local left = on("two-finger swipe left", function(g) emit("left") end)
        on("two-finger swipe right", function(g) left:disable(); emit("right") end)
        """
        let run = try runEngine(input: text, rules: rules)
        #expect(run.lines.map { $0.split(separator: ",").first ?? "" } == [#"{"action":"right""#])
    }
}
