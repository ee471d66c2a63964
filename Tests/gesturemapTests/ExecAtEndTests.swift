#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The rules' own programs at the end of the input: those with a timeout are
/// waited for up to it; those without run on, and the run ends anyway.
@Suite("the rules' programs when the input ends")
struct ExecAtEndTests {
    @Test("eight programs without a timeout hold every turn and a ninth waits: the run ends, says the ninth was not started, and leaves the eight running")
    func queueBehindLongRunners() throws {
        let folder = try Binary.temporaryDirectory()
        let groups = folder.appendingPathComponent("groups").path
        let rules = folder.appendingPathComponent("rules.lua")
        try """
            on("tap", function(g)
              for i = 1, 9 do exec({ "/bin/sh", "-c", "echo $$ >> '\(groups)'; exec sleep 600" }) end
            end)
            """.write(to: rules, atomically: true, encoding: .utf8)
        let tap = try Binary.run(["synth", "tap", "--seed", "3"])
        let input = try Binary.temporaryFile("tap.jsonl", tap.stdout)
        let (result, hung) = try BoundedRun.run(["run", "--rules", rules.path, input.path], killAfter: 20)
        // The programs write their pids on their own time, after the run may have ended: wait for eight.
        func written() -> [pid_t] { ((try? String(contentsOfFile: groups, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) } }
        var started = written()
        let patience = Date().addingTimeInterval(10)
        while started.count < 8, Date() < patience {
            usleep(10_000)
            started = written()
        }
        defer { for group in written() { kill(-group, SIGKILL) } }
        #expect(!hung, "the run did not end within 20 s: it waited for programs that never end")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 program still waiting for a turn when the input ended was not started: 8 programs without a timeout hold every turn (first: \"/bin/sh\" from \(rules.path):2)\n"), "\(result.stderr)")
        #expect(started.count == 8)
        #expect(started.allSatisfy { kill(-$0, 0) == 0 }, "a program without a timeout is the user's: it runs on")
    }
}
