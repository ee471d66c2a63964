#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Reloads asked for without pause (SIGHUP after SIGHUP, or a rule that
/// touches its own file) of a rules file that takes long to load: each used
/// to reload at once, back to back, and the loop did little else.
@Suite("Reload storms", .serialized)
struct ReloadStormTests {
    /// About a third of a second of loading, almost none of it Lua instructions.
    static let slowRules = """
    for i = 1, 100 do local s = ("x"):rep(1000000) end
    on("tap", function(g) emit("tap") end)
    """

    @Test("SIGHUP for four seconds reloads a slow rules file a few times, not over and over, and says why once")
    func signalStorm() throws {
        let rules = try Binary.temporaryFile("slow.lua", Self.slowRules)
        let run = try LiveRun(["run", "--no-watch", "--rules", rules.path])
        run.send(#"{"t":1,"ev":"down","id":1,"x":300,"y":300}"#)
        run.send(#"{"t":1.05,"ev":"up","id":1}"#)
        #expect(run.wait(upTo: 30) { out, _ in out.contains(#""action":"tap""#) })
        let end = Date().addingTimeInterval(4)
        while Date() < end {
            run.hangUp()
            run.wait(upTo: 0.02) { _, _ in false }
        }
        // What was asked for during the storm still happens, once, after it.
        #expect(run.wait(upTo: 60) { _, err in err.components(separatedBy: "reloaded \(rules.path)").count >= 2 })
        run.wait(upTo: 0.5) { _, _ in false }
        let reloads = run.stderr.components(separatedBy: "reloaded \(rules.path) (SIGHUP)").count - 1
        let loads = reloads + 1
        // Back to back, four seconds of reloads of a third of a second each were about twelve.
        #expect(reloads >= 1 && reloads <= 4, "\(reloads) reloads: \(run.stderr)")
        #expect(run.stderr.contains("the next reload waits"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "so that reloads take at most a tenth of the time (said once)").count == 2, "\(run.stderr)")
        run.send(#"{"t":2,"ev":"down","id":2,"x":300,"y":300}"#)
        run.send(#"{"t":2.05,"ev":"up","id":2}"#)
        #expect(run.wait(upTo: 30) { out, _ in out.components(separatedBy: #""action":"tap""#).count == 3 }, "\(loads) loads")
        #expect(run.finish() == 0)
    }

    @Test("a rules file rewritten in place without pause while both cores are busy: no reload runs an empty read, and every tap is answered")
    func rewriteStormUnderLoad() throws {
        let text = "on(\"tap\", function(g) emit(\"tap\") end)\n"
        let rules = try Binary.temporaryFile("storm.lua", text)
        let busy = try (0..<2).map { _ in try BusyLoop() }
        defer { for loop in busy { loop.stop() } }
        // Truncated and written again as fast as it goes, from before the run starts:
        // empty between the two, often when the run reads it.
        let storm = RewriteStorm(path: rules.path, text: text, seconds: 5)
        let run = try LiveRun(["run", "--rules", rules.path])
        var sent: [String] = []
        for i in 0..<9 {
            let t = 1 + Double(i) / 2
            run.send(#"{"t":\#(t),"ev":"down","id":1,"x":300,"y":300}"#)
            run.send(#"{"t":\#(t + 0.05),"ev":"up","id":1}"#)
            sent.append(#""t":\#(t + 0.05)}"#)
            // A person's pace: a tap every half second.
            run.wait(upTo: 0.5) { _, _ in false }
        }
        storm.finish()
        // The run may start before the file has any content: every tap after the first is answered.
        #expect(run.wait(upTo: 30) { out, _ in sent.dropFirst().allSatisfy { out.contains($0) } }, "stdout: \(run.stdout)\nstderr: \(run.stderr)\nrewrites: \(storm.rewrites)")
        #expect(!run.stderr.contains("): 0 rules"), "\(run.stderr)")
        // An empty read is said once, and again only after rules loaded since.
        let empties = run.stderr.components(separatedBy: "the file is empty (still being written?)").count - 1
        let loads = run.stderr.components(separatedBy: "reloaded \(rules.path)").count - 1
        #expect(empties <= loads + 1, "\(run.stderr)")
        #expect(run.finish() == 0)
    }
}

/// A process that keeps a core busy until stopped.
private final class BusyLoop {
    let process = Process()

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try process.run()
    }

    /// SIGKILL: a test runner may start its children with SIGTERM ignored.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A thread that truncates a file and writes it again, over and over, for a while.
private final class RewriteStorm {
    private var thread: pthread_t?

    init(path: String, text: String, seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        let bytes = Array(text.utf8)
        job = Job(path: path, bytes: bytes, end: end)
        let box = Unmanaged.passRetained(job).toOpaque()
        var made = pthread_t()
        if pthread_create(&made, nil, { raw in
            guard let raw else { return nil }
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            // Job is only read here until finish() joins the thread.
            while Date() < job.end {
                let fd = open(job.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
                guard fd >= 0 else { break }
                _ = job.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                job.rewrites += 1
            }
            return nil
        }, box) == 0 {
            thread = made
        }
    }

    /// Waits for the storm to end.
    func finish() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private let job: Job
    /// How many times the file was written, once the storm is over.
    var rewrites: Int { job.rewrites }

    private final class Job {
        var rewrites = 0
        let path: String
        let bytes: [UInt8]
        let end: Date
        init(path: String, bytes: [UInt8], end: Date) {
            self.path = path
            self.bytes = bytes
            self.end = end
        }
    }
}

