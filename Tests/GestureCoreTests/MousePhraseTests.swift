import GestureCore
import Testing

@Suite("Mouse phrases: strokes and chords")
struct MousePhraseTests {
    static func spec(_ phrase: String) -> GestureSpec? { PhraseParserTests.spec(phrase) }

    static func error(_ phrase: String) -> String? { PhraseParserTests.error(phrase) }

    @Test("a button, drag, and the arms as a stroke rule's direction spells them", arguments: [
        ("right-drag left", GestureSpec(kind: .stroke, button: .right, arms: [.left])),
        ("Right Drag Left-Up", GestureSpec(kind: .stroke, button: .right, arms: [.left, .up])),
        ("middle-drag up,left", GestureSpec(kind: .stroke, button: .middle, arms: [.up, .left])),
        ("right-drag up-left", GestureSpec(kind: .stroke, button: .right, arms: [.upLeft])),
        ("side-drag down-right-up", GestureSpec(kind: .stroke, button: .side, arms: [.down, .right, .up])),
        ("right-drag shape left curly brace", GestureSpec(kind: .shape, name: "left_curly_brace", button: .right)),
    ])
    func strokes(phrase: String, expected: GestureSpec) {
        #expect(Self.spec(phrase) == expected)
    }

    @Test("chords: a rocker and a button with the wheel", arguments: [
        ("left+right", GestureSpec(kind: .chord, button: .left, press: .right)),
        ("right + wheel up", GestureSpec(kind: .chord, button: .right, wheel: .up)),
        ("middle+wheel-down", GestureSpec(kind: .chord, button: .middle, wheel: .down)),
    ])
    func chords(phrase: String, expected: GestureSpec) {
        #expect(Self.spec(phrase) == expected)
    }

    @Test("a button's click alone: the button, then click", arguments: [
        ("side click", GestureSpec(kind: .click, button: .side)),
        ("Middle-Click", GestureSpec(kind: .click, button: .middle)),
        ("extra click ", GestureSpec(kind: .click, button: .extra)),
    ])
    func clicks(phrase: String, expected: GestureSpec) {
        #expect(Self.spec(phrase) == expected)
        #expect(expected.phrase == phrase.lowercased().replacingOccurrences(of: "-", with: " ").trimmingCharacters(in: .whitespaces), "read back as written")
    }

    @Test("a touchpad's click phrases keep their meaning, and a button's click takes nothing after it")
    func touchpadClicks() {
        #expect(Self.spec("2-finger click") == GestureSpec(kind: .click, fingers: .exactly(2)))
        #expect(Self.spec("side click twice") == nil)
    }

    @Test("phrases that meant something before keep it: a button's name alone with drag is a pan that way")
    func panStays() {
        #expect(Self.spec("left drag") == GestureSpec(kind: .pan, direction: .left))
        #expect(Self.spec("right-drag") == GestureSpec(kind: .pan, direction: .right))
    }

    @Test("mistakes are named with the phrase", arguments: [
        ("right-drag left-left", #""left-left" goes left twice in a row, which is one arm; write "left" once there"#),
        ("right-drag sideways", #""sideways" is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another"#),
        ("left+left", "a chord presses a second button, not the one held"),
        ("left+wheel", #"after "+" comes a second button (left, right, middle, side, extra) or the wheel's turn (wheel up, down, left or right)"#),
        ("thumb+right", #"before "+" comes the button held first: left, right, middle, side, extra"#),
        ("left+right+middle", #"it joins 3 parts with "+""#),
        ("right-drag shape", #""shape" needs the shape's name, as in "right-drag shape circle""#),
        ("right-drag left-up-right-down-left", #""left-up-right-down-left" has 5 arms; a stroke has at most 4"#),
    ])
    func mistakes(phrase: String, expected: String) {
        let message = Self.error(phrase)
        #expect(message?.hasPrefix("cannot read gesture phrase \"\(phrase)\": \(expected)") == true, "\(message ?? "nil")")
    }
}
