import Foundation
import Testing

/// The progress bar, seen through a real pseudo-terminal (script(1)) and through a pipe.
@Suite("Progress bar", .serialized)
struct ProgressBarTests {
    /// A recording big enough to take a while in a debug build, with one bad
    /// line in the middle.
    private static func bigRecording() throws -> URL {
        let synth = try Binary.run(["synth", "--count", "3000", "two-finger swipe left", "tap", "swipe right"])
        var lines = synth.lines
        lines.insert("{\"t\": oops}", at: lines.count / 2)
        return try Binary.temporaryFile("big.jsonl", lines.joined(separator: "\n") + "\n")
    }

    /// stderr as a terminal shows it; stdout goes to /dev/null.
    private func onTerminal(_ arguments: [String]) throws -> String {
        let command = ([Binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ") + " >/dev/null"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = Binary.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("on a terminal: percent, events/s and ETA, messages above it, and cleared at the end")
    func terminal() throws {
        let big = try Self.bigRecording()
        let text = try onTerminal(["run", big.path])
        #expect(text.contains("events/s  ETA "))
        #expect(text.contains("%  "))
        // The bad line's message is on a line of its own, not glued to the bar.
        #expect(text.contains("\r\u{1B}[K\(big.path):"))
        #expect(text.hasSuffix("\r\u{1B}[K"), "the bar must be erased at the end: \(text.suffix(120).debugDescription)")
    }

    @Test("through a pipe there is no bar, only the messages")
    func pipe() throws {
        let big = try Self.bigRecording()
        let result = try Binary.run(["run", big.path])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(!result.stderr.contains("events/s"))
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("invalid JSON"))
    }

    @Test("gesturemap test shows the bar for a big case, and its summary after it")
    func goldenTest() throws {
        let big = try Self.bigRecording()
        let text = try onTerminal(["test", "examples/pager.lua", big.path, "--update"])
        #expect(text.contains("events/s  ETA "))
        // The bar is erased before the case's result is printed.
        #expect(text.contains("\r\u{1B}[Kupdated  "))
        #expect(text.hasSuffix("(299 lines)\r\n1 passed, 0 failed\r\n"), "\(text.suffix(80).debugDescription)")
    }

    @Test("a small file shows no bar even on a terminal")
    func small() throws {
        let synth = try Binary.run(["synth", "swipe left"])
        let file = try Binary.temporaryFile("small.jsonl", synth.stdout)
        #expect(!(try onTerminal(["run", file.path])).contains("events/s"))
    }
}
