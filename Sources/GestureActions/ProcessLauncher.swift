import Glibc
import CSpawn
import GestureCore
import GestureSystem

/// Runs rule programs without a shell and without ever blocking the event loop:
/// each child gets its own process group (a timeout kills all it started), its
/// stdout goes to stderr, and every child is reaped.
///
/// These are the user's programs, not questions gesturemap asks: a program
/// with no `timeout` may run as long as it likes (a browser the rule opened),
/// since nothing ever waits for it. One with a `timeout` is killed, with its
/// group, when that passes; at the end of the input only those are waited
/// for, each up to its timeout.
///
/// At most `maxRunning` children run at once; further requests wait in a queue
/// of `maxQueued`, and when that is full the new request is dropped, with a message.
public final class ProcessLauncher {
    public struct Request {
        public var argv: [String]
        public var environment: [String: String]
        public var directory: String?
        /// Seconds before the process group is killed; nil lets it run.
        public var timeout: Double?
        public var origin: String

        public init(argv: [String], environment: [String: String] = [:], directory: String? = nil, timeout: Double? = nil, origin: String) {
            self.argv = argv
            self.environment = environment
            self.directory = directory
            self.timeout = timeout
            self.origin = origin
        }
    }

    struct Child {
        var process: ChildProcess
        var name: String
        var deadline: Double?
        var origin: String
        /// When its group was killed for running past its timeout.
        var killedAt: Double?
    }

    /// How long a killed group is given to go before the end of the input
    /// stops waiting for it (one stuck in the kernel is left to init).
    static let killGrace = 1.0

    public let maxRunning: Int
    public let maxQueued: Int
    private var running: [Child] = []
    private var queue: [Request] = []
    /// Messages for people (a child that was killed, a dropped request).
    public var report: (String) -> Void = { _ in }

    public init(maxRunning: Int = 8, maxQueued: Int = 64) {
        self.maxRunning = maxRunning
        self.maxQueued = maxQueued
    }

    public var runningCount: Int { running.count }
    public var queuedCount: Int { queue.count }

    /// Starts the program now, or queues it. Throws when it cannot run at all;
    /// a request dropped because the queue is full is reported, not thrown.
    public func launch(_ request: Request) throws(LaunchError) {
        guard let program = request.argv.first, !program.isEmpty else { throw .noProgram }
        try Self.check(program: program, directory: request.directory)
        reap()
        if running.count >= maxRunning {
            guard queue.count < maxQueued else {
                report("\(request.origin): exec queue full (\(maxRunning) running, \(maxQueued) waiting); dropped \"\(program)\"")
                return
            }
            queue.append(request)
            return
        }
        try start(request)
    }

    private func start(_ request: Request) throws(LaunchError) {
        var env = ProcessEnvironment.current
        for (k, v) in request.environment { env[k] = v }
        let argv = request.argv.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for a in argv { free(a) }
            for e in envp { free(e) }
        }
        var pid: pid_t = 0
        let err = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in
                withOptionalCString(request.directory) { dir in gm_spawn(a.baseAddress, e.baseAddress, dir, &pid) }
            }
        }
        let program = request.argv[0]
        guard err == 0 else { throw LaunchError(spawning: program, errno: err) }
        running.append(Child(process: ChildProcess(pid: pid), name: program, deadline: request.timeout.map { MonotonicClock.now() + $0 }, origin: request.origin))
    }

    /// Collects children that exited and starts queued requests in their place.
    public func reap() {
        running.removeAll { $0.process.reap() }
        while running.count < maxRunning, !queue.isEmpty {
            let request = queue.removeFirst()
            do {
                try start(request)
            } catch {
                report("\(request.origin): \(error)")
            }
        }
    }

    /// Kills the process groups of children past their timeout.
    public func enforceTimeouts(now: Double = MonotonicClock.now()) {
        for i in running.indices {
            if let deadline = running[i].deadline, deadline <= now, running[i].killedAt == nil {
                running[i].process.signalGroup(SIGKILL)
                running[i].killedAt = now
                report("\(running[i].origin): \"\(running[i].name)\" ran past its timeout and was stopped")
            }
        }
        reap()
    }

    /// The running children's exit descriptors (pidfds), for a loop to poll:
    /// each is readable once its child has exited.
    public var exitDescriptors: [Int32] { running.map(\.process.exitDescriptor).filter { $0 >= 0 } }

    /// Whether a running child has no exit descriptor (a kernel before 5.3):
    /// its exit is only seen by looking.
    public var needsLooking: Bool { running.contains { $0.process.exitDescriptor < 0 } }

    /// The earliest timeout of a running child, on the monotonic clock.
    public var nextDeadline: Double? { running.filter { $0.killedAt == nil }.compactMap(\.deadline).min() }

    /// End of input: waits for children that have a timeout, up to it (their
    /// exits wake the wait: nothing sleeps a fixed time). Children without one
    /// keep running on their own; requests still queued behind them when no
    /// child with a timeout is left are not started.
    public func finish() {
        while true {
            let now = MonotonicClock.now()
            enforceTimeouts(now: now)
            // A group killed past its timeout is waited for up to its grace.
            let waiting = running.filter { child in child.deadline != nil && child.killedAt.map { now < $0 + Self.killGrace } ?? true }
            guard let wake = waiting.map({ $0.killedAt.map { $0 + Self.killGrace } ?? $0.deadline ?? now }).min() else { break }
            _ = ChildProcess.waitForExit(of: waiting.map(\.process), or: [], until: wake)
        }
        if !queue.isEmpty {
            let waiting = queue.count == 1 ? "1 program still waiting for a turn when the input ended was" : "\(queue.count) programs still waiting for a turn when the input ended were"
            let holding = running.count == 1 ? "1 program without a timeout holds" : "\(running.count) programs without a timeout hold"
            report("\(waiting) not started: \(holding) every turn (first: \"\(queue[0].argv[0])\" from \(queue[0].origin))")
            queue.removeAll()
        }
    }

    /// A program that cannot start at all, found before forking.
    private static func check(program: String, directory: String?) throws(LaunchError) {
        guard let directory else { return }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .noWorkingDirectory(program: program, directory: directory)
        }
    }
}

@inline(__always)
func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}

/// The variables a child gets about the gesture that started it.
public func gestureEnvironment(_ e: GestureEvent, device: String?) -> [String: String] {
    var env: [String: String] = [
        // A Lua recognizer's gestures go by its name, as in g.kind.
        "GESTURE_KIND": e.kind == .custom ? (e.name ?? e.kind.rawValue) : e.kind.rawValue,
        "GESTURE_PHASE": e.phase.rawValue,
        "GESTURE_FINGERS": String(e.fingers),
        "GESTURE_T": String(e.time),
        "GESTURE_X": String(e.position.x),
        "GESTURE_Y": String(e.position.y),
        "GESTURE_DX": String(e.delta.x),
        "GESTURE_DY": String(e.delta.y),
    ]
    if let d = e.direction { env["GESTURE_DIRECTION"] = d.rawValue }
    if e.kind == .tap { env["GESTURE_TAPS"] = String(e.taps) }
    if let edge = e.edge { env["GESTURE_EDGE"] = edge.rawValue }
    if e.kind == .pinch { env["GESTURE_SCALE"] = String(e.scale) }
    if e.kind == .rotate { env["GESTURE_ROTATION"] = String(e.rotation) }
    if e.kind == .shape, let shape = e.name {
        env["GESTURE_SHAPE"] = shape
        env["GESTURE_SCORE"] = String(e.score)
    }
    if let device { env["GESTURE_DEVICE"] = device }
    return env
}
