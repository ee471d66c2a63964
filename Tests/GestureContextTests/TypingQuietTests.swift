import GestureContext
import Testing

@Suite("quiet while typing")
struct TypingQuietTests {
    let a: UInt16 = 30  // KEY_A

    @Test("a touchpad tap 100 ms after a key press is suppressed, one 2 s after is not")
    func afterOneKey() {
        var quiet = TypingQuiet()
        quiet.key(a, pressed: true, at: 10.0, builtIn: true)
        quiet.key(a, pressed: false, at: 10.06, builtIn: true)
        #expect(quiet.suppresses(gestureStartingAt: 10.1, on: .touchpad))
        #expect(!quiet.suppresses(gestureStartingAt: 12.0, on: .touchpad))
        // libinput's 200 ms after a lone key press.
        #expect(quiet.suppresses(gestureStartingAt: 10.2, on: .touchpad))
        #expect(!quiet.suppresses(gestureStartingAt: 10.21, on: .touchpad))
        // A touch that was down before the key press is not a palm from typing.
        #expect(!quiet.suppresses(gestureStartingAt: 9.99, on: .touchpad))
    }

    @Test("touchscreens are never suppressed")
    func touchscreens() {
        var quiet = TypingQuiet()
        quiet.key(a, pressed: true, at: 1.0, builtIn: true)
        #expect(!quiet.suppresses(gestureStartingAt: 1.05, on: .touchscreen))
    }

    @Test("typing extends the quiet by 500 ms from each press")
    func typing() {
        var quiet = TypingQuiet()
        for (i, t) in [1.0, 1.15, 1.3].enumerated() {
            quiet.key(UInt16(30 + i), pressed: true, at: t, builtIn: true)
            quiet.key(UInt16(30 + i), pressed: false, at: t + 0.05, builtIn: true)
        }
        #expect(quiet.suppresses(gestureStartingAt: 1.79, on: .touchpad))
        #expect(!quiet.suppresses(gestureStartingAt: 1.81, on: .touchpad))
    }

    @Test("a key held down keeps the touchpad quiet until its release and the step after")
    func heldKey() {
        var quiet = TypingQuiet()
        quiet.key(a, pressed: true, at: 1.0, builtIn: true)
        #expect(quiet.suppresses(gestureStartingAt: 2.5, on: .touchpad))
        quiet.key(a, pressed: false, at: 2.6, builtIn: true)
        // The quiet ran out at 1.2 and was extended in 500 ms steps: 1.7, 2.2, 2.7.
        #expect(quiet.suppresses(gestureStartingAt: 2.69, on: .touchpad))
        #expect(!quiet.suppresses(gestureStartingAt: 2.71, on: .touchpad))
    }

    @Test("modifiers, keys pressed with a modifier held, F-keys and Escape do not count")
    func ignoredKeys() {
        var quiet = TypingQuiet()
        quiet.key(KeyCode.leftCtrl, pressed: true, at: 1.0, builtIn: true)
        #expect(!quiet.suppresses(gestureStartingAt: 1.05, on: .touchpad))
        quiet.key(46, pressed: true, at: 1.1, builtIn: true)  // ctrl+c
        quiet.key(46, pressed: false, at: 1.15, builtIn: true)
        quiet.key(KeyCode.leftCtrl, pressed: false, at: 1.2, builtIn: true)
        #expect(!quiet.suppresses(gestureStartingAt: 1.25, on: .touchpad))
        quiet.key(KeyCode.f1, pressed: true, at: 2.0, builtIn: true)
        quiet.key(KeyCode.esc, pressed: true, at: 2.0, builtIn: true)
        #expect(!quiet.suppresses(gestureStartingAt: 2.05, on: .touchpad))
    }

    @Test("external keyboards do not count")
    func external() {
        var quiet = TypingQuiet()
        quiet.key(a, pressed: true, at: 1.0, builtIn: false)
        #expect(!quiet.suppresses(gestureStartingAt: 1.05, on: .touchpad))
    }

    @Test("typing_quiet = 0 turns it off; a longer value scales both times")
    func configured() {
        var off = TypingQuiet(duration: 0)
        off.key(a, pressed: true, at: 1.0, builtIn: true)
        #expect(!off.suppresses(gestureStartingAt: 1.01, on: .touchpad))
        var long = TypingQuiet(duration: 2)
        long.key(a, pressed: true, at: 1.0, builtIn: true)
        long.key(a, pressed: false, at: 1.1, builtIn: true)
        #expect(long.suppresses(gestureStartingAt: 1.79, on: .touchpad))
        #expect(!long.suppresses(gestureStartingAt: 1.81, on: .touchpad))
        #expect(TypingQuiet(duration: -3).duration == 0)
        #expect(TypingQuiet(duration: .nan).duration == TypingQuiet.defaultDuration)
    }
}

@Suite("modifiers")
struct ModifierTests {
    @Test("parsing the rule option, with aliases, spaces and case")
    func parse() throws {
        #expect(try Modifiers.parse("ctrl") == .ctrl)
        #expect(try Modifiers.parse("Ctrl + Shift") == [.ctrl, .shift])
        #expect(try Modifiers.parse("control+alt+meta") == [.ctrl, .alt, .super])
        #expect(try Modifiers.parse("") == [])
        #expect(try Modifiers.parse("none") == [])
        #expect(Modifiers([.super, .ctrl]).names == ["ctrl", "super"])
    }

    @Test("a name that is not a modifier is an error that says which, and what to write")
    func errors() {
        #expect(throws: Modifiers.ParseError(message: "modifiers \"ctrl+hyper\": \"hyper\" is not a modifier; use ctrl, shift, alt or super, joined with +")) {
            try Modifiers.parse("ctrl+hyper")
        }
        #expect(throws: Modifiers.ParseError(message: "modifiers \"ctrl+\": an empty name is not a modifier; use ctrl, shift, alt or super, joined with +")) {
            try Modifiers.parse("ctrl+")
        }
    }
}
