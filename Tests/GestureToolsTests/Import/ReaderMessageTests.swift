import Testing
@testable import GestureTools

/// What each reader says about input it cannot use, word for word, and that it imports the rest.
@Suite("import's messages")
struct ReaderMessageTests {
    func read(_ text: String, _ format: ImportFormat? = nil) throws -> ImportResult {
        try ConfigImporter.read(Array(text.utf8), name: "in", format: format).get()
    }

    /// In the file's order, as the command prints them.
    func messages(_ result: ImportResult) -> [String] {
        result.diagnostics.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map { $0.element.rendered(file: "in") }
    }

    func failure(_ bytes: [UInt8]) -> ConfigImporter.Failure? {
        if case .failure(let f) = ConfigImporter.read(bytes, name: "in", format: nil) { return f }
        return nil
    }

    @Test func emptyAndBinaryFiles() {
        #expect(failure([]) == .empty)
        #expect(ConfigImporter.Failure.empty.message == "the file is empty: there is nothing to import")
        #expect(failure(Array("swipe:\n\u{0}\u{1}".utf8)) == .binary(line: 2))
        #expect(failure(Array("hello\n".utf8)) == .unknownFormat)
        #expect(ConfigImporter.Failure.unknownFormat.message == "cannot tell whether this is a fusuma, Touchégg or libinput-gestures configuration or Easystroke's actions file; give --format fusuma, touchegg, libinput-gestures or easystroke")
    }

    @Test func libinputGesturesLinesItCannotUse() throws {
        let result = try read("""
        gesture swipe left 3 xdotool key alt+Right
        gesture wave left 3 foo
        foo bar
        gesture pinch sideways 2 x
        gesture swipe up 3 echo "unclosed
        gesture swipe
        swipe_threshold many
        timeout -1
        gesture swipe left 6 xdotool key alt+Left
        gesture swipe right 5 xdotool key alt+Left
        """)
        #expect(messages(result) == [
            "in:2: unknown gesture \"wave\"; libinput-gestures knows swipe, pinch, hold and drag",
            "in:3: unknown setting \"foo\"; libinput-gestures knows gesture, device, swipe_threshold and timeout, and stops at this line",
            "in:4: gesture pinch does not take the motion \"sideways\"; it takes anticlockwise, clockwise, in, out",
            "in:5: the command cannot be split into words: a quotation mark is not closed",
            "in:6: a gesture line needs a type, a motion and a command, as in: gesture swipe left 3 xdotool key alt+Right",
            "in:7: swipe_threshold takes a whole number of libinput's units, 0 or more, not \"many\"; libinput-gestures stops at this line",
            "in:8: timeout takes seconds, 0 or more, not \"-1\"; libinput-gestures stops at this line",
        ])
        #expect(result.bindings.map(\.line) == [1, 9, 10])
        // libinput-gestures stops at the first of them: nothing of the file runs.
        #expect(result.bindings.allSatisfy { $0.action == .unsupported("libinput-gestures stops at line 2 with an error and runs nothing of the file") })
    }

    @Test func libinputGesturesCommandsAsTheToolRanThem() throws {
        let result = try read("""
        gesture: swipe left\t3 xdotool key super+Right # next
        gesture pinch clockwise 2 notify-send "a b" 'c d'
        gesture hold on+1.5 4 _internal ws_up
        timeout 0.8
        gesture swipe up 3 ~/bin/x "a b" $HOME
        """)
        #expect(result.bindings[3].action == .exec(["/bin/sh", "-c", "exec ~/'bin/x' \"$@\"", "sh", "a b", "$HOME"]))
        #expect(result.bindings[2].phase == .ended)
        #expect(result.bindings[0].action == .exec(["xdotool", "key", "super+Right", "#", "next"]))
        #expect(result.bindings[1].kind == .rotate && result.bindings[1].direction == "clockwise")
        #expect(result.bindings[1].action == .exec(["notify-send", "a b", "c d"]))
        #expect(result.bindings[2].kind == .longPress && !result.bindings[2].isLive)
        #expect(result.settings.first?.key == "swipe_max_duration" && result.settings.first?.value == 0.8)
    }

    @Test func fusumaSectionsItCannotUse() throws {
        let result = try read("""
        swipe:
          3:
            left:
              command: 'xdotool key alt+Right'
              swipe: 0.25
          7:
            up:
              command: b
        zoom:
          2:
            in:
              command: c
        swipe:
          4:
            up:
              sendkey: LEFTCTRL+NOSUCHKEY
        """, .fusuma)
        #expect(messages(result) == [
            "in:9: warning: unknown section \"zoom\"; fusuma ignores it, and so does import (sections: swipe, pinch, rotate, hold, tap, threshold, interval, plugin, context)",
            "in:13: the key \"swipe\" is given twice (first at line 1); fusuma refuses a file whose first document repeats a key (\"Detect duplicate keys\") and runs none of it: remove one",
        ])
        // fusuma exits on the repeated key; the later section is the one read, and written commented out.
        #expect(result.bindings.map(\.action) == [.unsupported("fusuma refuses this file (line 13) and runs none of it")])
        #expect(result.bindings.first?.line == 16)
    }

    @Test func fusumaOptionsItDoesNotKnow() throws {
        let result = try read("swipe:\n  3:\n    left:\n      command: a\n      swipe: 0.25\n      threshhold: 2\n", .fusuma)
        #expect(messages(result) == [
            "in:5: warning: swipe 3 left: swipe: 0.25 is no action or option fusuma knows; it ignores it, and so does import",
            "in:6: warning: swipe 3 left: threshhold: 2 is no action or option fusuma knows; it ignores it, and so does import",
        ])
        #expect(result.bindings.map(\.action) == [.shell("a")])
    }

    @Test func fusumaYAMLErrorsImportNothingLive() throws {
        let result = try read("swipe:\n  3:\n    left:\n      command: a\n  4: [\n", .fusuma)
        #expect(messages(result) == [
            "in:5: warning: swipe 4: should hold directions or actions, not a list; ignored",
            "in:6: YAML: did not find expected node content while parsing a flow node; fusuma refuses the file and runs none of it, so nothing is imported live: fix the YAML here",
        ])
        #expect(result.bindings.map(\.action) == [.unsupported("fusuma refuses this file (line 6) and runs none of it")])
    }

    @Test func fusumaContextsAndKeypress() throws {
        let result = try read("""
        swipe:
          3:
            left:
              sendkey: LEFTALT+LEFT
              keypress:
                LEFTSHIFT:
                  command: x
                SHIFT:
                  command: y
        ---
        context:
          application: Google-chrome
        pinch:
          in:
            command: z
        ---
        context:
          thumbsense: true
        tap:
          1:
            command: w
        """)
        #expect(result.bindings.map(\.action) == [
            .keys(["KEY_LEFTALT+KEY_LEFT"]), .shell("x"),
            .unsupported("fusuma-plugin-keypress reports LEFTSHIFT or RIGHTSHIFT, never SHIFT, so fusuma never runs this binding"),
            .shell("z"),
            .unsupported("fusuma's context thumbsense: true has no gesturemap equivalent (gesturemap limits rules by application, held keys and mode)"),
        ])
        #expect(result.bindings[1].modifiers == "shift")
        #expect(result.bindings[3].apps?.names == ["Google-chrome"] && result.bindings[3].fingers == nil)
        #expect(LuaRulesWriter.write(result, sourceName: "in").contains("on(\"any-finger pinch in\", function(g) shell(\"z\") end, { app = \"^Google%-chrome$\" })"))
    }

    @Test func toucheggElementsItCannotUse() throws {
        let result = try read("""
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="SIDEWAYS"><action type="RUN_COMMAND"><command>a</command></action></gesture>
            <gesture type="WAVE" fingers="3"><action type="RUN_COMMAND"><command>b</command></action></gesture>
            <gesture type="SWIPE" direction="UP"><action type="RUN_COMMAND"><command>c</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="SEND_KEYS"><modifiers>Control_L</modifiers><keys>Right</keys></action></gesture>
            <gesture type="TAP" fingers="2"><action type="MAXIMIZE_RESTORE_WINDOW"/></gesture>
          </application>
          <action type="RUN_COMMAND"/>
        </touchégg>
        """)
        #expect(messages(result) == ["in:9: warning: <action> is neither <settings> nor <application>; Touchégg ignores it, and so does import"])
        #expect(result.bindings.map(\.action) == [
            .unsupported("a swipe's direction is UP, DOWN, LEFT or RIGHT, written so, not \"SIDEWAYS\": Touchégg 2.x never runs this"),
            .unsupported("type=\"WAVE\" is no gesture type of Touchégg 2.x (SWIPE, PINCH, TAP; DRAG reads as SWIPE), so it never runs this"),
            .unsupported("fingers=\"\" is no finger count as Touchégg compares it (the number written plainly, as in fingers=\"3\"), so it never runs this"),
            .keys(["Control_L+Right"]),
            .unsupported("Touchégg's MAXIMIZE_RESTORE_WINDOW is a window-manager action gesturemap has no equivalent for"),
        ])
        #expect(result.bindings[1].kind == .other)
    }

    @Test func toucheggBrokenXML() throws {
        let result = try read("<touchégg>\n<application name=\"All\">\n<gesture type=\"TAP\" fingers=\"2\"><action type=\"RUN_COMMAND\"><command>a</command></action></gesture>\n</applicaton>\n</touchégg>\n")
        #expect(messages(result) == ["in:4: XML: Start-end tags mismatch; Touchégg refuses the whole file and runs none of it, so nothing is imported live: fix the XML here"])
        #expect(result.bindings.map(\.action) == [.unsupported("Touchégg refuses this file (line 4: Start-end tags mismatch) and runs none of it")])
    }

    @Test func toucheggDeepNesting() throws {
        // pugixml reads any depth without recursion; Touchégg looks only three levels down.
        let deep = "<touchégg>" + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000) + "</touchégg>"
        let result = try read(deep, .touchegg)
        #expect(messages(result) == ["in:1: warning: <a> is neither <settings> nor <application>; Touchégg ignores it, and so does import"])
        #expect(result.bindings.isEmpty)
    }

    @Test func cppNumbersThrowAsStoiAndStoull() {
        #expect(!CppNumbers.stoiThrows(Array(" \t-12abc".utf8)))
        #expect(CppNumbers.stoiThrows(Array("abc".utf8)))
        #expect(CppNumbers.stoiThrows(Array("2147483648".utf8)))
        #expect(!CppNumbers.stoiThrows(Array("-2147483648".utf8)))
        #expect(CppNumbers.stoiThrows(Array("+".utf8)))
        #expect(!CppNumbers.stoullThrows(Array("-5".utf8)))
        #expect(CppNumbers.stoullThrows(Array("18446744073709551616".utf8)))
        #expect(CppNumbers.stoullThrows(Array("".utf8)))
    }

    @Test func fiveFingersAreGesturemaps() throws {
        let result = try read("swipe:\n  5:\n    up:\n      command: a\nhold:\n  5:\n    command: b\n")
        #expect(result.bindings.allSatisfy { $0.isLive })
        #expect(result.bindings.map(LuaRulesWriter.phrase) == ["5-finger swipe up", "5-finger long press"])
    }
}
