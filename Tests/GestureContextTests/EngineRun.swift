#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `gesturemap run` as it runs in a desktop session: gestures arrive through a
/// pipe while the focus changes, so the engine sees each change between gestures.
final class EngineRun {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private(set) var stdout = ""
    private(set) var stderr = ""

    /// Session variables are cleared first: only `environment` says which desktop runs.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: AppsCommandTests.binary)
        process.arguments = ["run"] + arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP",
                    "DBUS_SESSION_BUS_ADDRESS"] { env[key] = nil }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Reads both pipes until `done` holds, for up to `timeout` seconds.
    @discardableResult
    func wait(upTo timeout: Double = 10, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            guard Date() < deadline else { return false }
            var fds = [pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            if fds[0].revents != 0 {
                let n = read(fds[0].fd, &buffer, buffer.count)
                if n > 0 { stdout += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
            if fds[1].revents != 0 {
                let n = read(fds[1].fd, &buffer, buffer.count)
                if n > 0 { stderr += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
        }
        return true
    }

    /// Waits for the `count`-th time stderr says `text` (a focus line under -v).
    @discardableResult
    func waitForMessage(_ text: String, count: Int = 1) -> Bool {
        wait { self.stderr.components(separatedBy: text).count - 1 >= count }
    }

    /// Sends a gesture and waits for the line it makes.
    func gesture(_ ndjson: String) -> Bool {
        let before = lines.count
        send(ndjson)
        return wait { self.lines.count > before }
    }

    /// Closes stdin and waits for the exit status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        wait(upTo: 10) { !self.process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        wait(upTo: 0.2) { false }
        return process.terminationStatus
    }
}

/// One gesture as NDJSON (from `gesturemap synth`), and copies of it later on
/// the input's clock, so a stream of them keeps its time going forward.
enum Gestures {
    static func synth(_ phrase: String) -> String {
        run(AppsCommandTests.binary, ["synth", phrase, "--seed", "1"]).output
    }

    /// The events of `ndjson` (its device header only when `header`), every time `offset` s later.
    static func shifted(_ ndjson: String, by offset: Double, header: Bool) -> String {
        var out = ""
        for line in ndjson.split(separator: "\n") {
            guard var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
            if let t = object["t"] as? Double {
                object["t"] = ((t + offset) * 1e6).rounded() / 1e6
            } else if !header {
                continue
            }
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { continue }
            out += String(decoding: data, as: UTF8.self) + "\n"
        }
        return out
    }

    /// What `gesturemap run ARGS` prints for `ndjson` as a replay: the lines a
    /// live run must give exactly, when the same application has the focus.
    static func replay(_ ndjson: String, _ arguments: [String]) throws -> [String] {
        let file = try temporaryDirectory("replay").appendingPathComponent("gesture.ndjson")
        try ndjson.write(to: file, atomically: true, encoding: .utf8)
        return run(AppsCommandTests.binary, ["run"] + arguments + [file.path]).output.split(separator: "\n").map(String.init)
    }
}
