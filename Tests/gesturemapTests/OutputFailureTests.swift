#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Output that cannot be written ends `run`, `synth` and `record`: a reader
/// that went away (EPIPE) quietly, by SIGPIPE as `cat` would; anything else
/// (a full disk) with exit 74 and a message naming the output.
@Suite("Output failures", .serialized)
struct OutputFailureTests {
    static let hasDevFull = FileManager.default.fileExists(atPath: "/dev/full")

    struct Ending {
        var signalled: Bool
        var status: Int32
        var stderr: String
        var firstLine: String
    }

    /// Runs the binary with stdout into a pipe; reads `readLines` lines (0: none)
    /// and then closes the reading end, as `head -n` does. `whileRunning` runs
    /// once the reader is gone. A run that would not stop is killed after
    /// `limit` seconds, a guard against a hang, not a measure of speed.
    static func runThenCloseReader(_ arguments: [String], readLines: Int, stdin: FileHandle? = nil,
                                   limit: Double = 60) throws -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = Binary.packageRoot
        let out = Pipe()
        let errURL = try Binary.temporaryFile("stderr", "")
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? errHandle.close() }
        process.standardOutput = out
        process.standardError = errHandle
        process.standardInput = stdin ?? FileHandle.nullDevice
        // Reading nothing: the reader is gone before the command starts, so no
        // race decides whether it had finished already.
        if readLines == 0 { try out.fileHandleForReading.close() }
        try process.run()
        var received: [UInt8] = []
        var byte: UInt8 = 0
        var lines = 0
        while lines < readLines, read(out.fileHandleForReading.fileDescriptor, &byte, 1) == 1 {
            received.append(byte)
            if byte == 0x0A { lines += 1 }
        }
        if readLines > 0 { try out.fileHandleForReading.close() }
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Ending(signalled: process.terminationReason == .uncaughtSignal,
                      status: process.terminationStatus,
                      stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
                      firstLine: String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self))
    }

    /// Runs the binary with stdout on /dev/full.
    static func runIntoFullDisk(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = Binary.packageRoot
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errURL = try Binary.temporaryFile("stderr", "")
        process.standardError = try FileHandle(forWritingTo: errURL)
        if let stdin {
            let inURL = try Binary.temporaryFile("stdin", stdin)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }

    static func swipes(_ count: Int) throws -> String {
        let synth = try Binary.run(["synth", "left", "--count", String(count)])
        #expect(synth.status == 0)
        return synth.stdout
    }

    // MARK: The reader goes away

    @Test("synth --count 10000000 | head -1: synth stops at once, by SIGPIPE, and says nothing")
    func synthUnderHead() throws {
        let end = try Self.runThenCloseReader(["synth", "left", "--count", "10000000"], readLines: 1)
        #expect(end.firstLine.hasPrefix(#"{"device":"#))
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    @Test("run of a file | head -1: run stops by SIGPIPE, quietly, with lines still to come")
    func runFromFileUnderHead() throws {
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(2000))
        let end = try Self.runThenCloseReader(["run", input.path], readLines: 1)
        #expect(end.firstLine.hasPrefix(#"{"action":"next_page""#))
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    @Test("run from a pipe that stays open | head -1: the same quiet stop")
    func runFromPipeUnderHead() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // 20 swipes fit in the pipe's buffer; the write end stays open, so
        // only the output can end this run.
        let swipes = try Self.swipes(20)
        #expect(swipes.utf8.count < 60_000)
        _ = swipes.withCString { write(fds[1], $0, strlen($0)) }
        defer { close(fds[1]) }
        let input = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        let end = try Self.runThenCloseReader(["run", "-"], readLines: 1, stdin: input)
        #expect(end.firstLine.hasPrefix(#"{"action":"next_page""#))
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    @Test("run reading a FIFO that stays silent stops as soon as its reader leaves, with no line written")
    func idleRunNoticesReaderGone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fifo = dir.appendingPathComponent("touch.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open for writing, sending nothing: the input never ends.
        let holder = open(fifo, O_RDWR)
        defer { close(holder) }
        let end = try Self.runThenCloseReader(["run", fifo], readLines: 0)
        #expect(end.firstLine == "")
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    @Test("a file replay that emits nothing still notices its reader is gone, between blocks of input")
    func silentReplayNoticesReaderGone() throws {
        // One finger resting for 20000 frames: more than one 64 KiB block, and no swipe.
        var lines = [#"{"t":0,"ev":"down","id":1,"x":100,"y":100}"#]
        for i in 1...20000 { lines.append(#"{"t":\#(Double(i) / 100),"ev":"move","id":1,"x":100,"y":100}"#) }
        lines.append(#"{"t":200.01,"ev":"up","id":1}"#)
        let input = try Binary.temporaryFile("resting.ndjson", lines.joined(separator: "\n") + "\n")
        let end = try Self.runThenCloseReader(["run", input.path], readLines: 0)
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    @Test("record --from FILE | head -1: record stops by SIGPIPE, quietly")
    func recordUnderHead() throws {
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(2000))
        let end = try Self.runThenCloseReader(["record", "--from", input.path], readLines: 1)
        #expect(end.firstLine.hasPrefix(#"{"device":"#))
        #expect(end.signalled && end.status == SIGPIPE)
        #expect(end.stderr == "")
    }

    // MARK: Write errors

    @Test("run >/dev/full exits 74 naming standard output and the reason",
          .enabled(if: OutputFailureTests.hasDevFull))
    func runIntoFullDisk() throws {
        let swipes = try Self.swipes(3)
        let fromStdin = try Self.runIntoFullDisk(["run"], stdin: swipes)
        #expect(fromStdin.status == 74)
        #expect(fromStdin.stderr == "gesturemap: cannot write to standard output: No space left on device; stopping\n")
        let file = try Binary.temporaryFile("swipes.ndjson", swipes)
        let fromFile = try Self.runIntoFullDisk(["run", file.path])
        #expect(fromFile.status == 74)
        #expect(fromFile.stderr == fromStdin.stderr)
    }

    @Test("run --dry-run >/dev/full: exec lines fail the same way",
          .enabled(if: OutputFailureTests.hasDevFull))
    func dryRunIntoFullDisk() throws {
        let rules = try Binary.temporaryFile("rules.lua", #"on("left", function() exec({"true"}) end)"#)
        let result = try Self.runIntoFullDisk(["run", "--dry-run", "--rules", rules.path], stdin: try Self.swipes(2))
        #expect(result.status == 74)
        #expect(result.stderr == "gesturemap: cannot write to standard output: No space left on device; stopping\n")
    }

    @Test("run >/dev/full with nothing to emit is not an error", .enabled(if: OutputFailureTests.hasDevFull))
    func nothingWritten() throws {
        let result = try Self.runIntoFullDisk(["run"], stdin: #"{"t":0,"ev":"down","id":1,"x":10,"y":10}"# + "\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    @Test("synth >/dev/full exits 74 with a message", .enabled(if: OutputFailureTests.hasDevFull))
    func synthIntoFullDisk() throws {
        let result = try Self.runIntoFullDisk(["synth", "left"])
        #expect(result.status == 74)
        #expect(result.stderr == "gesturemap synth: cannot write to standard output: No space left on device; stopping\n")
    }

    @Test("record to stdout and record -o /dev/full exit 74 naming the output", .enabled(if: OutputFailureTests.hasDevFull))
    func recordIntoFullDisk() throws {
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(3))
        let toStdout = try Self.runIntoFullDisk(["record", "--from", input.path])
        #expect(toStdout.status == 74)
        #expect(toStdout.stderr == "gesturemap record: cannot write to standard output: No space left on device; stopping\n")
        let toFile = try Binary.run(["record", "--from", input.path, "-o", "/dev/full"])
        #expect(toFile.status == 74)
        #expect(toFile.stderr == "gesturemap record: cannot write to /dev/full: No space left on device; stopping\n")
    }

    @Test("messages that cannot be written (stderr on a full disk) do not stop the run",
          .enabled(if: OutputFailureTests.hasDevFull))
    func fullStandardError() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["run", "-v"]
        // A malformed line after the header: a message that has nowhere to go.
        var lines = try Self.swipes(2).split(separator: "\n", omittingEmptySubsequences: false)
        lines.insert("not json", at: 1)
        let input = lines.joined(separator: "\n")
        process.standardInput = try FileHandle(forReadingFrom: try Binary.temporaryFile("stdin", input))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self).split(separator: "\n").count == 2)
    }

    @Test("record -o into a folder that does not exist exits 74 naming the file")
    func recordIntoMissingFolder() throws {
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(1))
        let target = input.deletingLastPathComponent().appendingPathComponent("no/such/folder/out.ndjson").path
        let result = try Binary.run(["record", "--from", input.path, "-o", target])
        #expect(result.status == 74)
        #expect(result.stderr == "gesturemap record: cannot write \(target): No such file or directory\n")
    }

    // MARK: The author tools

    @Test("explain | head -1: the replay stops with the reader, by SIGPIPE, silently")
    func explainReaderGone() throws {
        let file = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(2_000))
        let end = try Self.runThenCloseReader(["explain", file.path], readLines: 1)
        #expect(end.signalled && end.status == SIGPIPE, "status \(end.status), signalled \(end.signalled)")
        #expect(end.firstLine.hasPrefix("sequence 1: "))
        #expect(end.stderr == "")
    }

    @Test("explain >/dev/full exits 74 naming standard output and the reason",
          .enabled(if: OutputFailureTests.hasDevFull))
    func explainIntoFullDisk() throws {
        let file = try Binary.temporaryFile("swipes.ndjson", try Self.swipes(3))
        let end = try Self.runIntoFullDisk(["explain", file.path])
        #expect(end.status == 74)
        #expect(end.stderr == "gesturemap explain: cannot write to standard output: No space left on device; stopping\n")
    }
}
