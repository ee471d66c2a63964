import Foundation
import Testing

/// `gesturemap import` of fusuma files reads them as current fusuma (3.x)
/// does: each binding runs what fusuma runs, or nothing, with a warning
/// naming its line.
@Suite("import of fusuma files, class by class")
struct FusumaImportTests {
    func importing(_ text: String, _ options: [String] = []) throws -> Binary.Result {
        try Binary.run(["import", "--format", "fusuma"] + options + ["-"], stdin: Data(text.utf8))
    }

    func importing(bytes: [UInt8]) throws -> Binary.Result {
        try Binary.run(["import", "--format", "fusuma", "-"], stdin: Data(bytes))
    }

    func live(_ r: Binary.Result) -> [String] { r.lines.filter { $0.hasPrefix("on(") } }

    /// fusuma's YAMLDuplicationChecker compares the first document's keys as text and
    /// exits on a repeat; later documents are Ruby hashes, where the later key wins.
    @Test func aKeyRepeatedInTheFirstDocumentRefusesTheFile() throws {
        let r = try importing("swipe:\n  3:\n    left:\n      command: a\n  \"3\":\n    right:\n      command: b\n---\ncontext:\n  application: Firefox\nswipe:\n  4:\n    up:\n      command: c\n    up:\n      command: d\n")
        #expect(r.status == 65)
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "stdin:5: the key \"3\" is given twice (first at line 2); fusuma refuses a file whose first document repeats a key (\"Detect duplicate keys\") and runs none of it: remove one",
            "stdin:7: warning: swipe: 3: right: command: b: written commented out: fusuma refuses this file (line 5) and runs none of it",
            "stdin:15: warning: the key \"up\" is given twice (first at line 13); fusuma uses this later one, and so does import",
            "stdin:16: warning: swipe: 4: up: command: d: written commented out: fusuma refuses this file (line 5) and runs none of it",
        ])
        let later = try importing("swipe:\n  3:\n    left:\n      command: a\n---\nswipe:\n  4:\n    up:\n      command: c\n    up:\n      command: d\n")
        #expect(later.status == 0)
        #expect(live(later) == ["on(\"3-finger swipe left\", function(g) shell(\"a\") end)", "on(\"4-finger swipe up\", function(g) shell(\"d\") end)"])
    }

    @Test func aSyntaxErrorOrBytesThatAreNotUTF8ImportNothingLive() throws {
        let broken = try importing("swipe:\n  3:\n    left:\n      command: a\n  4: [\n")
        #expect(broken.status == 65)
        #expect(live(broken).isEmpty)
        #expect(broken.errorLines.last == "stdin:6: YAML: did not find expected node content while parsing a flow node; fusuma refuses the file and runs none of it, so nothing is imported live: fix the YAML here")
        let bytes = try importing(bytes: Array("swipe:\n  3:\n    left:\n      command: a\n    right:\n      command: b".utf8) + [0xFF, 0x0A])
        #expect(bytes.status == 65)
        #expect(live(bytes).isEmpty)
        #expect(bytes.errorLines.last == "stdin:6: YAML: bytes that are not UTF-8 (invalid leading UTF-8 octet); fusuma refuses the file and runs none of it, so nothing is imported live: fix the YAML here")
    }

    /// Psych resolves tags and types plain scalars: !!binary is the bytes it decodes to, 123 a number.
    @Test func aValueFusumaReadsAsOtherThanItsTextIsCommentedOut() throws {
        let r = try importing("swipe:\n  3:\n    left:\n      command: !!binary ZWNobyBoaQ==\n    right:\n      command: 123\n    up:\n      command: !!str 123\n    down:\n      sendkey: !!binary TEVGVENUUkwrVA==\n")
        #expect(r.status == 0)
        #expect(live(r) == ["on(\"3-finger swipe up\", function(g) shell(\"123\") end)"])
        #expect(r.errorLines == [
            "stdin:4: warning: swipe: 3: left: command: ZWNobyBoaQ==: written commented out: command: !!binary ZWNobyBoaQ==: fusuma runs the bytes it decodes to, not this text; decode it with base64 -d and write the command as text",
            "stdin:6: warning: swipe: 3: right: command: 123: written commented out: command: 123: fusuma's YAML reads this as a number, a boolean, a date or null, not as text, and runs nothing; quote it: command: '123'",
            "stdin:10: warning: swipe: 3: down: sendkey: TEVGVENUUkwrVA==: written commented out: sendkey: !!binary TEVGVENUUkwrVA==: fusuma runs the bytes it decodes to, not this text; decode it with base64 -d and write the keys as text",
        ])
    }

    /// fusuma 3.0 (commit aa46ae1) made pinch in the fingers moving together, as gesturemap has it.
    @Test func pinchesAreCurrentFusumas() throws {
        let yaml = "pinch:\n  2:\n    in:\n      command: together\n    out:\n      command: apart\n"
        let r = try importing(yaml)
        #expect(live(r) == ["on(\"2-finger pinch in\", function(g) shell(\"together\") end)", "on(\"2-finger pinch out\", function(g) shell(\"apart\") end)"])
        #expect(r.lines.contains("-- Pinches are read as fusuma 3 and later read them: pinch in is the fingers moving together, as in gesturemap. For a file written for fusuma 2, whose pinch in was the fingers moving apart, import it with --fusuma-version 2."))
        let rules = try Binary.temporaryFile("rules.lua", r.stdout)
        let pinched = try Binary.synthThenRun(["2-finger pinch in"], seed: 1, run: ["--rules", rules.path, "--dry-run", "--no-keyboards", "--app-source", "none"])
        #expect(pinched.lines.contains { $0.contains("\"together\"") }, "\(pinched.stdout)")
    }

    @Test func fusumaTwoReadsPinchesReversed() throws {
        let r = try importing("pinch:\n  2:\n    in:\n      command: apart\n", ["--fusuma-version", "2"])
        #expect(live(r) == ["on(\"2-finger pinch out\", function(g) shell(\"apart\") end)"])
        #expect(r.lines.contains("-- Pinches are read as fusuma 2 read them (--fusuma-version 2): its pinch in was the fingers moving apart, gesturemap's pinch out."))
        let usage = try importing("pinch:\n", ["--fusuma-version", "4"])
        #expect(usage.status == 64)
        #expect(usage.errorLines.first == "gesturemap import: --fusuma-version takes one of 2, 3, not \"4\"")
    }
}
