@testable import GestureScript
import GestureCore
import Testing

@Suite("Messages about the rules' arguments, word for word")
struct RuleArgumentMessageTests {
    @Test("on(): handler tables and options")
    func onArguments() {
        #expect(loadProblems("""
        on("tap", { start = function() end })
        on("tap", { began = 1 })
        on("tap", function() end, { [1] = true })
        on("tap", function() end, { name = 1 })
        on("tap", function() end, { mode = "" })
        on("tap", function() end, { device = 3 })
        on("pan", function() end, { ["repeat"] = 0 })
        on("tap", function() end, { simultaneous_with = 3 })
        on("tap", function() end, { exclusive = 1 })
        on("tap", function() end, { modifiers = 3 })
        on("tap", function() end, { modifiers = "hyper" })
        on("tap", function() end, { app = 3 })
        on("tap", function() end, { app = (function() local t = {} for i = 1, 65 do t[i] = "a" end return t end)() })
        on("tap", function() end, { app = ("x"):rep(2000) })
        on("tap", function() end, { app = "[" })
        """) == [
            #"rules.lua:1: unknown phase "start" in handler table; use began, changed, ended or cancelled"#,
            #"rules.lua:2: handler table field "began" must be a function, not a number"#,
            #"rules.lua:3: on() options must have string keys"#,
            #"rules.lua:4: option "name" must be a string"#,
            #"rules.lua:5: option "mode" must be a mode's name, such as "admin""#,
            #"rules.lua:6: option "device" must be a Lua pattern for the device's name, such as "Touchscreen""#,
            #"rules.lua:7: option "repeat" must be a distance in millimetres, more than 0"#,
            #"rules.lua:8: option "simultaneous_with" must be a rule name or a list of rule names, such as { "next", "prev" }"#,
            #"rules.lua:9: option "exclusive" must be true or false"#,
            #"rules.lua:10: option "modifiers" must be the keys to hold, such as "ctrl" or "ctrl+shift" (or "none")"#,
            #"rules.lua:11: option modifiers "hyper": "hyper" is not a modifier; use ctrl, shift, alt or super, joined with +"#,
            #"rules.lua:12: option "app" must be a Lua pattern for the application's id, or a list of them, such as "firefox" or { "evince", "zathura" }; gesturemap apps shows the ids"#,
            #"rules.lua:13: option "app" lists 65 patterns; the most is 64"#,
            #"rules.lua:14: option "app" is 2000 bytes long; the most is 1024"#,
            #"rules.lua:15: option "app" is not a valid Lua pattern: "[" (malformed pattern (missing ']'))"#,
        ])
    }

    @Test("on()'s option errors name the option they are about")
    func optionErrorCases() {
        #expect(RuleOptionError.unknown("modes") == .unknown("modes"))
        #expect(RuleOptionError.tooLong(option: "name", bytes: 2000, most: 1024).description == #"option "name" is 2000 bytes long; the most is 1024"#)
        #expect(RuleOptionError.notString(option: "description").description == #"option "description" must be a string"#)
        #expect(RuleOptionError.repeatWithoutTravel("tap").description == #"option "repeat" belongs to pans and long presses, which travel, not "tap""#)
        #expect(RuleOptionError.notRuleNames(option: "requires_failure_of").description
            == #"option "requires_failure_of" must be a rule name or a list of rule names, such as { "next", "prev" }"#)
    }

    @Test("a recognizer's fields and name")
    func recognizerTexts() {
        #expect(GestureFieldError.badName(shown: "(a number)").description == "field names are words such as count or corner, not (a number)")
        #expect(GestureFieldError.reserved("kind").description == "g.kind is set by gesturemap; name the field otherwise")
        #expect(GestureFieldError.tooLong("note").description == "field note is longer than 1024 bytes")
        #expect(GestureFieldError.badType("f", .table).description == "field f is a table; fields are numbers, strings or booleans")
        #expect(GestureFieldError.tooMany.description == "a gesture carries at most 32 fields")
        #expect(RecognizerNameError.notAWord("Zig Zag").description
            == #"recognizer "Zig Zag": a name is a lowercase word of letters, digits, - and _, starting with a letter, such as "zigzag" or "tap-tap-hold""#)
        #expect(RecognizerNameError.builtInKind("swipe").description == #"recognizer "swipe": "swipe" is a built-in kind; choose another name"#)
        #expect(RecognizerNameError.phrase("left").description == #"recognizer "left": "left" already reads as a gesture phrase; choose another name"#)
        #expect(throws: RecognizerNameError.builtInKind("long-press")) { try ScriptRuntime.checkRecognizerName("long-press") }
        #expect(throws: RecognizerNameError.phrase("double-tap")) { try ScriptRuntime.checkRecognizerName("double-tap") }
        #expect(throws: Never.self) { try ScriptRuntime.checkRecognizerName("zigzag") }
    }

    @Test("patterns: what the C matcher's answers mean")
    func patterns() {
        #expect(PatternFind(1) == .found)
        #expect(PatternFind(0) == .notFound)
        #expect(PatternFind(-1) == .malformed)
        #expect(PatternFind(-2) == .tooManySteps)
        #expect(throws: MalformedPattern(description: "malformed pattern (ends with '%')")) { try ScriptRuntime.checkPattern("a%") }
        #expect(throws: Never.self) { try ScriptRuntime.checkPattern("^Touch") }
    }
}
