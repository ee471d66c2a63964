import Glibc

/// Runs a program to read what it prints, as `doctor` asks a desktop its
/// version or its config: no shell, stdin and stderr /dev/null, at most
/// `limit` bytes kept, killed at `timeout` seconds.
public enum ProgramOutput {
    public struct Result: Equatable, Sendable {
        /// The exit status, or nil when it was killed or did not exit normally.
        public var status: Int32?
        public var output: String
    }

    /// Nil when the program cannot be started (not installed).
    public static func run(_ argv: [String], environment: [String: String]? = nil, timeout: Double = 3, limit: Int = 1 << 20) -> Result? {
        guard let program = argv.first, !program.isEmpty else { return nil }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return nil }
        // Neither end may leak into the program (or another started meanwhile).
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so a timeout takes whatever it started too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for p in cArguments { free(p) } }
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] } ?? []
        defer { for p in cEnvironment { free(p) } }
        var pid: pid_t = 0
        let started: Int32 = cArguments.withUnsafeBufferPointer { args in
            guard let argvPointer = args.baseAddress else { return EINVAL }
            guard environment != nil else { return posix_spawnp(&pid, program, &actions, &attributes, argvPointer, environ) }
            return cEnvironment.withUnsafeBufferPointer { env in
                posix_spawnp(&pid, program, &actions, &attributes, argvPointer, env.baseAddress)
            }
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard started == 0 else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = MonotonicClock.now() + timeout
        var killed = false
        while true {
            let left = deadline - MonotonicClock.now()
            if left <= 0 {
                kill(-pid, SIGKILL)
                killed = true
                break
            }
            var p = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            if bytes.count < limit { bytes += buffer[0..<min(n, limit - bytes.count)] }
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let exited = raw & 0x7f == 0
        return Result(status: killed || !exited ? nil : (raw >> 8) & 0xff, output: String(decoding: bytes, as: UTF8.self))
    }
}
