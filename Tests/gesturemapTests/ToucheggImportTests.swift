import Foundation
import Testing

/// `gesturemap import` of Touchégg files reads them as Touchégg 2.x does
/// (pugixml, then its loader's exact comparisons): each binding runs what
/// Touchégg runs, or nothing, with a warning naming its line.
@Suite("import of Touchégg files, class by class")
struct ToucheggImportTests {
    func importing(_ text: String) throws -> (Binary.Result, String) {
        let file = try Binary.temporaryFile("touchegg.conf", text)
        return (try Binary.run(["import", file.path]), file.path)
    }

    func live(_ r: Binary.Result) -> [String] { r.lines.filter { $0.hasPrefix("on(") || $0.hasPrefix("for ") } }

    @Test func aCommandIsItsFirstPieceOfText() throws {
        let (r, _) = try importing("""
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>notify-send hello<!-- --> ; touch ~/PWNED</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="DOWN"><action type="RUN_COMMAND"><command>echo a<![CDATA[; rm x]]></command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="LEFT"><action type="RUN_COMMAND"><command>echo b<?pi x?>; rm y</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="RIGHT"><action type="RUN_COMMAND"><command>rm -rf &dir;/thumbs &amp;&#65;</command></action></gesture>
          </application>
        </touchégg>
        """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(live(r) == [
            "on(\"3-finger swipe up\", function(g) shell(\"notify-send hello\") end)",
            "on(\"3-finger swipe down\", function(g) shell(\"echo a\") end)",
            "on(\"3-finger swipe left\", function(g) shell(\"echo b\") end)",
            "on(\"3-finger swipe right\", function(g) shell(\"rm -rf &dir;/thumbs &A\") end)",
        ])
    }

    @Test func typesDirectionsAndCountsAreComparedAsWritten() throws {
        let (r, path) = try importing("""
        <touchégg>
          <application name="All">
            <gesture type="swipe" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>a</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="ALL"><action type="RUN_COMMAND"><command>b</command></action></gesture>
            <gesture type="PINCH" fingers=" 3" direction="IN"><action type="RUN_COMMAND"><command>c</command></action></gesture>
            <gesture type="TAP" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>d</command></action></gesture>
            <gesture type="DOUBLE_TAP" fingers="2"><action type="RUN_COMMAND"><command>e</command></action></gesture>
          </application>
        </touchégg>
        """)
        #expect(r.status == 0)
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "\(path):3: warning: <gesture type=\"swipe\" fingers=\"3\" direction=\"UP\"> RUN_COMMAND: written commented out: type=\"swipe\": Touchégg compares gesture types exactly, letter case too (SWIPE, PINCH, TAP), so it never runs this; write type=\"SWIPE\"",
            "\(path):4: warning: <gesture type=\"SWIPE\" fingers=\"3\" direction=\"ALL\"> RUN_COMMAND: written commented out: a swipe's direction is UP, DOWN, LEFT or RIGHT, written so, not \"ALL\": Touchégg 2.x never runs this (Touchégg 1.x's direction=\"ALL\", every direction, is gesturemap's \"N-finger swipe\": write that rule by hand)",
            "\(path):5: warning: <gesture type=\"PINCH\" fingers=\" 3\" direction=\"IN\"> RUN_COMMAND: written commented out: fingers=\" 3\" is no finger count as Touchégg compares it (the number written plainly, as in fingers=\"3\"), so it never runs this",
            "\(path):6: warning: <gesture type=\"TAP\" fingers=\"3\" direction=\"UP\"> RUN_COMMAND: written commented out: Touchégg looks a tap up with no direction, so a TAP with direction=\"UP\" never runs; leave the direction out",
            "\(path):7: warning: <gesture type=\"DOUBLE_TAP\" fingers=\"2\"> RUN_COMMAND: written commented out: type=\"DOUBLE_TAP\" is no gesture type of Touchégg 2.x (SWIPE, PINCH, TAP; DRAG reads as SWIPE), so it never runs this; 1.x's DOUBLE_TAP is gesturemap's \"N-finger double tap\": write that rule by hand",
        ])
    }

    @Test func settingsAreComparedAsWritten() throws {
        let (r, path) = try importing("""
        <touchégg>
          <application name="All">
            <gesture type="TAP" fingers="2"><action type="SEND_KEYS"><modifiers> Control_L</modifiers><keys>t</keys></action></gesture>
            <gesture type="TAP" fingers="3"><action type="RUN_COMMAND"><times>many</times><command>x</command></action></gesture>
            <gesture type="TAP" fingers="4"><action type="SEND_KEYS"><modifiers>Control_L</modifiers><modifiers>Shift_L</modifiers><keys>t</keys></action></gesture>
          </application>
        </touchégg>
        """)
        #expect(live(r) == ["on(\"4-finger tap\", function(g) key(\"Shift_L+t\") end)"])
        #expect(r.errorLines == [
            "\(path):3: warning: <gesture type=\"TAP\" fingers=\"2\"> SEND_KEYS: written commented out: SEND_KEYS names the key \" Control_L\", white space included: Touchégg looks it up in X as written, finds none and presses nothing for it; write Control_L",
            "\(path):4: warning: <gesture type=\"TAP\" fingers=\"3\"> RUN_COMMAND: written commented out: <times>many</times> is no number: Touchégg's std::stoi throws on it as the gesture begins, so the action never runs",
        ])
    }

    @Test func aLaterBindingReplacesAnEarlierOneAndAnApplicationsOwnComesFirst() throws {
        let (r, path) = try importing("""
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>first</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="RUN_COMMAND"><command>four</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>second</command></action></gesture>
          </application>
          <application name="Firefox">
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="MAXIMIZE_RESTORE_WINDOW"/></gesture>
          </application>
        </touchégg>
        """)
        #expect(live(r) == [
            "on(\"4-finger swipe up\", function(g) shell(\"four\") end)",
            "on(\"3-finger swipe up\", function(g) shell(\"second\") end)",
            "on(\"4-finger swipe up\", function(g) end, { app = \"^Firefox$\" })",
        ])
        #expect(r.errorLines == [
            "\(path):3: warning: <gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\"> RUN_COMMAND: written commented out: overridden: line 5 binds the same gesture again, and the later one is the one that runs, there as here",
            "\(path):8: warning: <gesture type=\"SWIPE\" fingers=\"4\" direction=\"UP\"> MAXIMIZE_RESTORE_WINDOW in Firefox: written as a rule that does nothing: Touchégg's MAXIMIZE_RESTORE_WINDOW is a window-manager action gesturemap has no equivalent for; so that the broader rule of line 4 does not run in its place: the tool looks this binding up first, and runs that one only where this one is missing",
        ])
        // In Firefox the rule for every application stays out, as in Touchégg.
        let rules = try Binary.temporaryFile("rules.lua", r.stdout)
        let inFirefox = try Binary.synthThenRun(["4-finger swipe up"], seed: 1, run: ["--rules", rules.path, "--dry-run", "--no-keyboards", "--app", "firefox"])
        #expect(!inFirefox.stdout.contains("four"), "\(inFirefox.stdout)")
    }

    @Test func aFileTouchéggRefusesImportsNothingLive() throws {
        let (r, path) = try importing("<touchégg>\n<application name=\"All\">\n<gesture type=\"TAP\" fingers=\"2\"><action type=\"RUN_COMMAND\"><command>a</command></action></gesture>\n</applicaton>\n</touchégg>\n")
        #expect(r.status == 65)
        #expect(live(r).isEmpty)
        #expect(r.lines.contains("--   not imported: Touchégg refuses this file (line 4: Start-end tags mismatch) and runs none of it"))
        #expect(r.errorLines.last == "\(path):4: XML: Start-end tags mismatch; Touchégg refuses the whole file and runs none of it, so nothing is imported live: fix the XML here")
    }

    @Test func bytesThatAreNotUTF8AreNeverRunAsOtherBytes() throws {
        var bytes = Array("<touchégg>\n<application name=\"All\">\n<gesture type=\"TAP\" fingers=\"2\"><action type=\"RUN_COMMAND\"><command>echo \u{1}</command></action></gesture>\n</application>\n</touchégg>\n".utf8)
        bytes[bytes.firstIndex(of: 1) ?? 0] = 0xFF
        let file = try Binary.temporaryFile("touchegg.conf", "")
        try Data(bytes).write(to: file)
        let r = try Binary.run(["import", file.path])
        #expect(r.status == 0)
        #expect(live(r).isEmpty)
        #expect(r.errorLines == [
            "\(file.path):3: warning: bytes that are not UTF-8; Touchégg passes them on as they are, and a binding that would run them is written commented out",
            "\(file.path):3: warning: <gesture type=\"TAP\" fingers=\"2\"> RUN_COMMAND: written commented out: the command has bytes that are not UTF-8; Touchégg runs them as they are, but gesturemap's shell() takes text, so it would run other bytes",
        ])
    }

    /// Every application of a list is one rule, and a list several gestures share is written once.
    @Test func theOutputGrowsWithTheFileNotWithItsListsTimesItsGestures() throws {
        let names = (1...300).map { "app\($0)" }.joined(separator: ",")
        let gestures = (1...200).map { n in
            "<gesture type=\"SWIPE\" fingers=\"\(n % 4 + 2)\" direction=\"\(["UP", "DOWN", "LEFT", "RIGHT"][n % 4])\"><action type=\"RUN_COMMAND\"><command>run \(n)</command></action></gesture>"
        }.joined(separator: "\n")
        let text = "<touchégg><application name=\"\(names)\">\n\(gestures)\n</application></touchégg>\n"
        let (r, _) = try importing(text)
        #expect(r.status == 0)
        #expect(r.stdout.utf8.count < 4 * text.utf8.count, "\(r.stdout.utf8.count) bytes of Lua from \(text.utf8.count)")
        #expect(r.lines.filter { $0.hasPrefix("apps[1] = {") }.count == 1)
        #expect(r.lines.contains("for _, list in ipairs(apps[1]) do on(\"2-finger swipe up\", function(g) shell(\"run 200\") end, { app = list }) end"))
        let rules = try Binary.temporaryFile("rules.lua", r.stdout)
        let inOne = try Binary.synthThenRun(["2-finger swipe up"], seed: 1, run: ["--rules", rules.path, "--dry-run", "--no-keyboards", "--app", "APP250"])
        #expect(inOne.lines.contains { $0.contains("\"run 200\"") }, "\(inOne.stdout) \(inOne.stderr)")
    }

    /// pugixml reads no DTD: entities stay as written, nothing is fetched or included.
    @Test func entityExpansionAndInclusionAreNotDone() throws {
        var laughs = "<!DOCTYPE touchégg [<!ENTITY lol \"lol\">"
        for n in 1...9 { laughs += "<!ENTITY lol\(n) \"" + String(repeating: "&lol\(n - 1 == 0 ? "" : String(n - 1));", count: 10) + "\">" }
        let (r, _) = try importing("""
        <?xml version="1.0"?>
        \(laughs)<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <touchégg xmlns:xi="http://www.w3.org/2001/XInclude">
          <application name="All">
            <gesture type="TAP" fingers="2"><action type="RUN_COMMAND"><command>echo &lol9;</command></action></gesture>
            <gesture type="TAP" fingers="3"><action type="RUN_COMMAND"><command>echo &xxe;</command></action></gesture>
            <gesture type="TAP" fingers="4"><action type="RUN_COMMAND"><command>echo <xi:include href="/etc/passwd" parse="text"/>done</command></action></gesture>
          </application>
        </touchégg>
        """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(live(r) == [
            "on(\"2-finger tap\", function(g) shell(\"echo &lol9;\") end)",
            "on(\"3-finger tap\", function(g) shell(\"echo &xxe;\") end)",
            "on(\"4-finger tap\", function(g) shell(\"echo \") end)",
        ])
        #expect(!r.stdout.contains("root:"))
    }
}
