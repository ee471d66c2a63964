import Foundation
import Testing

private let realData = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real").path
private let slowDragRecording = realData + "/chromeos-autotest-firmware_TouchMTB/data/two_finger_tracking.diagonal.slow.dat"

/// `gesturemap explain`: why each rule fired or did not, through the binary.
@Suite("gesturemap explain", .serialized)
struct ExplainCommandTests {
    static let pager = """
        on("tap", function(g) emit("click") end)
        on("double tap", function(g) emit("double_click") end)
        on("two-finger swipe left", function(g) emit("next_page") end)
        on("three-finger tap", function(g) emit("middle") end)
        on("swipe down", function(g) emit("down") end)
        """

    static func explain(_ phrases: [String], rules: String = pager, extra: [String] = []) throws -> Binary.Result {
        let synth = try Binary.run(["synth"] + phrases + ["--seed", "3"])
        let input = try Binary.temporaryFile("explain.jsonl", synth.stdout)
        let file = try Binary.temporaryFile("rules.lua", rules)
        return try Binary.run(["explain", input.path, "--rules", file.path] + extra)
    }

    /// The line about one rule, in the given sequence's block.
    static func line(_ output: String, sequence: Int, rule: String) -> String? {
        let blocks = output.components(separatedBy: "\n\n")
        guard let block = blocks.first(where: { $0.hasPrefix("sequence \(sequence):") }) else { return nil }
        return block.split(separator: "\n").map(String.init).first { $0.hasPrefix("  rule \"\(rule)\" ") }
    }

    @Test("a click on the left half beside a rule for the right half: explain says which halves the click was on")
    func clickHalf() throws {
        let result = try Self.explain(["2-finger click on the left half"], rules: """
            on({ kind = "click", fingers = 2, where = "right" }, function(g) emit("right") end)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.line(result.stdout, sequence: 1, rule: "2-finger click on the right half"), "\(result.stdout)")
        #expect(line.hasSuffix("): the gesture was a click on the left and top halves, 2 fingers, which this rule does not ask for"), "\(line)")
    }

    @Test("a double tap with tap and double-tap rules: the double tap fired, the single tap waited and lost")
    func doubleTap() throws {
        let result = try Self.explain(["double tap"])
        #expect(result.status == 0, "\(result.stderr)")
        let double = try #require(Self.line(result.stdout, sequence: 2, rule: "double tap"), "\(result.stdout)")
        #expect(double.contains("): fired at "), "\(double)")
        #expect(double.hasSuffix("(double tap, 1 finger)"), "\(double)")
        let single = try #require(Self.line(result.stdout, sequence: 2, rule: "tap"), "\(result.stdout)")
        #expect(single.hasSuffix("): waited for another tap within tap_interval and lost: the taps went on to 2, and went to rule \"double tap\""), "\(single)")
        let first = try #require(Self.line(result.stdout, sequence: 1, rule: "tap"), "\(result.stdout)")
        #expect(first.hasSuffix("): its tap was counted with the next, in sequence 2"), "\(first)")
    }

    @Test("a slow drag: the swipe failed on its speed, against swipe_min_speed")
    func slowDrag() throws {
        let result = try Self.explain(["drag"])
        #expect(result.status == 0, "\(result.stderr)")
        let swipe = try #require(Self.line(result.stdout, sequence: 1, rule: "swipe down"), "\(result.stdout)")
        #expect(swipe.contains(": swipe failed at "), "\(swipe)")
        #expect(swipe.contains(": lifted too slow: speed "), "\(swipe)")
        #expect(swipe.hasSuffix(" mm/s < 50 mm/s (swipe_min_speed)"), "\(swipe)")
    }

    @Test("a rule no sequence could match says why; one that fired says how often")
    func tally() throws {
        let result = try Self.explain(["tap", "swipe down"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let rules = try #require(lines.firstIndex(of: "rules:"), "\(result.stdout)")
        let tally = Array(lines[(rules + 1)...])
        #expect(tally.contains { $0.hasPrefix("  rule \"3-finger tap\" (") && $0.hasSuffix("): never fired: no touch sequence had 3 fingers (they had 1)") }, "\(tally)")
        #expect(tally.contains { $0.hasPrefix("  rule \"2-finger swipe left\" (") && $0.hasSuffix("): never fired: no touch sequence had 2 fingers (they had 1)") }, "\(tally)")
        #expect(tally.contains { $0.hasPrefix("  rule \"tap\" (") && $0.hasSuffix("): fired in 1 of 2 sequences") }, "\(tally)")
        #expect(tally.contains { $0.hasPrefix("  rule \"swipe down\" (") && $0.hasSuffix("): fired in 1 of 2 sequences") }, "\(tally)")
    }

    @Test("arbitration: the recognizer a winner fails is said to have lost to that rule")
    func lostTo() throws {
        let rules = """
            on("pinch", function(g) emit("zoom") end)
            on("two-finger swipe left", function(g) emit("next_page") end)
            """
        let result = try Self.explain(["pinch in"], rules: rules)
        #expect(result.status == 0, "\(result.stderr)")
        let swipe = try #require(Self.line(result.stdout, sequence: 1, rule: "2-finger swipe left"), "\(result.stdout)")
        #expect(swipe.contains("): lost at "), "\(swipe)")
        #expect(swipe.hasSuffix(" to rule \"pinch\", which won the sequence"), "\(swipe)")
        #expect(result.stdout.contains("  arbitration: swipe lost to rule \"pinch\" at "), "\(result.stdout)")
    }

    /// A recognizer that decides 0.3 s after a finger lands: `verdict` is "r:fail()" or "r:ended()".
    static func later(_ verdict: String) -> String {
        """
        recognizer("later", {
          frame = function(r, f)
            if f.touches[1] and f.touches[1].phase == "began" then r:deadline(f.t + 0.3) end
          end,
          timeout = function(r, t) \(verdict) end,
        })
        on("later", function(g) emit("later") end, { name = "later" })
        on("tap", function(g) emit("click") end, { requires_failure_of = "later" })
        """
    }

    @Test("requires_failure_of: the waiting rule, what it waited for, and how it ended")
    func heldAndReleased() throws {
        let result = try Self.explain(["tap"], rules: Self.later("r:fail(\"no\")"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  arbitration: rule \"tap\" waited for rule \"later\" to fail (requires_failure_of), at "), "\(result.stdout)")
        #expect(result.stdout.contains("  arbitration: rule \"tap\" was released at "), "\(result.stdout)")
        let tap = try #require(Self.line(result.stdout, sequence: 1, rule: "tap"), "\(result.stdout)")
        #expect(tap.hasSuffix(", after waiting for rule \"later\" to fail"), "\(tap)")
        let later = try #require(Self.line(result.stdout, sequence: 1, rule: "later"), "\(result.stdout)")
        #expect(later.hasSuffix(": fail(): no"), "\(later)")
    }

    @Test("requires_failure_of: a rule whose prerequisite was recognized waited and lost")
    func heldAndDropped() throws {
        let result = try Self.explain(["tap"], rules: Self.later("r:ended()"))
        #expect(result.status == 0, "\(result.stderr)")
        let tap = try #require(Self.line(result.stdout, sequence: 1, rule: "tap"), "\(result.stdout)")
        #expect(tap.contains("): waited for rule \"later\" to fail; it was recognized at "), "\(tap)")
        #expect(tap.hasSuffix(" s, so this one lost"), "\(tap)")
        #expect(result.stdout.contains("  arbitration: rule \"tap\" lost at "), "\(result.stdout)")
    }

    @Test("--json: one object per sequence with each rule's outcome and measurement, then one per rule")
    func json() throws {
        let result = try Self.explain(["drag", "three-finger swipe up"], extra: ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let sequences = objects.filter { $0["sequence"] != nil }
        let rules = objects.filter { $0["sequence"] == nil }
        #expect(sequences.count == 2)
        #expect(rules.count == 5)
        #expect(sequences.map { $0["fingers"] as? Int } == [1, 3])
        let first = try #require(sequences.first?["rules"] as? [[String: Any]])
        let swipe = try #require(first.first { $0["rule"] as? String == "rule \"swipe down\"" })
        #expect(swipe["outcome"] as? String == "failed")
        #expect(swipe["cause"] as? String == "lifted_too_slow")
        let measurement = try #require(swipe["measurement"] as? [String: Any])
        #expect(measurement["key"] as? String == "swipe_min_speed")
        #expect(measurement["limit"] as? Double == 50)
        let never = try #require(rules.first { $0["rule"] as? String == "rule \"3-finger tap\"" })
        #expect(never["fired"] as? Int == 0)
        #expect((never["never_fired"] as? String)?.hasPrefix("tap failed: ") == true, "\(never)")
    }

    @Test("a real slow two-finger drag (Cypress trackpad): the swipe failed on its speed")
    func realSlowDrag() throws {
        guard FileManager.default.fileExists(atPath: slowDragRecording) else {
            try Test.cancel("the real recordings are not here (\(realData))")
        }
        let rules = try Binary.temporaryFile("pager.lua", Self.pager)
        let result = try Binary.run(["explain", slowDragRecording, "--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("sequence 1: "), "\(result.stdout)")
        #expect(result.stdout.contains(", 2 fingers, on \"Cypress APA Trackpad (cyapa)\", moved "), "\(result.stdout)")
        let swipe = try #require(Self.line(result.stdout, sequence: 1, rule: "2-finger swipe left"), "\(result.stdout)")
        #expect(swipe.contains(": lifted too slow: speed "), "\(swipe)")
        #expect(swipe.hasSuffix(" mm/s < 50 mm/s (swipe_min_speed)"), "\(swipe)")
        #expect(!result.stdout.contains("sequence 2:"), "one touch sequence: \(result.stdout)")
    }

    @Test("a rule name or device name with a newline or a terminal escape stays quoted on its line")
    func hostileNames() throws {
        let rules = #"on("tap", function(g) emit("x") end, { name = "evil\n\"name\"\27[31m" })"#
        let input = #"{"device":{"name":"pad\u001b[2J\nsequence 9:","x":{"min":0,"max":1000,"resolution":10},"y":{"min":0,"max":600,"resolution":10}}}"# + "\n"
            + #"{"t":1,"ev":"down","id":1,"x":500,"y":300}"# + "\n" + #"{"t":1.08,"ev":"up","id":1}"# + "\n"
        let file = try Binary.temporaryFile("hostile.jsonl", input)
        let lua = try Binary.temporaryFile("hostile.lua", rules)
        let result = try Binary.run(["explain", file.path, "--rules", lua.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}"))
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == #"sequence 1: 1.00–1.08 s, 1 finger, on "pad\u{1B}[2J\u{A}sequence 9:", did not move"#, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix(#"  rule "evil\u{A}\"name\"\u{1B}[31m" ("#) == true, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("sequence ") }.count == 1)
    }

    @Test("usage: no input, two inputs, and a missing file")
    func usage() throws {
        let none = try Binary.run(["explain"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("gesturemap explain: give the recording to explain, as in: gesturemap explain swipe.jsonl --rules rules.lua"), "\(none.stderr)")
        let two = try Binary.run(["explain", "a.jsonl", "b.jsonl"])
        #expect(two.status == 64)
        #expect(two.stderr.hasPrefix("gesturemap explain: explain takes one input, not 2"), "\(two.stderr)")
        let missing = try Binary.run(["explain", "/nonexistent/x.jsonl"])
        #expect(missing.status == 66, "\(missing.stderr)")
    }

    @Test("--trace=json: one JSON object a line on stderr; another value is a usage error")
    func traceJSON() throws {
        let synth = try Binary.run(["synth", "drag", "--seed", "3"])
        let input = try Binary.temporaryFile("drag.jsonl", synth.stdout)
        let rules = try Binary.temporaryFile("rules.lua", Self.pager)
        let result = try Binary.run(["run", "--rules", rules.path, input.path, "--trace=json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let swipe = try #require(objects.first { $0["kind"] as? String == "swipe" && $0["to"] as? String == "failed" })
        #expect(swipe["type"] as? String == "transition")
        #expect(swipe["cause"] as? String == "lifted_too_slow")
        #expect((swipe["measurement"] as? [String: Any])?["key"] as? String == "swipe_min_speed")
        let bad = try Binary.run(["run", "--rules", rules.path, input.path, "--trace=xml"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("gesturemap run: --trace takes one of text, json, not \"xml\""), "\(bad.stderr)")
    }
}
