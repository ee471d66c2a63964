#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureContext

/// Runs an AppTracker as the engine's loop would (poll its descriptors, then
/// handleReadable, tick at its timeouts) until `done` holds or `timeout` passes.
@discardableResult
func follow(_ tracker: AppTracker, upTo timeout: Double = 5, until done: () -> Bool) -> Bool {
    tracker.wait(upTo: timeout, until: done)
}

/// Lets the tracker take in whatever is still on its way, for `seconds`.
func settle(_ tracker: AppTracker, for seconds: Double = 0.3) {
    follow(tracker, upTo: seconds) { false }
}

/// A program started for a test, stopped (with its process group) at the end.
final class Child {
    let process = Process()
    private(set) var output = ""
    private let pipe = Pipe()

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = false,
         errorLog: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // An empty value removes the variable (sway takes an empty SWAYSOCK as a path).
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = captureOutput ? pipe : FileHandle.nullDevice
        if let errorLog, FileManager.default.createFile(atPath: errorLog, contents: nil),
           let handle = FileHandle(forWritingAtPath: errorLog) {
            process.standardError = handle
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func stop() {
        guard process.isRunning else { return }
        // Children may inherit a mask that blocks SIGTERM from the test
        // runner's thread; nothing here needs a graceful end.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Runs a command to its end: status and stdout.
@discardableResult
func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { return (-1, "") }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

func which(_ program: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin", "/sbin"] {
        let path = dir + "/" + program
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

func temporaryDirectory(_ name: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-\(name)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
