#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureActions
import GestureCore
import GestureSystem
import Testing

@Suite("Running programs", .serialized)
struct ProcessLauncherTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-launch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Waits (briefly, for a child) until `path` exists with content.
    static func contents(_ path: String) -> String? {
        for _ in 0..<400 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty { return text }
            usleep(5000)
        }
        return nil
    }

    @Test("arguments reach the program verbatim: spaces, ; and $HOME are not a shell's")
    func verbatimArguments() throws {
        let out = try Self.scratch().appendingPathComponent("args").path
        let launcher = ProcessLauncher()
        #expect(throws: Never.self) {
            try launcher.launch(.init(argv: ["/bin/sh", "-c", "printf '%s|' \"$@\" > \"$0\"", out, "a b", "x;y", "$HOME"], origin: "rules.lua:1"))
        }
        #expect(Self.contents(out) == "a b|x;y|$HOME|")
        launcher.finish()
    }

    @Test("the gesture and the rule's variables reach the program's environment")
    func environment() throws {
        let out = try Self.scratch().appendingPathComponent("env").path
        let launcher = ProcessLauncher()
        let gesture = GestureEvent(kind: .swipe, phase: .ended, fingers: 2, direction: .left, time: 1.5)
        var env = gestureEnvironment(gesture, device: "Panel")
        env["PAGE"] = "3"
        try launcher.launch(.init(argv: ["/bin/sh", "-c", "echo \"$GESTURE_KIND $GESTURE_FINGERS $GESTURE_DIRECTION $GESTURE_DEVICE $PAGE\" > \"$0\"", out], environment: env, origin: "r"))
        #expect(Self.contents(out) == "swipe 2 left Panel 3\n")
        launcher.finish()
    }

    @Test("a working directory is used, and a missing one is named")
    func directory() throws {
        let dir = try Self.scratch()
        let launcher = ProcessLauncher()
        try launcher.launch(.init(argv: ["/bin/sh", "-c", "pwd > here"], directory: dir.path, origin: "r"))
        #expect(Self.contents(dir.appendingPathComponent("here").path) == dir.path + "\n")
        let missing = Self.failure(launcher, .init(argv: ["true"], directory: "/nonexistent/dir", origin: "r"))
        #expect(missing == .noWorkingDirectory(program: "true", directory: "/nonexistent/dir"))
        #expect(missing?.description == "cannot run \"true\": its working directory /nonexistent/dir does not exist")
        launcher.finish()
    }

    @Test("a program that does not exist is reported by name")
    func missingProgram() {
        let launcher = ProcessLauncher()
        let onPath = Self.failure(launcher, .init(argv: ["nosuchprogram-gesturemap"], origin: "r"))
        #expect(onPath == .notFound(program: "nosuchprogram-gesturemap", onPath: true))
        #expect(onPath?.description == "cannot run \"nosuchprogram-gesturemap\": no such program on PATH")
        let byPath = Self.failure(launcher, .init(argv: ["/no/such/path"], origin: "r"))
        #expect(byPath == .notFound(program: "/no/such/path", onPath: false))
        #expect(byPath?.description == "cannot run \"/no/such/path\": no such program")
        #expect(launcher.runningCount == 0)
    }

    @Test("a timeout kills the child's whole process group, and nothing is left behind")
    func timeout() throws {
        let pidFile = try Self.scratch().appendingPathComponent("pids").path
        let launcher = ProcessLauncher()
        var messages: [String] = []
        launcher.report = { messages.append($0) }
        // The shell starts a grandchild: both must go.
        try launcher.launch(.init(argv: ["/bin/sh", "-c", "sleep 5 & echo $$ $! > \"$0\"; wait", pidFile], timeout: 0.2, origin: "rules.lua:4"))
        let pids = try #require(Self.contents(pidFile)).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
        #expect(pids.count == 2)
        let started = MonotonicClock.now()
        launcher.finish()
        #expect(MonotonicClock.now() - started < 2)
        #expect(launcher.runningCount == 0)
        #expect(messages == ["rules.lua:4: \"/bin/sh\" ran past its timeout and was stopped"])
        for _ in 0..<100 where pids.contains(where: Self.alive) { usleep(10000) }
        for pid in pids { #expect(!Self.alive(pid), "process \(pid) is still there") }
    }

    /// What `launch` threw, or nil when the request ran or waits.
    static func failure(_ launcher: ProcessLauncher, _ request: ProcessLauncher.Request) -> LaunchError? {
        do {
            try launcher.launch(request)
            return nil
        } catch {
            return error
        }
    }

    /// Running or sleeping; a zombie waiting for init to reap it is gone.
    static func alive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    @Test("beyond the concurrency cap requests wait; beyond the queue they are dropped, with a message")
    func cap() {
        let launcher = ProcessLauncher(maxRunning: 2, maxQueued: 1)
        var messages: [String] = []
        launcher.report = { messages.append($0) }
        for i in 0..<4 {
            #expect(Self.failure(launcher, .init(argv: ["sleep", "0.3"], timeout: 2, origin: "rules.lua:\(i)")) == nil)
        }
        #expect(launcher.runningCount == 2)
        #expect(launcher.queuedCount == 1)
        #expect(messages == ["rules.lua:3: exec queue full (2 running, 1 waiting); dropped \"sleep\""])
        launcher.finish()
        #expect(launcher.runningCount == 0)
        #expect(launcher.queuedCount == 0)
    }

    @Test("the end of the input: a program without a timeout holding every turn is not waited for, and what queued behind it is not started, with a message")
    func finishBehindLongRunner() throws {
        let groupFile = try Self.scratch().appendingPathComponent("group").path
        let launcher = ProcessLauncher(maxRunning: 1, maxQueued: 4)
        var messages: [String] = []
        launcher.report = { messages.append($0) }
        try launcher.launch(.init(argv: ["/bin/sh", "-c", "echo $$ > \"$0\"; exec sleep 600", groupFile], origin: "rules.lua:1"))
        try launcher.launch(.init(argv: ["true"], timeout: 5, origin: "rules.lua:2"))
        let group = try #require(Self.contents(groupFile).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        defer { kill(-group, SIGKILL) }
        launcher.finish()
        #expect(messages == ["1 program still waiting for a turn when the input ended was not started: 1 program without a timeout holds every turn (first: \"true\" from rules.lua:2)"])
        #expect(launcher.queuedCount == 0)
        #expect(launcher.runningCount == 1)
        #expect(Self.alive(group), "a program without a timeout runs on")
    }

    @Test("the messages of programs that cannot run, word for word")
    func launchErrorTexts() {
        #expect(LaunchError.noProgram.description == "exec needs a program to run")
        #expect(LaunchError.permissionDenied(program: "./notes.txt").description == "cannot run \"./notes.txt\": permission denied")
        #expect(LaunchError.spawnFailed(program: "x", errno: E2BIG).description == "cannot run \"x\": Argument list too long")
        #expect(ProcessLauncherTests.failure(ProcessLauncher(), .init(argv: [""], origin: "r")) == .noProgram)
        // A file without execute permission for anyone: refused by the kernel, not found missing.
        #expect(ProcessLauncherTests.failure(ProcessLauncher(), .init(argv: ["/etc/passwd"], origin: "r")) == .permissionDenied(program: "/etc/passwd"))
    }
}
