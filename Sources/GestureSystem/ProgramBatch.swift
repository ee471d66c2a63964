import Glibc

/// Programs run to read what they print, as `doctor` asks a desktop its
/// version or the service manager its state: started at once and read side
/// by side under one deadline that all of them share, so one that hangs
/// costs the deadline once, not once per program. No shell; stdin and stderr
/// /dev/null; each in a process group of its own. A program counts as done
/// when it has closed its output and exited; at the deadline every one not
/// done is killed with all it started, and reaped.
public final class ProgramBatch {
    /// Names one started program, for `result`.
    public struct Ticket: Hashable, Sendable {
        fileprivate let index: Int
    }

    /// On the monotonic clock.
    public let deadline: Double
    /// The bytes of output kept per program; the rest is read and dropped.
    public let limit: Int
    private var programs: [StartedProgram] = []
    /// How long a killed group is given to go before it is left to init.
    static let killGrace = 0.5

    public init(deadline: Double, limit: Int = 1 << 20) {
        self.deadline = deadline
        self.limit = limit
    }

    deinit {
        for program in programs where !program.isDone { program.kill() }
    }

    /// Starts `argv` now. Nil when it cannot start (not installed).
    public func start(_ argv: [String], environment: [String: String]? = nil) -> Ticket? {
        guard let program = StartedProgram(argv, environment: environment) else { return nil }
        programs.append(program)
        return Ticket(index: programs.count - 1)
    }

    /// What the program printed and how it ended, once it is done or the
    /// deadline has passed (then it and every other program not done are
    /// killed). The others' output is read meanwhile, so none stalls on a full pipe.
    public func result(_ ticket: Ticket) -> ProgramOutput.Result {
        let program = programs[ticket.index]
        while !program.isDone {
            let open = programs.filter { !$0.isDone }
            for p in open { p.take(limit: limit) }
            if program.isDone { break }
            let waiting = open.filter { !$0.isDone }
            guard ChildProcess.waitForExit(of: waiting.map(\.child), or: waiting.compactMap(\.output), until: deadline) else {
                for p in programs where !p.isDone { p.kill() }
                break
            }
        }
        return program.result
    }
}

/// One program of a batch: its output pipe until it ends, and the child.
private final class StartedProgram {
    let child: ChildProcess
    /// The pipe's reading end, nil once it ended.
    private(set) var output: Int32?
    private var bytes: [UInt8] = []
    private var killed = false

    var isDone: Bool { output == nil && child.isReaped }

    var result: ProgramOutput.Result {
        ProgramOutput.Result(status: killed ? nil : child.exitCode, output: String(decoding: bytes, as: UTF8.self), timedOut: killed)
    }

    init?(_ argv: [String], environment: [String: String]?) {
        guard let program = argv.first, !program.isEmpty else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // Neither end may leak into the program (or another started meanwhile).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let pid = StartedProgram.spawn(program, argv, environment: environment, output: ends[1])
        close(ends[1])
        guard let pid else {
            close(ends[0])
            return nil
        }
        child = ChildProcess(pid: pid)
        output = ends[0]
    }

    deinit {
        if let output { close(output) }
    }

    /// Reads what is there without waiting, keeping `limit` bytes; closes the pipe at its end.
    func take(limit: Int) {
        child.reap()
        guard let fd = output else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            guard n > 0 else {
                close(fd)
                output = nil
                return
            }
            if bytes.count < limit { bytes += buffer[0..<min(n, limit - bytes.count)] }
        }
    }

    /// The deadline passed: the group is killed and the child reaped.
    func kill() {
        killed = true
        child.kill(grace: ProgramBatch.killGrace)
        if let output { close(output) }
        output = nil
    }

    private static func spawn(_ program: String, _ argv: [String], environment: [String: String]?, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so the deadline takes whatever it started too.
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
        return started == 0 ? pid : nil
    }
}
