import GestureCore
import Testing

@Suite("Text from outside, shown on a terminal")
struct TerminalTextTests {
    @Test("controls, separators and bidirectional overrides are written out; every script's letters stay")
    func escapes() {
        #expect(TerminalText.escaped("Mozilla Firefox — Привет 日本 ☕") == "Mozilla Firefox — Привет 日本 ☕")
        // OSC 52 (a clipboard write), a clear-screen, an 8-bit CSI, DEL.
        #expect(TerminalText.escaped("\u{1B}]52;c;aGk=\u{07}") == "\\u{1B}]52;c;aGk=\\u{7}")
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.escaped("x\u{9B}31my\u{7F}") == "x\\u{9B}31my\\u{7F}")
        // A forged line, and text that reads right to left over what follows.
        #expect(TerminalText.escaped("ok\ngesturemap: fake") == "ok\\u{A}gesturemap: fake")
        #expect(TerminalText.escaped("a\u{2028}b\u{202E}c\u{2066}") == "a\\u{2028}b\\u{202E}c\\u{2066}")
        #expect(TerminalText.escaped("tab\there") == "tab\\u{9}here")
    }

    @Test("whole messages: newlines and tabs stay, every other control is written out")
    func keepingLines() {
        #expect(TerminalText.escapedKeepingLines("rules.lua:3: boom\n\tstack traceback:") == "rules.lua:3: boom\n\tstack traceback:")
        #expect(TerminalText.escapedKeepingLines("title \u{1B}]0;pwned\u{07} and \u{1B}[2J") == "title \\u{1B}]0;pwned\\u{7} and \\u{1B}[2J")
        #expect(TerminalText.escapedKeepingLines("a\rb\u{9B}c\u{2028}d\u{202E}e") == "a\\u{D}b\\u{9B}c\\u{2028}d\\u{202E}e")
        #expect(TerminalText.escapedKeepingLines("Привет 日本 ☕") == "Привет 日本 ☕")
    }

    @Test("quoted: a quote or a backslash inside is escaped, so the end of the text is plain")
    func quoted() {
        #expect(TerminalText.quoted("paper.pdf") == "\"paper.pdf\"")
        #expect(TerminalText.quoted("say \"hi\" \\ bye") == "\"say \\\"hi\\\" \\\\ bye\"")
        #expect(TerminalText.quoted("\u{1B}") == "\"\\u{1B}\"")
    }
}
