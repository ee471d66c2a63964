#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CContext

/// `--app-command CMD`: any desktop, through a helper that prints the focused
/// application's id, one line per change (optionally `id<TAB>title<TAB>pid`).
/// An empty line means nothing has the focus.
final class CommandBackend: AppBackend {
    let command: String
    private let pid: pid_t
    private let output: Int32
    private var pending: [UInt8] = []
    private var running = true
    private(set) var current: AppInfo?

    var fd: Int32 { output }

    init(command: String) throws(AppSourceLost) {
        self.command = command
        var pid: pid_t = 0
        var fd: Int32 = -1
        let result = gm_context_spawn_shell(command, &pid, &fd)
        guard result == 0 else { throw AppSourceLost("cannot run /bin/sh -c \(command): \(String(cString: strerror(result)))") }
        self.pid = pid
        output = fd
    }

    deinit {
        close()
        Glibc.close(output)
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let n = read(output, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return changed }
                throw AppSourceLost("reading the command's output failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                if !pending.isEmpty { changed = take(String(decoding: pending, as: UTF8.self)) || changed }
                pending.removeAll()
                let status = stop()
                throw AppSourceLost("the command \"\(command)\" \(status)")
            }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                changed = take(line) || changed
            }
            // A line longer than any id: keep the start, drop the rest.
            if pending.count > 64 << 10 { pending.removeAll() }
        }
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

    func close() { _ = stop() }

    /// Stops the command's process group and says how it ended.
    private func stop() -> String {
        guard running else { return "has stopped" }
        running = false
        var status: Int32 = 0
        // Its output ended: it is most likely exiting; give it a moment to.
        for _ in 0..<40 {
            if waitpid(pid, &status, WNOHANG) == pid { return CommandBackend.describe(status) }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        kill(-pid, SIGTERM)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return "closed its output"
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
