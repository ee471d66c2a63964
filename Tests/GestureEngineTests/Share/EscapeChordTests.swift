import GestureContext
import Testing
@testable import GestureEngine

@Suite("Sharing's escape chord")
struct EscapeChordTests {
    /// Which of the events ("+14" pressed, "-14" released, "r1" repeated) completed the chord.
    static func fired(_ events: [String]) -> [Int] {
        var chord = EscapeChord()
        var out: [Int] = []
        for (i, text) in events.enumerated() {
            guard let code = UInt16(text.dropFirst()) else { continue }
            let action: KeyEvent.Action = text.hasPrefix("+") ? .pressed : text.hasPrefix("-") ? .released : .repeated
            if chord.key(KeyEvent(code: code, action: action, time: 0)) { out.append(i) }
        }
        return out
    }

    @Test("Backspace, Escape and Enter held together fire once, in any order; again only after one went up")
    func fires() {
        #expect(Self.fired(["+28", "+14", "+30", "+1", "r1", "+1", "-28", "+28"]) == [3, 7])
    }

    @Test("two of the three, or the three one after another, are no chord")
    func notAChord() {
        #expect(Self.fired(["+14", "-14", "+1", "-1", "+28", "-28", "+14", "+1"]).isEmpty)
    }
}
