import Foundation
import Testing

/// `gesturemap test`: golden tests for rules, through the real executable.
@Suite("gesturemap test", .serialized)
struct GoldenTestCommandTests {
    /// A folder with two recorded cases (one of them a slow drag that must fire
    /// nothing) and no expectations yet.
    private func caseFolder() throws -> URL {
        let dir = try Binary.temporaryFile("placeholder", "").deletingLastPathComponent().appendingPathComponent("cases")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let swipe = try Binary.run(["synth", "two-finger swipe left", "two-finger swipe left", "--seed", "3"])
        try swipe.stdout.write(to: dir.appendingPathComponent("two-left.jsonl"), atomically: true, encoding: .utf8)
        var drag = "{\"t\":0,\"ev\":\"down\",\"id\":1,\"x\":100,\"y\":100}\n"
        for i in 1...60 { drag += "{\"t\":\(Double(i) * 0.05),\"ev\":\"move\",\"id\":1,\"x\":\(100 - i),\"y\":100}\n" }
        drag += "{\"t\":3.05,\"ev\":\"up\",\"id\":1}\n"
        try drag.write(to: dir.appendingPathComponent("slow-drag.jsonl"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test("without expectations every case fails and shows its output; --update keeps it; then all pass")
    func updateRoundTrip() throws {
        let dir = try caseFolder()
        let first = try Binary.run(["test", "examples/pager.lua", dir.path])
        #expect(first.status == 1)
        #expect(first.errorLines.contains("FAIL  \(dir.path)/two-left.jsonl: no expectations in \(dir.path)/two-left.expected; run with --update to keep this output as them:"))
        #expect(first.errorLines.last == "0 passed, 2 failed")
        #expect(first.stdout.isEmpty)

        let update = try Binary.run(["test", "examples/pager.lua", dir.path, "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.errorLines.contains("updated  \(dir.path)/slow-drag.expected (0 lines)"))
        let kept = try String(contentsOf: dir.appendingPathComponent("two-left.expected"), encoding: .utf8)
        let pages = kept.split(separator: "\n").compactMap { Binary.json(String($0))?["page"] as? Int }
        #expect(pages == [2, 3])

        let again = try Binary.run(["test", "examples/pager.lua", dir.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.errorLines == [
            "pass  \(dir.path)/slow-drag.jsonl",
            "pass  \(dir.path)/two-left.jsonl",
            "2 passed, 0 failed",
        ])
    }

    @Test("a wrong expectation fails with exit 1 and a diff; reordered keys and t within 1 ms still pass")
    func wrongExpectation() throws {
        let dir = try caseFolder()
        _ = try Binary.run(["test", "examples/pager.lua", dir.path, "--update"])
        let expectedURL = dir.appendingPathComponent("two-left.expected")
        let lines = try String(contentsOf: expectedURL, encoding: .utf8).split(separator: "\n").map(String.init)
        guard lines.count == 2, let first = Binary.json(lines[0]), let t = first["t"] as? Double else {
            Issue.record("unexpected expectations: \(lines)")
            return
        }
        // Same meaning, other spelling: passes.
        let respelled = "{\"page\": 2, \"t\": \(t + 0.0008), \"action\": \"next_page\"}\n" + lines[1] + "\n"
        try respelled.write(to: expectedURL, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["test", "examples/pager.lua", dir.appendingPathComponent("two-left.jsonl").path]).status == 0)

        // A different page and a missing line: fails, with both shown.
        try "{\"action\":\"next_page\",\"t\":\(t),\"page\":5}\n".write(to: expectedURL, atomically: true, encoding: .utf8)
        let result = try Binary.run(["test", "examples/pager.lua", dir.path])
        #expect(result.status == 1)
        let diff = result.errorLines
        #expect(diff.contains("FAIL  \(dir.path)/two-left.jsonl: the output differs from \(dir.path)/two-left.expected (- expected, + actual):"))
        #expect(diff.contains { $0.hasPrefix("    - ") && $0.contains("\"page\":5") })
        #expect(diff.filter { $0.hasPrefix("    + ") }.count == 2)
        #expect(diff.last == "1 passed, 1 failed")
    }

    @Test("key() and exec() in a test print what they would do, and nothing runs")
    func dryRun() throws {
        let dir = try caseFolder()
        let marker = dir.appendingPathComponent("ran")
        let rules = try Binary.temporaryFile("keys.lua", """
            on("two-finger swipe left", function(g) key("ctrl+Right"); exec({ "touch", "\(marker.path)" }) end)
            """)
        let update = try Binary.run(["test", rules.path, dir.appendingPathComponent("two-left.jsonl").path, "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        let kept = try String(contentsOf: dir.appendingPathComponent("two-left.expected"), encoding: .utf8)
        let actions = kept.split(separator: "\n").compactMap { Binary.json(String($0))?["action"] as? String }
        #expect(actions == ["key", "key", "key", "key", "exec", "key", "key", "key", "key", "exec"])
    }

    @Test("rules that do not load stop the run before any case, with exit 1")
    func brokenRules() throws {
        let dir = try caseFolder()
        let rules = try Binary.temporaryFile("broken.lua", "on(\"sideways\", function() end)\n")
        let result = try Binary.run(["test", rules.path, dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.lua:1:"))
        #expect(result.errorLines.last?.hasPrefix("gesturemap test: the rules did not load, so no case ran") == true)
    }

    @Test("usage: a missing case, an orphan expectation, no cases at all")
    func usage() throws {
        let dir = try caseFolder()
        try "".write(to: dir.appendingPathComponent("orphan.expected"), atomically: true, encoding: .utf8)
        let orphan = try Binary.run(["test", "examples/pager.lua", dir.path, "--update"])
        #expect(orphan.status == 1)
        #expect(orphan.errorLines.contains("gesturemap test: \(dir.path)/orphan.expected: no recording beside it named orphan.*"))

        let missing = try Binary.run(["test", "examples/pager.lua", "/nonexistent/cases"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.first == "gesturemap test: /nonexistent/cases: no such file or folder")

        let none = try Binary.run(["test", "examples/pager.lua"])
        #expect(none.status == 64)
        #expect(none.errorLines.first == "gesturemap test: give the cases to run, as in: gesturemap test examples/pager.lua cases/ (a case is a recording such as NAME.jsonl with NAME.expected beside it)")
    }
}
