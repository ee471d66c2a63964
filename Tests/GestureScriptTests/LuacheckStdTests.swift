import Foundation
import Testing

/// luacheck with the shipped standard (examples/editor/.luacheckrc), as a
/// user runs it: `luacheck --std gesturemap rules.lua`.
enum Luacheck {
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":")
        .map { $0 + "/luacheck" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let missing = "luacheck is not installed (Debian's lua-check; scripts/setup's gesturemap_test_setup installs it)"

    /// The warnings, as "file:line:column: (Wcode) message" lines.
    static func check(_ files: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path))
        process.arguments = ["--config", EditorFiles.directory.appendingPathComponent(".luacheckrc").path,
                             "--std", "gesturemap", "--codes", "--formatter", "plain", "--no-color"] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        // 0: no warnings, 1: warnings; more is a syntax error or luacheck's own failure.
        #expect(process.terminationStatus <= 1, "luacheck exited \(process.terminationStatus): \(lines)")
        return lines
    }

    /// Warnings about globals: an undefined variable or field, or setting one (W1xx).
    static func globalWarnings(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("(W1") }
    }
}

@Suite("luacheck's gesturemap standard", .enabled(if: Luacheck.path != nil, Comment(rawValue: Luacheck.missing)))
struct LuacheckStdTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("luacheck-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("every example passes with no warning about a global")
    func examples() throws {
        let directory = EditorFiles.root.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".lua") }.sorted()
            .map { directory.appendingPathComponent($0).path }
        #expect(files.count >= 10, "\(files)")
        let lines = try Luacheck.check(files)
        #expect(Luacheck.globalWarnings(lines) == [])
    }

    @Test("every Lua block of docs/lua-api.md passes with no warning about a global")
    func referenceBlocks() throws {
        let text = try String(contentsOf: EditorFiles.root.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        var block: [Substring]?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if block == nil, line == "```lua" {
                block = []
            } else if block != nil, line == "```" {
                // Named by the doc's line, so a warning says where the block is.
                let file = directory.appendingPathComponent("lua-api.md-line-\(number + 1 - block!.count).lua")
                try block!.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
                files.append(file.path)
                block = nil
            } else if block != nil {
                block!.append(line)
            }
        }
        #expect(files.count >= 12)
        let lines = try Luacheck.check(files)
        #expect(Luacheck.globalWarnings(lines) == [])
    }

    @Test("a misspelt call, io, os.execute, dofile and a misspelt pointer function are warnings; gesturemap's API is not")
    func catchesMistakes() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.lua")
        try """
            on("tap", function(g) emti("next", { x = g.x }) end)
            on("3-finger pan", { began = function(g) pointer.press("left") end, ended = function(g) pointer.release() end })
            state.page = (state.page or 0) + 1
            log("page", state.page); log.warn("careful"); print(string.format("%d", 1))
            local file = io.open("/etc/passwd")
            os.execute("true")
            dofile("other.lua")
            pointer.mvoe(1, 2)
            touchpad.begin(3); touchpad.move(1, 0); touchpad.finish()
            config{ pointer_gain = 20 }
            after(1, function() emit("later", { t = os.time(), file = tostring(file) }) end)
            """.write(to: file, atomically: true, encoding: .utf8)
        let warnings = Luacheck.globalWarnings(try Luacheck.check([file.path]))
            .map { $0.replacingOccurrences(of: file.path + ":", with: "") }
        #expect(warnings == [
            "1:23: (W113) accessing undefined variable 'emti'",
            "5:14: (W113) accessing undefined variable 'io'",
            "6:1: (W143) accessing undefined field 'execute' of global 'os'",
            "7:1: (W113) accessing undefined variable 'dofile'",
            "8:1: (W143) accessing undefined field 'mvoe' of global 'pointer'",
        ])
    }
}
