import Foundation
import Testing

/// `gesturemap import` of libinput-gestures files reads them as the Python
/// program does: each binding runs what libinput-gestures runs, or nothing,
/// with a warning naming its line.
@Suite("import of libinput-gestures files, class by class")
struct LibinputGesturesImportTests {
    func importing(_ bytes: [UInt8]) throws -> Binary.Result {
        try Binary.run(["import", "--format", "libinput-gestures", "-"], stdin: Data(bytes))
    }

    func importing(_ text: String) throws -> Binary.Result { try importing(Array(text.utf8)) }

    func live(_ r: Binary.Result) -> [String] { r.lines.filter { $0.hasPrefix("on(") } }

    @Test func aLineTheToolRefusesImportsNothingLive() throws {
        let r = try importing("gesture swipe left 3 echo a\ngesture wave up 3 echo b\ngesture swipe right 3 echo c\n")
        #expect(r.status == 65)
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "stdin:1: warning: gesture swipe left 3 echo a: written commented out: libinput-gestures stops at line 2 with an error and runs nothing of the file",
            "stdin:2: unknown gesture \"wave\"; libinput-gestures knows swipe, pinch, hold and drag",
            "stdin:3: warning: gesture swipe right 3 echo c: written commented out: libinput-gestures stops at line 2 with an error and runs nothing of the file",
        ])
        let internalArguments = try importing("gesture swipe down 3 echo a\ngesture swipe up 3 _internal ws_left_up\n")
        #expect(internalArguments.status == 65)
        #expect(internalArguments.errorLines.last == "stdin:2: _internal: \"--cols\" must be specified; libinput-gestures stops at this line")
        let device = try importing("gesture swipe down 3 echo a\ndevice\n")
        #expect(device.status == 65)
        #expect(device.errorLines.last == "stdin:2: device needs the name of a device, as libinput list-devices gives it; libinput-gestures stops at this line")
    }

    @Test func linesEndAtEveryNewlinePythonReads() throws {
        let r = try importing("gesture swipe left 3 rm -rf /tmp/x\r# gesture swipe left 3 now a comment\r\ngesture swipe right 4 echo one\rgesture swipe right 4 echo two\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(live(r) == [
            "on(\"3-finger swipe left\", function(g) exec({ \"rm\", \"-rf\", \"/tmp/x\" }) end)",
            "on(\"4-finger swipe right\", function(g) exec({ \"echo\", \"two\" }) end)",
        ])
        #expect(r.errorLines == ["stdin:3: warning: gesture swipe right 4 echo one: written commented out: overridden: line 4 binds the same gesture again, and the later one is the one that runs, there as here"])
    }

    @Test func wordsArePythonsAndTheCommandIsShlexs() throws {
        // \x1c and \x0c part words for str.split, not for shlex; U+00A0 the other way round
        // for shlex; a combining mark after a quote leaves it a quote; ſwipe is SWIPE to upper().
        let r = try importing("gesture:\u{1c}swipe\u{0c}right\t3 echo \"\u{301}in\" x\u{a0}y\ngesture ſwipe down 3 echo s\ntimeout 1_0\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(live(r) == [
            "on(\"3-finger swipe right\", function(g) exec({ \"echo\", \"\u{301}in\", \"x\u{a0}y\" }) end)",
            "on(\"3-finger swipe down\", function(g) exec({ \"echo\", \"s\" }) end)",
        ])
    }

    @Test func aDigitLibinputNeverReportsNeverRuns() throws {
        let r = try importing("gesture swipe up ٣ echo three\n")
        #expect(live(r).isEmpty)
        #expect(r.errorLines == ["stdin:1: warning: gesture swipe up ٣ echo three: written commented out: the finger count \"٣\" is a digit to Python, but libinput reports counts as ASCII digits, so libinput-gestures never runs this"])
    }

    @Test func aCountsOwnBindingKeepsTheAnyCountOneOut() throws {
        let r = try importing("gesture swipe down 4 _internal ws_down\ngesture swipe down xdotool key super+d\n")
        #expect(live(r) == ["on(\"4-finger swipe down\", function(g) end)", "on(\"any-finger swipe down\", function(g) key(\"super+d\") end)"])
        #expect(r.errorLines == ["stdin:1: warning: gesture swipe down 4 _internal ws_down: written as a rule that does nothing: libinput-gestures' _internal ws_down switches workspaces through wmctrl, a window-manager action gesturemap has no equivalent for; exec wmctrl or your desktop's command instead; so that the broader rule of line 2 does not run in its place: the tool looks this binding up first, and runs that one only where this one is missing"])
    }

    @Test func whatGesturemapCannotDoTheSameIsCommentedOut() throws {
        let r = try importing("gesture hold on+1.5 4 echo long\ngesture hold on 4 echo short\ngesture swipe up 3 $HOME/bin/x\n")
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "stdin:1: warning: gesture hold on+1.5 4 echo long: written commented out: hold on+1.5: libinput-gestures ran it when the fingers stayed 1.5 s longer; gesturemap's long press has one duration for every rule (long_press_duration), so it cannot wait longer for this one",
            "stdin:2: warning: gesture hold on 4 echo short: written commented out: libinput-gestures runs the hold of line 1 instead when the fingers stay longer; gesturemap's long press has one duration, so it cannot tell the two apart",
            "stdin:3: warning: gesture swipe up 3 $HOME/bin/x: written commented out: libinput-gestures expanded the $VARIABLE in the program's name ($HOME/bin/x) itself, with Python's os.path.expandvars; exec does not: write the path out",
        ])
    }

    @Test func bytesThatAreNotUTF8StopTheTool() throws {
        let r = try importing(Array("gesture swipe left 3 echo a\ngesture swipe up 3 echo ".utf8) + [0xFF, 0x0A])
        #expect(r.status == 65)
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "stdin:1: warning: gesture swipe left 3 echo a: written commented out: libinput-gestures stops at line 2 with an error and runs nothing of the file",
            "stdin:2: bytes that are not UTF-8: libinput-gestures reads the file as UTF-8 text and stops with an error, so it runs nothing of it: save the file as UTF-8",
            "stdin:2: warning: gesture swipe up 3 echo \u{FFFD}: written commented out: libinput-gestures stops at line 2 with an error and runs nothing of the file",
        ])
    }
}
