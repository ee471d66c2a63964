import Foundation
import Testing

/// `gesturemap serve --listen 127.0.0.1:0` running as its own process, the
/// built binary as a user starts it: its URL read from stderr, its stdout
/// (the rules' actions) read as it comes, its standard input a pipe.
final class ServeProcess {
    let process = Process()
    let port: UInt16
    let token: String
    private let errorFile: URL
    private let output = Pipe()
    let input = Pipe()
    private var outputText = ""

    /// Next to the test runner, where `swift build` puts it; GESTUREMAP_BINARY
    /// names another build (an older one, to see these tests fail on it).
    static let binary: String? = {
        if let named = ProcessInfo.processInfo.environment["GESTUREMAP_BINARY"] { return named }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("gesturemap").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = root.appendingPathComponent(".build/debug/gesturemap").path
        return FileManager.default.isExecutableFile(atPath: built) ? built : nil
    }()

    /// The binary, or the test cancelled, saying why.
    static func built() throws -> String {
        guard let binary else { try Test.cancel("the gesturemap binary is not built (swift build)") }
        return binary
    }

    /// Rules that say each tap, for the tests that tap from a page or from standard input.
    static let tapRules = "on(\"tap\", function(g) emit(\"tapped\", { device = g.device }) end)\n"

    static func temporaryFile(_ name: String, _ contents: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    init(_ arguments: [String]) throws {
        let binary = try Self.built()
        let rules = try Self.temporaryFile("taps.lua", Self.tapRules)
        errorFile = try Self.temporaryFile("stderr", "")
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--rules", rules.path] + arguments
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var found: (UInt16, String)?
        for _ in 0..<400 where found == nil && process.isRunning {
            let text = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"https?://127\.0\.0\.1:\d+/\?k=[0-9a-f]{32}"#, options: .regularExpression) {
                let url = text[range]
                let port = url.split(separator: ":")[2].split(separator: "/")[0]
                found = (UInt16(port) ?? 0, String(url.suffix(32)))
            } else {
                usleep(25_000)
            }
        }
        guard let found else {
            process.terminate()
            throw ServeDidNotStart(stderr: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
        }
        (port, token) = found
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFL, O_NONBLOCK)
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// What serve said on stderr so far.
    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// stderr's lines once `ready` holds for them, or those there are after `seconds`.
    func stderrLines(within seconds: Double, until ready: ([String]) -> Bool) -> [String] {
        let end = Date().addingTimeInterval(seconds)
        while true {
            let lines = stderrLines
            if ready(lines) || Date() >= end { return lines }
            usleep(10_000)
        }
    }

    /// The lines on stdout once there are `count`, or those there are after `seconds`.
    func stdoutLines(atLeast count: Int, within seconds: Double) -> [String] {
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { outputText += String(decoding: buffer[0..<n], as: UTF8.self) }
            let lines = outputText.split(separator: "\n").map(String.init)
            if lines.count >= count || Date() >= end { return lines }
            if n <= 0 { usleep(10_000) }
        }
    }

    /// The CPU time serve has used, user and system (s), from /proc.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Its open descriptors' numbers.
    var descriptors: Set<Int> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
        return Set(names.compactMap { Int($0) })
    }
}

struct ServeDidNotStart: Error {
    var stderr: String
}
