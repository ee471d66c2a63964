#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process started with posix_spawn and reaped with waitpid, its
/// output read through close-on-exec pipes. The kernel tests start many
/// long-running children side by side; Foundation's Process, which waits for
/// them through its run loop machinery, hung in the guest once several ran.
final class Child {
    let pid: pid_t
    private var outFD: Int32
    private var errFD: Int32
    private var outBytes: [UInt8] = []
    private var errBytes: [UInt8] = []
    /// The exit status, or 128 + the signal that ended it; nil while it runs.
    private(set) var status: Int32?

    /// `argv[0]` is a path. `stdin`: a file to read (default /dev/null).
    /// `environment`: the whole environment (default: this process's).
    init(_ argv: [String], stdin: String = "/dev/null", environment: [String: String]? = nil) throws {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        // pipe2 is not in Swift's Glibc; the kernel tests start children from one thread.
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw KernelTestError("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let input = open(stdin, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw KernelTestError("\(stdin): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Signals as a fresh process has them: the test runner's mask is not the child's.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, argv[0], &actions, &attributes, &cArgv, &cEnv)
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw KernelTestError("cannot start \(argv[0]): \(String(cString: strerror(result)))")
        }
        pid = child
        outFD = outPipe[0]
        errFD = errPipe[0]
        for fd in [outFD, errFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = reap(blocking: true) }
        if outFD >= 0 { close(outFD) }
        if errFD >= 0 { close(errFD) }
    }

    var stdout: String { drain(); return String(decoding: outBytes, as: UTF8.self) }
    var stderr: String { drain(); return String(decoding: errBytes, as: UTF8.self) }
    var outputLines: [String] { stdout.split(separator: "\n").map(String.init) }

    var isRunning: Bool {
        drain()
        return reap(blocking: false) == nil
    }

    func signal(_ number: Int32) {
        if status == nil { kill(pid, number) }
    }

    /// Reads output and checks `condition` until it holds, up to `timeout` s.
    @discardableResult
    func wait(upTo timeout: Double, until condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition(stdout, stderr) { return true }
            if Date() >= deadline { return false }
            var fds = [pollfd(fd: outFD, events: Int16(POLLIN), revents: 0), pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 50)
        }
    }

    /// Waits until its standard output has had nothing new for `quiet` s, up to `timeout` s.
    func waitForQuiet(_ quiet: Double, upTo timeout: Double) {
        var count = -1
        var since = Date()
        wait(upTo: timeout) { out, _ in
            let now = out.utf8.count
            if now != count {
                count = now
                since = Date()
                return false
            }
            return Date().timeIntervalSince(since) >= quiet
        }
    }

    /// Waits for it to end by itself, up to `timeout` s; its status, or nil.
    func waitForExit(upTo timeout: Double) -> Int32? {
        wait(upTo: timeout) { _, _ in !self.isRunning }
        return status
    }

    /// SIGTERM, then SIGKILL after `grace` s; the status.
    @discardableResult
    func terminate(grace: Double = 10) -> Int32 {
        signal(SIGTERM)
        if waitForExit(upTo: grace) == nil {
            signal(SIGKILL)
            _ = reap(blocking: true)
        }
        drain()
        return status ?? -1
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for (fd, isOut) in [(outFD, true), (errFD, false)] where fd >= 0 {
            while true {
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { break }
                if isOut { outBytes += buffer[0..<n] } else { errBytes += buffer[0..<n] }
            }
        }
    }

    private func reap(blocking: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
        guard r == pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: Swift has no macros.
        let signal = raw & 0x7F
        status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return status
    }
}
