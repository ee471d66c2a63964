import Testing
@testable import GestureTools

@Suite("text for the rules file and for messages")
struct LuaTextTests {
    @Test func printableCutsAtTheLimitAndBlanksControls() {
        let long = String(repeating: "ab", count: 150)
        #expect(LuaText.printable(long) == String(long.prefix(200)) + "...")
        #expect(LuaText.printable(String(repeating: "é", count: 250)) == String(repeating: "é", count: 200) + "...")
        #expect(LuaText.printable("a\tb\u{7F}c\u{85}d\u{1B}[2J") == "a b c d [2J")
        #expect(LuaText.printable("short") == "short")
    }

    @Test func patternsMatchTheNameAsWritten() {
        #expect(LuaText.patternEscaped("Google-chrome (1.0)%") == "Google%-chrome %(1%.0%)%%")
        #expect(LuaText.patternEscaped("Évince^$") == "Évince%^%$")
    }
}
