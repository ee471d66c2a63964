#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureSystem
import Testing

/// Programs read side by side under one deadline, and the children behind
/// them: killed with their groups at the deadline, always reaped.
@Suite("Programs asked under a deadline")
struct ProgramBatchTests {
    /// A script that records its process group in `groups`, closes its output and keeps running.
    static func hanging(_ groups: String) -> [String] {
        ["/bin/sh", "-c", "echo $$ >> '\(groups)'; exec >&-; sleep 600"]
    }

    static func living(inGroup group: pid_t) -> Bool {
        kill(-group, 0) == 0 && ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { name in
            guard let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    @Test("a program that prints and exits: its output and status")
    func answers() throws {
        let result = try #require(ProgramOutput.run(["/bin/sh", "-c", "echo sway version 1.9; exit 3"]))
        #expect(result == ProgramOutput.Result(status: 3, output: "sway version 1.9\n", timedOut: false))
    }

    @Test("a program not installed: nil")
    func missing() {
        #expect(ProgramOutput.run(["gesturemap-no-such-program"]) == nil)
    }

    @Test("output past the limit is read and dropped, so the program is not stalled")
    func limit() throws {
        let result = try #require(ProgramOutput.run(["/bin/sh", "-c", "yes | head -c 200000; echo done >&2"], limit: 10))
        #expect(result.output == "y\ny\ny\ny\ny\n")
        #expect(result.status == 0)
    }

    @Test("two programs that close their output and keep running: both stopped at the one deadline, their groups killed and reaped")
    func sharedDeadline() throws {
        let groups = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)").path
        let batch = ProgramBatch(deadline: MonotonicClock.now() + 0.5)
        let first = try #require(batch.start(Self.hanging(groups)))
        let answering = try #require(batch.start(["/bin/echo", "here"]))
        let second = try #require(batch.start(Self.hanging(groups)))
        #expect(batch.result(first).timedOut)
        #expect(batch.result(first).status == nil)
        // Finished before the deadline: its answer stands.
        #expect(batch.result(answering) == ProgramOutput.Result(status: 0, output: "here\n", timedOut: false))
        #expect(batch.result(second).timedOut)
        let started = ((try? String(contentsOfFile: groups, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        #expect(started.count == 2)
        for group in started {
            // The shells were reaped by the batch; their sleeps, killed with the group, go to init.
            var gone = !Self.living(inGroup: group)
            let until = Date().addingTimeInterval(2)
            while !gone && Date() < until {
                usleep(10_000)
                gone = !Self.living(inGroup: group)
            }
            #expect(gone, "group \(group) is still running")
            kill(-group, SIGKILL)
        }
    }

    @Test("a child's exit wakes the wait: reaped with its status")
    func childExit() throws {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("exit 7"), nil]
        defer { for a in argv { free(a) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
        let child = ChildProcess(pid: pid)
        #expect(child.wait(until: MonotonicClock.now() + 30))
        #expect(child.exitCode == 7)
        #expect(child.isReaped)
    }
}
