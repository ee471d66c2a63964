import GestureActions
import Testing

@Suite("Why key() typed nothing")
struct KeyPressErrorTests {
    @Test("a combination that is not one says so in the combination's words")
    func combo() {
        #expect(KeyCombo.parse("ctrl+") == .failure(.notACombination("ctrl+")))
        #expect(KeyPressError.combo(.notACombination("ctrl+")).description == #"key("ctrl+"): write keys joined by +, as in "ctrl+alt+Right" or "PageDown""#)
    }

    @Test("a keyboard that stops taking events is named with the combination")
    func stopped() {
        #expect(KeyPressError.keyboardStopped(combo: "ctrl+alt+Right").description
            == #"key("ctrl+alt+Right"): the virtual keyboard stopped taking events"#)
    }

    @Test("an unknown key keeps the nearest name, when there is one")
    func unknown() {
        #expect(KeyCombo.parse("alt+Lft") == .failure(.unknownKey("Lft", in: "alt+Lft", suggestion: "Left")))
        #expect(KeyCombo.parse("Blorp") == .failure(.unknownKey("Blorp", in: "Blorp", suggestion: nil)))
    }
}
