import Testing
@testable import GestureTools

/// Python's rules as libinput-gestures meets them; each answer is what python3 gives.
@Suite("Python's text rules")
struct PythonTextTests {
    @Test func splitAndStrip() {
        #expect(PythonText.split("a\u{1c}b\u{0c}c  d", maxSplit: 1) == ["a", "b\u{0c}c  d"])
        #expect(PythonText.split(" a b  ", maxSplit: 1) == ["a", "b  "])
        #expect(PythonText.split("a\u{a0}b", maxSplit: 5) == ["a", "b"])
        #expect(PythonText.strip("\u{3000}\u{85} x \u{2029}") == "x")
        #expect(PythonText.strip("\u{feff}x") == "\u{feff}x")
    }

    @Test func linesEndAtLFCRAndCRLFOnly() {
        let lines = PythonText.lines("a\rb\r\nc\nd\u{0b}e\u{85}f\u{2028}g").map { String(Substring($0)) }
        #expect(lines == ["a", "b", "c", "d\u{0b}e\u{85}f\u{2028}g"])
    }

    @Test func intAndFloat() {
        #expect(PythonText.int("1_0") == 10)
        #expect(PythonText.int(" 7 ") == 7)
        #expect(PythonText.int("٣") == 3)
        #expect(PythonText.int("+5") == 5)
        #expect(PythonText.int("1__0") == nil)
        #expect(PythonText.int("_1") == nil)
        #expect(PythonText.float("1_0.5") == 10.5)
        #expect(PythonText.float(".5") == 0.5)
        #expect(PythonText.float("5.") == 5)
        #expect(PythonText.float("1e5") == 100_000)
        #expect(PythonText.float("-Infinity") == -.infinity)
        #expect(PythonText.float("nan")?.isNaN == true)
        #expect(PythonText.float("١.٥") == 1.5)
        #expect(PythonText.float(" 2 ") == 2)
        #expect(PythonText.float(".") == nil)
        #expect(PythonText.float("1e") == nil)
        #expect(PythonText.float("1_e5") == nil)
    }

    @Test func digitsOfAnyScript() {
        #expect(PythonText.isDigit("²"))
        #expect(PythonText.isDigit("٣"))
        #expect(PythonText.isDigit("①"))
        #expect(!PythonText.isDigit("x"))
    }

    @Test func internalCommandsArguments() {
        #expect(LibinputInternalCommand.problem(["ws_up"]) == nil)
        #expect(LibinputInternalCommand.problem(["-w", "--cols", "3", "ws_left_up"]) == nil)
        #expect(LibinputInternalCommand.problem(["-wc3", "ws_right"]) == nil)
        #expect(LibinputInternalCommand.problem(["--co", "3", "ws_up"]) == "ambiguous option: --co could match --cols, --col")
        #expect(LibinputInternalCommand.problem(["ws_left_up"]) == "\"--cols\" must be specified")
        #expect(LibinputInternalCommand.problem(["--cols", "0", "ws_up"]) == "\"--cols\" must be >= 1")
        #expect(LibinputInternalCommand.problem(["ws_sideways"])?.hasPrefix("argument action: invalid choice: 'ws_sideways'") == true)
        #expect(LibinputInternalCommand.problem(["-h"]) == "-h/--help: argparse prints the help and exits, so libinput-gestures stops there")
        #expect(LibinputInternalCommand.problem([]) == "the following arguments are required: action")
    }
}
