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

    /// The target's check that what import writes loads, on a file larger than its 4 KiB
    /// inputs: 60 applications of 18 gestures each were 1,080 live rules, and `check`
    /// refused the file at its 1,001st (`on(): this rules file has defined 1000 rules`).
    @Test func moreRulesThanALoadIsNoneLive() throws {
        func touchegg(apps: Int) -> String {
            var gestures = ""
            for fingers in 3...5 {
                for direction in ["LEFT", "RIGHT", "UP", "DOWN"] {
                    gestures += "<gesture type=\"SWIPE\" fingers=\"\(fingers)\" direction=\"\(direction)\"><action type=\"RUN_COMMAND\"><command>echo</command></action></gesture>\n"
                }
                for direction in ["IN", "OUT"] {
                    gestures += "<gesture type=\"PINCH\" fingers=\"\(fingers)\" direction=\"\(direction)\"><action type=\"RUN_COMMAND\"><command>echo</command></action></gesture>\n"
                }
            }
            return "<touchégg>\n" + (0..<apps).map { "<application name=\"app\($0)\">\n\(gestures)</application>\n" }.joined() + "</touchégg>\n"
        }
        let fits = try read(touchegg(apps: 55), .touchegg)
        #expect(LuaRulesWriter.definedRules(fits.bindings) == 990)
        #expect(!fits.hasErrors)
        let over = try read(touchegg(apps: 60), .touchegg)
        #expect(LuaRulesWriter.definedRules(over.bindings) == 0)
        #expect(over.diagnostics.filter { $0.severity == .error }.map { $0.rendered(file: "in") } == [
            "in: the rules would be 1080, more than the 1000 gesturemap loads from one file, so none is imported live: import a part of the file at a time, or keep the bindings you use",
        ])
        #expect(LuaRulesWriter.reasonNotImported(over.bindings[0]) == "the file makes 1080 rules, more than the 1000 gesturemap loads from one file, so none is imported live")
    }

    /// Rules per application list: a list of more than 64 applications is a rule per 64.
    @Test func aLongApplicationListCountsARulePer64() throws {
        let names = (0..<130).map { "app\($0)" }.joined(separator: ",")
        let result = try read("<touchégg>\n<application name=\"\(names)\">\n<gesture type=\"SWIPE\" fingers=\"3\" direction=\"LEFT\"><action type=\"RUN_COMMAND\"><command>echo</command></action></gesture>\n</application>\n</touchégg>\n", .touchegg)
        #expect(LuaRulesWriter.definedRules(result.bindings) == 3)
        #expect(LuaRulesWriter.write(result, sourceName: "in").contains("for _, list in ipairs(apps[1]) do on(\"3-finger swipe left\""))
    }

    /// Easystroke's the same: 1,001 strokes that read alike are 1,001 drawn shapes, each its own rule.
    @Test func moreEasystrokeRulesThanALoadIsNoneLive() {
        let entries = (0...1000).map { (EasystrokeArchiveBuilder.line(degrees: Double($0 % 11)), "a") }
        let result = EasystrokeImport.read(Array(EasystrokeArchiveBuilder.archive(entries).utf8), shapesLive: true)
        #expect(result.rules.count == 1001)
        #expect(!result.rules.contains { $0.isLive })
        #expect(result.diagnostics.filter { $0.severity == .error }.map { $0.rendered(file: "in") } == [
            "in: the rules would be 1001, more than the 1000 gesturemap loads from one file, so none is imported live: remove the application lists you do not use from Easystroke, or keep the rules you use",
        ])
        let fits = EasystrokeImport.read(Array(EasystrokeArchiveBuilder.archive(Array(entries.prefix(1000))).utf8), shapesLive: true)
        #expect(fits.rules.filter(\.isLive).count == 1000)
        #expect(!fits.hasErrors)
    }
}
