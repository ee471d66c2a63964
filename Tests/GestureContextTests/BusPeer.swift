#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureContext
import Testing

/// Another program on the test bus (python3-dbus, a real libdbus connection):
/// the desktop's shell when it owns org.gnome.Shell or org.kde.KWin, a spoofer
/// when it owns nothing, a squatter when it owns gesturemap's name. It takes
/// one JSON command a line on stdin and answers each with one line.
final class BusPeer {
    static let python = "/usr/bin/python3"
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = ""
    /// The peer's unique name on the bus (":1.5").
    private(set) var uniqueName = ""

    /// scripts/dbus-peer.py, shared with scripts/bench-dbus.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/dbus-peer.py").path

    /// Connects to `bus` and takes `names` (none: a plain caller).
    init(_ bus: SessionBus, owning names: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: BusPeer.python),
              run(BusPeer.python, ["-c", "import dbus"]).status == 0 else {
            try Test.cancel("python3-dbus is not installed (apt-get install python3-dbus); scripts/test installs it")
        }
        process.executableURL = URL(fileURLWithPath: BusPeer.python)
        process.arguments = [BusPeer.script, bus.address] + names
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = nextLine(timeout: 10) ?? ""
        guard ready.hasPrefix("ready ") else { throw PeerFailed(what: "the bus peer did not start: \(ready)") }
        uniqueName = String(ready.dropFirst(6))
    }

    struct PeerFailed: Error { var what: String }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Sends one command; its answer comes from `nextLine`.
    func send(_ command: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: command) else { return }
        input.fileHandleForWriting.write(data + Data("\n".utf8))
    }

    /// Calls gesturemap's `member` with arguments of `signature` (`{"fd": 1}` passes a descriptor).
    func call(_ member: String, _ signature: String, _ arguments: [Any], count: Int = 1) {
        send(["op": "call", "member": member, "sig": signature, "args": arguments, "count": count])
    }

    /// Waits until org.gesturemap.Focus has an owner: what the extension's name watch does.
    func awaitGesturemap() {
        send(["op": "await"])
        _ = nextLine(timeout: 15)
    }

    /// The next answer, waiting up to `timeout` seconds while `meanwhile` runs
    /// (a tracker that must read the call for the answer to come).
    func nextLine(timeout: Double = 10, meanwhile: () -> Void = {}) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = output.fileHandleForReading.fileDescriptor
        while Date() < deadline {
            if let newline = buffer.firstIndex(of: "\n") {
                let line = String(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            meanwhile()
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &bytes, bytes.count)
            if n <= 0 { return nil }
            buffer += String(decoding: bytes[0..<n], as: UTF8.self)
        }
        return nil
    }

    /// The answer to the last command, reading `tracker` meanwhile.
    func answer(following tracker: AppTracker, timeout: Double = 10) -> String? {
        nextLine(timeout: timeout) { settle(tracker, for: 0.02) }
    }
}

/// The usual scene: a private bus, a peer owning the shell's name, and a
/// tracker on that bus whose messages are kept, ready once gesturemap has its name.
struct ShellSession {
    final class Log: @unchecked Sendable { var lines: [String] = [] }
    let bus: SessionBus
    let shell: BusPeer
    let tracker: AppTracker
    private let log: Log

    init(_ desktop: AppSourceName) throws {
        bus = try SessionBus()
        shell = try BusPeer(bus, owning: [desktop == .kde ? "org.kde.KWin" : "org.gnome.Shell"])
        let log = Log()
        self.log = log
        tracker = AppTracker(choice: .dbus(desktop: desktop, address: bus.address), report: { log.lines.append($0) })
        shell.awaitGesturemap()
    }

    var messages: [String] { log.lines }
}
