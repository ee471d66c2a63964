import Testing
@testable import GestureTools

/// What the `import` fuzz target found, each as the smallest file that shows it
/// (the target's own input is kept in Fixtures/fuzz/import and replayed by ImportFuzzFixtureTests).
@Suite("import's fuzz findings")
struct ImportFuzzFindingsTests {
    func read(_ text: String, _ format: ImportFormat) throws -> ImportResult {
        try ConfigImporter.read(Array(text.utf8), name: "in", format: format).get()
    }

    /// fusuma symbolizes each document's keys, which a text or a list has not: it exits,
    /// so the first document's swipe is no more imported than the rest.
    @Test func aLaterDocumentThatIsNoMappingRefusesTheFile() throws {
        let result = try read("swipe:\n  3:\n    left:\n      command: 'xdotool key alt+Right'\n---\njust text\n", .fusuma)
        #expect(result.diagnostics.map { $0.rendered(file: "in") } == [
            "in:6: a fusuma document is a mapping of gesture sections (swipe:, pinch:, rotate:, hold:, tap:), not the value \"just text\"; fusuma fails on it and runs none of the file, so nothing is imported live",
        ])
        #expect(result.bindings.count == 1)
        #expect(!result.bindings.contains { $0.isLive })
    }

    /// A 1-finger pinch was written as a live rule that `check` refuses ("a pinch needs at least 2 fingers").
    @Test func aOneFingerPinchIsWrittenCommentedOut() throws {
        let result = try read("pinch:\n  1:\n    in:\n      command: 'xdotool key ctrl+minus'\n  2:\n    in:\n      command: 'xdotool key ctrl+plus'\n", .fusuma)
        let one = try #require(result.bindings.first { $0.fingers == 1 })
        #expect(!one.isLive)
        #expect(LuaRulesWriter.reasonNotImported(one) == "1 finger: gesturemap's pinch needs at least 2 fingers, so a 1-finger one never happens there")
        #expect(result.bindings.contains { $0.fingers == 2 && $0.isLive })
        let lua = LuaRulesWriter.write(result, sourceName: "in")
        #expect(lua.contains("--   not imported: 1 finger: gesturemap's pinch needs at least 2 fingers, so a 1-finger one never happens there"))
        #expect(!lua.contains("\non(\"1-finger"))
    }
}
