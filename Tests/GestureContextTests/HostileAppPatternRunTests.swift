import Foundation
import GestureContext
import Testing
import GestureSystem

/// `gesturemap run` with a rules file of slow `app` patterns, as the red team
/// wrote it, beside a window that changes its id every 50 ms: matching must
/// not take the loop from the touch input, nor outlast the input.
@Suite("gesturemap run with slow app patterns", .serialized)
struct HostileAppPatternRunTests {
    /// A rule without `app` that answers taps, then `count` rules of 64
    /// patterns that each take the matcher's whole allowance on any id of 40
    /// bytes or more (four `.-` that can split it in many ways), and never match.
    static func rules(_ count: Int) throws -> String {
        var text = #"on("tap", function(g) emit("tap") end)"# + "\n"
        for rule in 1...count {
            let patterns = (1...64).map { #""(.-)(.-)(.-)(.-)\#(rule)!\#($0)""# }.joined(separator: ", ")
            text += #"on("tap", function(g) emit("never") end, { app = { \#(patterns) } })"# + "\n"
        }
        let file = try temporaryDirectory("slow-app").appendingPathComponent("slow.lua")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Ends with gesturemap, even one killed while it matched.
    static let changingWindow = #"i=0; while kill -0 $PPID 2>/dev/null; do i=$((i+1)); echo "window-$i-abcdefghijklmnopqrstuvwxyzabcdefghij"; sleep 0.05; done"#

    @Test("a tap piped in is acted on at once while a window changes its id every 50 ms beside 300 rules of slow app patterns")
    func tapBesideChangingWindow() throws {
        let run = try EngineRun(["--rules", try Self.rules(300), "--app-command", Self.changingWindow])
        let tap = Gestures.synth("tap")
        run.wait(upTo: 1) { false }
        var waits: [Double] = []
        for k in 0..<5 {
            let start = MonotonicClock.now()
            #expect(run.gesture(Gestures.shifted(tap, by: Double(k), header: k == 0)), "\(run.stderr)")
            waits.append(MonotonicClock.now() - start)
            run.wait(upTo: 0.3) { false }
        }
        #expect(run.finish() == 0)
        #expect(run.lines.count == 5)
        #expect(run.lines.allSatisfy { $0.hasPrefix(#"{"action":"tap","#) }, "\(run.lines)")
        // Not a speed figure (bench-hostile has it): matching each new id
        // whole took some 15 s, and no tap came back within 10 s.
        #expect(waits.allSatisfy { $0 < 1 }, "\(waits)")
        let waiting = run.stderr.components(separatedBy: "needs more steps than gesturemap gives a focus change").count - 1
        #expect(waiting == 1, "\(run.stderr.suffix(2000))")
    }

    @Test("a replay with --app and 300 rules of slow app patterns ends with its input")
    func replayEndsWithInput() throws {
        let input = try temporaryDirectory("slow-app-replay").appendingPathComponent("tap.ndjson")
        try Gestures.synth("tap").write(to: input, atomically: true, encoding: .utf8)
        let rules = try Self.rules(300)
        let start = MonotonicClock.now()
        let result = run(AppsCommandTests.binary, ["run", "--rules", rules, "--app", "window-1-abcdefghijklmnopqrstuvwxyzabcdefghij", input.path])
        let took = MonotonicClock.now() - start
        #expect(result.status == 0)
        #expect(result.output.hasPrefix(#"{"action":"tap","#), "\(result.output)")
        // Matching the one id whole took some 15 s.
        #expect(took < 5, "took \(took) s")
    }
}
