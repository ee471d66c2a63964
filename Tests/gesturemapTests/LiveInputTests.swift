#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A live pipe whose events carry CLOCK_MONOTONIC times, as a device's do: the
/// engine must wake for a deadline with no further input.
@Suite("Live input", .serialized)
struct LiveInputTests {
    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    @Test("a long press fires on a still finger while the pipe stays quiet")
    func longPressWithoutEvents() throws {
        let rules = try Binary.temporaryFile("hold.lua", "on(\"long press\", function(g) emit(\"hold\") end)\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["run", "--rules", rules.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let down = monotonicDown()
        input.fileHandleForWriting.write(Data(down.line.utf8))
        // Wait well past the 0.5 s press, sending nothing.
        var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let arrived = poll(&ready, 1, 3000) > 0
        let lifted = Self.monotonic()
        input.fileHandleForWriting.write(Data("{\"t\":\(lifted),\"ev\":\"up\",\"id\":1}\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(arrived, "no output before the finger lifted")
        let event = try #require(Binary.json(text.split(separator: "\n").first.map(String.init) ?? ""))
        #expect(event["action"] as? String == "hold")
        let t = try #require(event["t"] as? Double)
        #expect(abs(t - (down.time + 0.5)) < 0.001)
    }

    func monotonicDown() -> (line: String, time: Double) {
        let t = Self.monotonic()
        return ("{\"t\":\(t),\"ev\":\"down\",\"id\":1,\"x\":300,\"y\":300}\n", t)
    }
}
