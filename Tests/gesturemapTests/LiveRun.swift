#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `gesturemap` running with live pipes: send lines, wait (with a limit) for
/// output, as a person at a terminal would.
final class LiveRun {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var outText = ""
    private var errText = ""

    /// `stdin`: the child's standard input instead of a pipe this side writes
    /// (`.nullDevice`, as systemd gives a service). `environment`: the child's
    /// whole environment, instead of this process's. `command`: what runs the
    /// binary (`setpriv ...`), before its own path.
    init(_ arguments: [String], stdin: FileHandle? = nil, environment: [String: String]? = nil,
         command: [String] = [], executable: String = Binary.path) throws {
        if let first = command.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(command.dropFirst()) + [executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        process.currentDirectoryURL = Binary.packageRoot
        process.standardInput = stdin ?? input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Stops it with SIGTERM (SIGKILL after `grace` s) and reads what is left.
    func terminate(grace: Double = 10) -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        wait(upTo: grace) { _, _ in !self.process.isRunning }
        if process.isRunning { signal(SIGKILL) }
        process.waitUntilExit()
        wait(upTo: 0.2) { _, _ in false }
        return process.terminationStatus
    }

    /// The non-empty lines written to stdout so far.
    var outputLines: [String] { outText.split(separator: "\n").map(String.init) }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func hangUp() { kill(process.processIdentifier, SIGHUP) }

    /// Reads whatever both pipes hold, waiting up to `timeout` s for `predicate`.
    @discardableResult
    func wait(upTo timeout: Double = 5, until predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate(outText, errText) { return true }
            var fds = [pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            if fds[0].revents != 0 {
                let n = read(fds[0].fd, &buffer, buffer.count)
                if n > 0 { outText += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
            if fds[1].revents != 0 {
                let n = read(fds[1].fd, &buffer, buffer.count)
                if n > 0 { errText += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
        }
        return predicate(outText, errText)
    }

    var stdout: String { outText }
    var stderr: String { errText }

    /// Closes stdin and waits for the exit status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        wait(upTo: 5) { _, _ in !self.process.isRunning }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
