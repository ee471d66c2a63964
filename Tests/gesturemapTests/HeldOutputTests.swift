import Foundation
import Testing

/// A replay of files read as fast as they can be writes a chunk's lines at
/// once; nobody who shares its stdout or stderr may see them out of order.
@Suite("Lines held through a replay")
struct HeldOutputTests {
    /// stdout and stderr into one pipe, as `2>&1 | consumer` gives them.
    static func combined(_ arguments: [String]) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = Binary.packageRoot
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    static func swipes(_ count: Int) throws -> URL {
        let synth = try Binary.run(["synth", "--seed", "5", "--count", String(count), "swipe left"])
        return try Binary.temporaryFile("swipes.ndjson", synth.stdout)
    }

    @Test("a log message between two emits comes out between their lines, at every gesture")
    func messagesKeepTheirPlace() throws {
        let rules = try Binary.temporaryFile("held.lua", """
            on("swipe left", function(g) emit("before", { n = 1 }); log("between"); emit("after") end)
            """)
        let run = try Self.combined(["run", "--rules", rules.path, try Self.swipes(40).path])
        #expect(run.status == 0)
        let kinds = run.lines.map { line -> String in
            if line.contains("\"action\":\"before\"") { return "before" }
            if line.contains("\"action\":\"after\"") { return "after" }
            if line.hasSuffix("between") { return "between" }
            return "other: " + line
        }
        #expect(kinds == Array(repeating: ["before", "between", "after"], count: 40).flatMap { $0 })
    }

    @Test("a program a rule starts writes after the lines emitted before it")
    func programsComeAfterEarlierLines() throws {
        let rules = try Binary.temporaryFile("held-exec.lua", """
            local n = 0
            on("swipe left", function(g)
              n = n + 1
              emit("swipe", { n = n })
              if n == 25 then exec({ "/bin/echo", "child after 25" }) end
              -- Busy after it, so the end of the chunk comes long after the child writes.
              if n > 25 then local x = 0; for i = 1, 500000 do x = x + i end end
            end)
            """)
        let run = try Self.combined(["run", "--rules", rules.path, try Self.swipes(35).path])
        #expect(run.status == 0)
        let child = try #require(run.lines.firstIndex(of: "child after 25"))
        let twentyFifth = try #require(run.lines.firstIndex { $0.contains("\"n\":25") })
        #expect(twentyFifth < child)
        #expect(run.lines.filter { $0.contains("\"action\":\"swipe\"") }.count == 35)
    }
}
