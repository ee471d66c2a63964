import Glibc
import CContext
import GestureSystem

/// `--app-command CMD`: any desktop, through a helper that prints the focused
/// application's id, one line per change (optionally `id<TAB>title<TAB>pid`).
/// An empty line means nothing has the focus.
final class CommandBackend: AppBackend {
    let command: String
    private let child: ChildProcess
    private var phase: Phase
    private var lines = HelperLines()
    private var gauge = FloodGauge()
    /// Said once: the first line too long to be an id.
    private var notices: [String] = []
    private var toldOverlong = false
    private(set) var current: AppInfo?

    /// The helper's life as the loop sees it: it is never waited for.
    private enum Phase {
        case running(output: Int32)
        /// Its output ended, or it flooded: reaped when its exit descriptor
        /// says it has exited (or, without one, when looked at again at
        /// `nextLook`), and stopped (`signal`) if it lingers past its grace.
        case ending(since: Double, signal: Int32?, reason: String?, nextLook: Double)
        case ended
    }

    /// A helper whose output ended gets `grace` to exit, then SIGTERM and
    /// `termGrace` more, then SIGKILL.
    static let grace = 0.2
    static let termGrace = 1.0
    /// How often a helper that is ending is looked at, where the kernel gives
    /// no exit descriptor (before Linux 5.3).
    static let reapInterval = 0.02
    /// Closing waits this long after SIGTERM, then as long after SIGKILL.
    static let closeWait = 0.1
    /// One turn of the loop reads at most this much: the rest waits for the next.
    static let readPerTurn = 32 << 10

    var fd: Int32 {
        if case .running(let output) = phase { return output }
        return -1
    }

    var descriptors: [Int32] {
        switch phase {
        case .running(let output): return [output]
        case .ending: return child.exitDescriptor >= 0 ? [child.exitDescriptor] : []
        case .ended: return []
        }
    }

    init(command: String) throws(AppSourceLost) {
        self.command = command
        var pid: pid_t = 0
        var fd: Int32 = -1
        let result = gm_context_spawn_shell(command, &pid, &fd)
        guard result == 0 else { throw AppSourceLost("cannot run /bin/sh -c \(command): \(String(cString: strerror(result)))") }
        child = ChildProcess(pid: pid)
        phase = .running(output: fd)
    }

    deinit { close() }

    func handleReadable() throws(AppSourceLost) -> Bool {
        if case .ending = phase { return try reap(now: MonotonicClock.now()) }
        guard case .running(let output) = phase else { return false }
        // One read a turn: a helper that never stops printing cannot hold the loop.
        var buffer = [UInt8](repeating: 0, count: CommandBackend.readPerTurn)
        var n: Int
        repeat { n = read(output, &buffer, buffer.count) } while n < 0 && errno == EINTR
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            throw AppSourceLost("reading the command's output failed: \(String(cString: strerror(errno)))")
        }
        let now = MonotonicClock.now()
        if n == 0 {
            let changed = lines.finish().map(take) ?? false
            end(at: now, signal: nil, reason: nil)
            return try reap(now: now) || changed
        }
        if gauge.add(n, at: now) {
            let reason = "the command \"\(command)\" printed more than \(FloodGauge.limit >> 10) KB in a second (a focus helper prints one line per change); stopped it"
            end(at: now, signal: SIGTERM, reason: reason)
            return false
        }
        let fed = lines.feed(buffer[0..<n])
        if fed.overlong && !toldOverlong {
            toldOverlong = true
            notices.append("the command \"\(command)\" printed a line longer than \(HelperLines.longest >> 10) KB, which no application id is; ignored it (and any more such lines)")
        }
        return fed.line.map(take) ?? false
    }

    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    var deadline: Double? {
        guard case .ending(_, _, _, let nextLook) = phase else { return nil }
        return nextLook
    }

    func tick(now: Double) throws(AppSourceLost) -> Bool {
        try reap(now: now)
    }

    /// Closes the output; a signal, when given, goes to the command's process group.
    private func end(at now: Double, signal: Int32?, reason: String?) {
        if case .running(let output) = phase { Glibc.close(output) }
        if let signal { child.signalGroup(signal) }
        phase = .ending(since: now, signal: signal, reason: reason, nextLook: nextLook(now: now, since: now, signal: signal))
    }

    /// When to act next on a helper that is ending: when its grace runs out;
    /// without an exit descriptor, every `reapInterval` before that too.
    private func nextLook(now: Double, since: Double, signal: Int32?) -> Double {
        let escalation = since + (signal == nil ? CommandBackend.grace : CommandBackend.termGrace)
        return child.exitDescriptor >= 0 ? escalation : min(escalation, now + CommandBackend.reapInterval)
    }

    /// Takes the command's exit if it has come (never waiting for it), and
    /// stops it when it lingers; throws once it is gone, saying how it ended.
    private func reap(now: Double) throws(AppSourceLost) -> Bool {
        guard case .ending(let since, let signal, let reason, _) = phase else { return false }
        if child.reap() {
            phase = .ended
            if let reason { throw AppSourceLost(reason) }
            let how: String
            if let status = child.status {
                let stoppedByUs = signal != nil && status & 0x7f == signal
                how = stoppedByUs ? "closed its output but did not exit; stopped it" : CommandBackend.describe(status)
            } else {
                how = "has stopped"
            }
            throw AppSourceLost("the command \"\(command)\" \(how)")
        }
        phase = .ending(since: since, signal: signal, reason: reason, nextLook: nextLook(now: now, since: since, signal: signal))
        switch signal {
        case nil where now >= since + CommandBackend.grace:
            child.signalGroup(SIGTERM)
            phase = .ending(since: now, signal: SIGTERM, reason: reason, nextLook: nextLook(now: now, since: now, signal: SIGTERM))
        case SIGTERM? where now >= since + CommandBackend.termGrace:
            child.signalGroup(SIGKILL)
            phase = .ending(since: now, signal: SIGKILL, reason: reason, nextLook: nextLook(now: now, since: now, signal: SIGKILL))
        case SIGKILL? where now >= since + CommandBackend.termGrace:
            // Unkillable (stuck in the kernel): left to init once gesturemap exits.
            phase = .ended
            throw AppSourceLost(reason ?? "the command \"\(command)\" closed its output but does not exit, even on SIGKILL")
        default:
            break
        }
        return false
    }

    private func take(_ line: String) -> Bool {
        let app = CommandBackend.parse(line)
        guard app != current else { return false }
        current = app
        return true
    }

    /// `id`, `id<TAB>title` or `id<TAB>title<TAB>pid`; blank: nothing focused.
    static func parse(_ line: String) -> AppInfo? {
        var text = Substring(line)
        if text.hasSuffix("\r") { text = text.dropLast() }
        let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: " ")
        }
        guard let id = fields.first, !id.isEmpty else { return nil }
        let title = fields.count > 1 ? fields[1] : ""
        let pid = fields.count > 2 ? Int(fields[2]).flatMap { $0 > 0 ? $0 : nil } : nil
        return AppInfo(id: id, title: title, pid: pid)
    }

    func windows() -> [WindowInfo] { current.map { [WindowInfo(app: $0, focused: true)] } ?? [] }

    /// The run is ending (or the source is dropped): the command's process
    /// group is stopped, waiting on its exit at most `closeWait` after
    /// SIGTERM and as long after SIGKILL.
    func close() {
        switch phase {
        case .ended: return
        case .running(let output): Glibc.close(output)
        case .ending: break
        }
        phase = .ended
        child.stop(grace: CommandBackend.closeWait)
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}

/// Bytes per second from a helper: past `limit`, it is flooding.
struct FloodGauge {
    static let limit = 256 << 10
    private var windowStart = -Double.infinity
    private var bytes = 0

    /// Counts `n` bytes at `now`; true when this second's total passed the limit.
    mutating func add(_ n: Int, at now: Double) -> Bool {
        if now - windowStart >= 1 {
            windowStart = now
            bytes = 0
        }
        bytes += n
        return bytes > FloodGauge.limit
    }
}
