import Foundation
import Testing
@testable import GestureTools

/// The `import` fuzz target's kept inputs (Tests/GestureToolsTests/Fixtures/fuzz/import):
/// its seeds and what once broke it. Each is read as the target reads it (the first
/// byte's low three bits pick the reader, 5 to 7 the detected format; its fourth bit a
/// shapes file for Easystroke, fusuma 2 for fusuma), and what import writes must pass
/// `gesturemap check`.
@Suite("import's fuzz fixtures")
struct ImportFuzzFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Import
        .deletingLastPathComponent()  // GestureToolsTests
        .appendingPathComponent("Fixtures/fuzz/import").path

    static let names: [String] = (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []

    static func fixture(_ name: String) throws -> (control: UInt8, body: [UInt8]) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        let control = try #require(bytes.first)
        return (control, Array(bytes.dropFirst()))
    }

    /// The rules (and shapes) import writes for a fixture, and whether it refused the file.
    static func imported(_ control: UInt8, _ body: [UInt8]) -> (lua: String, shapes: String?, refused: Bool) {
        let variant = control & 0x08 != 0
        func easystroke(_ result: EasystrokeImport) -> (String, String?, Bool) {
            let shapes = result.shapesLive && !result.shapes.isEmpty && !result.hasErrors ? EasystrokeRulesWriter.shapesFile(result) : nil
            return (EasystrokeRulesWriter.write(result, sourceName: "fixture", shapesFile: shapes == nil ? nil : "rules.shapes.jsonl"), shapes, result.hasErrors)
        }
        let format: ImportFormat?
        switch control & 0x07 {
        case 0: return easystroke(EasystrokeImport.read(body, shapesLive: variant))
        case 4:
            let button = EasystrokePreferences.read(body, path: "preferences")
            return easystroke(EasystrokeImport.read(Array(EasystrokeFixtures.current.utf8), strokeButton: button.number, shapesLive: variant))
        case 1: format = .fusuma
        case 2: format = .touchegg
        case 3: format = .libinputGestures
        default: format = nil
        }
        switch ConfigImporter.read(body, name: "fixture", format: format, fusuma: variant ? .two : .three) {
        case .failure(.easystroke): return easystroke(EasystrokeImport.read(body, shapesLive: variant))
        case .failure: return ("", nil, true)
        case .success(let result): return (LuaRulesWriter.write(result, sourceName: "fixture"), nil, result.hasErrors)
        }
    }

    @Test(arguments: names)
    func whatImportWritesPassesCheck(_ name: String) throws {
        let (control, body) = try Self.fixture(name)
        let (lua, shapes, refused) = Self.imported(control, body)
        let dir = try scratchDirectory("fuzz-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules.lua").path
        try lua.write(toFile: rules, atomically: true, encoding: .utf8)
        var shapesPath: String?
        if let shapes {
            shapesPath = dir.appendingPathComponent("rules.shapes.jsonl").path
            try shapes.write(toFile: try #require(shapesPath), atomically: true, encoding: .utf8)
        }
        #expect(RuleChecker.problems(in: rules, shapesPath: shapesPath) == [])
        if refused {
            // A refused file's rules are all written commented out.
            #expect(!lua.split(separator: "\n").contains { $0.hasPrefix("on(") || $0.hasPrefix("for _,") })
        }
    }

    @Test func theFixturesAreThere() {
        #expect(Self.names.contains("easystroke-current"))
    }
}
