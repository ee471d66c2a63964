import CLuaShim
import GestureCore
import Testing

/// The Lua panic's message, made safe in C as the console makes every other
/// line safe in Swift: the two agree.
@Suite("The C side's terminal-safe text")
struct TerminalSafeTests {
    static func safe(_ text: String, size: Int = 1024) -> String {
        var out = [CChar](repeating: 0, count: size)
        let length = gm_terminal_safe(text, &out, out.count)
        return String(decoding: out.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("as TerminalText.escapedKeepingLines: controls, C1, separators, overrides written out; letters, newlines and tabs kept")
    func agrees() {
        for text in ["plain", "a\u{1B}]0;pwned\u{07}b\u{1B}[2Jc", "x\u{9B}31m\u{7F}", "line\nnext\ttab\r", "a\u{2028}b\u{2029}\u{061C}\u{200E}\u{200F}",
                     "\u{202A}\u{202E}\u{2066}\u{2069}", "Привет 日本 ☕ 𝄞"] {
            #expect(Self.safe(text) == TerminalText.escapedKeepingLines(text), "\(text.debugDescription)")
        }
    }

    @Test("a byte that is no UTF-8 (a lone 8-bit CSI) becomes U+FFFD; a message too long is cut at a whole piece")
    func bytesAndLength() {
        let lone: [CChar] = [0x61, CChar(bitPattern: 0x9B), 0x32, 0x4A, 0]
        var out = [CChar](repeating: 0, count: 64)
        let length = gm_terminal_safe(lone, &out, out.count)
        #expect(Array(out.prefix(length).map { UInt8(bitPattern: $0) }) == [0x61, 0xEF, 0xBF, 0xBD, 0x32, 0x4A])
        #expect(Self.safe("ab\u{1B}c", size: 6) == "ab")
    }
}
