import Foundation
import Testing

/// A Lua recognizer whose timeout re-arms its deadline a microsecond ahead,
/// with taps far apart: every command that replays input used to follow the
/// chain across the whole gap (a hundred million deadlines for 100 s), so
/// none of them ended. Each now ends at once, saying why the recognizer failed.
@Suite("Deadline chains, through every command that replays")
struct DeadlineChainTests {
    static let rules = """
    recognizer("chain", {
      frame = function(r, f) r:deadline(f.t + 0.000001) end,
      timeout = function(r, t) r:deadline(t + 0.000001) end,
    })
    on("chain", function(g) emit("chain") end)
    on("long press", function(g) emit("held") end)
    """

    /// Two taps `gap` seconds apart, then a long press: the run goes on past the chains.
    static func input(gap: Double) -> String {
        let later = 1 + gap
        return [
            #"{"t":1,"ev":"down","id":1,"x":300,"y":300}"#, #"{"t":1.05,"ev":"up","id":1}"#,
            #"{"t":\#(later),"ev":"down","id":2,"x":300,"y":300}"#, #"{"t":\#(later + 0.05),"ev":"up","id":2}"#,
            #"{"t":\#(later + 1),"ev":"down","id":3,"x":300,"y":300}"#, #"{"t":\#(later + 2),"ev":"up","id":3}"#,
        ].joined(separator: "\n") + "\n"
    }

    static let why = "its timeout set 1000 deadlines in a row with no input between; a timeout must stop re-arming"

    /// Long enough for a loaded machine; the chain took for ever before.
    static let limit = 120.0

    static func files(gap: Double) throws -> (rules: String, input: String) {
        let dir = try Binary.temporaryDirectory()
        let rules = dir.appendingPathComponent("chain.lua")
        try Self.rules.write(to: rules, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("taps.jsonl")
        try Self.input(gap: gap).write(to: input, atomically: true, encoding: .utf8)
        return (rules.path, input.path)
    }

    @Test("run ends, with the long press after the gap, and --trace says why the chain failed", arguments: [0.5, 2, 100, 1e6])
    func run(gap: Double) throws {
        let (rules, input) = try Self.files(gap: gap)
        let result = try Binary.run(["run", "--trace", "--rules", rules, input], killAfter: Self.limit)
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.lines.count == 1 && result.lines.first?.contains(#""action":"held""#) == true, "\(result.stdout)")
        let failures = result.errorLines.filter { $0.contains("bug: chain: \(Self.why); failing it") }
        #expect(failures.count == 3, "\(result.stderr.suffix(600))")
    }

    @Test("explain ends and gives the reason in its summary")
    func explain() throws {
        let (rules, input) = try Self.files(gap: 100)
        let result = try Binary.run(["explain", input, "--rules", rules], killAfter: Self.limit)
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.stdout.contains("chain failed: \(Self.why)"), "\(result.stdout.suffix(600))")
    }

    @Test("test ends and compares what was emitted")
    func goldenTest() throws {
        let (rules, input) = try Self.files(gap: 100)
        let expected = URL(fileURLWithPath: input).deletingPathExtension().appendingPathExtension("expected")
        try #"{"action":"held","t":102.5}"#.appending("\n").write(to: expected, atomically: true, encoding: .utf8)
        let result = try Binary.run(["test", rules, input], killAfter: Self.limit)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("1 passed, 0 failed"), "\(result.stderr)")
    }

    @Test("draw ends and writes its picture")
    func draw() throws {
        let (rules, input) = try Self.files(gap: 100)
        let svg = URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("chain.svg")
        let result = try Binary.run(["draw", input, "--rules", rules, "-o", svg.path], killAfter: Self.limit)
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        let picture = try String(contentsOf: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") || picture.hasPrefix("<?xml"))
    }
}
