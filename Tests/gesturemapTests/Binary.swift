import Foundation

/// Runs the built `gesturemap` executable, as a user's shell would.
enum Binary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Next to the test runner, where `swift test` builds it.
    static let path: String = {
        // The kernel suite runs the release build, as installed: under QEMU without
        // KVM the debug build is slow enough to change what libinput makes of
        // the touches a shared device forwards.
        if let given = ProcessInfo.processInfo.environment["GESTUREMAP_TEST_BINARY"], FileManager.default.isExecutableFile(atPath: given) {
            return given
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var dir = runner.deletingLastPathComponent()
        // The runner may be inside an .xctest bundle directory.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("gesturemap").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/gesturemap").path
    }()

    /// How to run as a user with no privileges: as root (CI), through
    /// setpriv as nobody, with no groups; as anyone else, as that user.
    static let unprivilegedPrefix: [String] = geteuid() == 0
        ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] : []

    /// `killAfter`: seconds after which a run that has not ended is killed
    /// (SIGKILL: `status` 9), for tests of what must not hang. `unprivileged`:
    /// run as a user root's powers do not reach (`unprivilegedPrefix`).
    static func run(_ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil,
                    environment: [String: String] = [:], terminalStdin: Bool = false, killAfter: Double? = nil,
                    unprivileged: Bool = false) throws -> Result {
        let prefix = unprivileged ? unprivilegedPrefix : []
        if terminalStdin {
            // Standard input that is a terminal, not a pipe: run under script(1).
            let command = (prefix + [path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command + " 2>&1", "/dev/null"]
            process.environment = env
            process.currentDirectoryURL = currentDirectory ?? packageRoot
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            return Result(status: process.terminationStatus, stdout: "", stderr: text)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.first ?? path)
        process.arguments = prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + [path] + arguments
        if !environment.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
        }
        process.currentDirectoryURL = currentDirectory ?? packageRoot
        // Standard input and error go through files, so no pipe can fill up and
        // block the child while this side waits on another.
        let errURL = try temporaryFile("stderr", "")
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? errHandle.close() }
        process.standardError = errHandle
        if let stdin {
            let inURL = try temporaryFile("stdin", "")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        if let killAfter {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) { [process] in
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `gesturemap synth PHRASES --seed N | gesturemap run ARGS`
    static func synthThenRun(_ phrases: [String], seed: Int, run arguments: [String]) throws -> Result {
        let synth = try run(["synth"] + phrases + ["--seed", String(seed)])
        guard synth.status == 0 else { return synth }
        return try run(["run"] + arguments, stdin: Data(synth.stdout.utf8))
    }

    /// A new empty directory of its own.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func temporaryFile(_ name: String, _ contents: String) throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
