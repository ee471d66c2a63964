import Testing
@testable import GestureTools

/// Easystroke's actions file, read as Easystroke loads it, written as rules.
@Suite("import of Easystroke's actions file")
struct EasystrokeImportTests {
    func lua(_ archive: String, strokeButton: Int = 2, shapes: Bool = false) -> [String] {
        let result = EasystrokeImport.read(Array(archive.utf8), strokeButton: strokeButton, shapesLive: shapes)
        return EasystrokeRulesWriter.write(result, sourceName: "a", shapesFile: shapes ? "a.shapes.jsonl" : nil)
            .split(separator: "\n").map(String.init)
    }

    func messages(_ archive: String) -> [String] {
        EasystrokeImport.read(Array(archive.utf8), shapesLive: false).diagnostics.map { $0.rendered(file: "a") }
    }

    @Test func currentVersionsWithAnApplicationList() {
        let out = lua(EasystrokeFixtures.current)
        #expect(out.contains("config{ share_mice = true, stroke_button = \"middle\" }"))
        #expect(out.contains("-- 6 rules: 4 imported, 1 commented out, 1 written as rules that do nothing."))
        #expect(out.contains("on({ kind = \"stroke\", direction = \"left\" }, function(g) shell(\"firefox\") end, { description = \"browser\" })"))
        #expect(out.contains("on({ kind = \"stroke\", direction = \"up\" }, function(g) key(\"shift+ctrl+t\") end, { description = \"tab\" })"))
        #expect(out.contains("-- a:11: \"reopen\": SendText hi"))
        #expect(out.contains("-- on({ kind = \"chord\", button = \"middle\", press = \"right\" }, function(g) end, { description = \"reopen\" })"))
        // Firefox's list: its own action for "tab" (name and stroke inherited), a new stroke, and "browser" deleted.
        #expect(out.contains("on({ kind = \"stroke\", direction = \"up\" }, function(g) key(\"alt+Left\") end, { app = \"^Firefox$\", description = \"tab\" })"))
        #expect(out.contains("on({ kind = \"stroke\", direction = \"down\" }, function(g) shell(\"xdotool key ctrl+w\") end, { app = \"^Firefox$\", description = \"close\" })"))
        #expect(out.contains("--   does nothing here: its list deletes that stroke, so Easystroke runs nothing for it in this application"))
        #expect(out.contains("on({ kind = \"stroke\", direction = \"left\" }, function(g) end, { app = \"^Firefox$\", description = \"browser\" })"))
        #expect(messages(EasystrokeFixtures.current) == ["a:14: warning: Easystroke looks a window's list up by its WM_CLASS instance name (the first of xprop's two), and gesturemap's app by the class (the second), in either case: for Firefox, check that each is also its program's class, as `gesturemap apps --watch` prints it (Firefox's instance is Navigator, its class firefox), else change the app pattern to the class"])
        // The instant gesture, inherited unchanged, is not repeated for Firefox.
        #expect(out.filter { $0.contains("press = \"right\"") }.count == 1)
    }

    @Test func olderClassVersions() {
        let out = lua(EasystrokeFixtures.old)
        #expect(messages(EasystrokeFixtures.old) == [])
        // Stroke 2's trigger was the stroke button's number (2): the stroke button.
        #expect(out.contains("on({ kind = \"stroke\", direction = \"right\" }, function(g) key(\"ctrl+c\") end)"))
        #expect(out.contains("--   not imported: Easystroke's Show/Hide action shows its own window"))
        #expect(out.contains("-- on({ kind = \"stroke\", direction = \"down\" }, function(g) end)"))
    }

    @Test func namesFromTheMapTriggersTimeoutsAndInstantGestures() {
        let out = lua(EasystrokeFixtures.named)
        #expect(out.contains("on({ kind = \"stroke\", button = \"right\", direction = \"left\" }, function(g) shell(\"xdotool key alt+Left\") end, { description = \"back\" })"))
        #expect(out.contains("--   not imported: a timeout gesture (the button held still), which gesturemap leaves to the desktop as a long press"))
        #expect(out.contains("-- on({ kind = \"chord\", button = \"middle\", press = \"left\" }, function(g) end, { description = \"menu\" })"))
        #expect(out.contains { $0.hasPrefix("--   not imported: a click of button 3, which Easystroke makes where the stroke ended") })
    }

    @Test func thePreferencesButtonDecidesWhatTheStrokeButtonIs() {
        let out = lua(EasystrokeFixtures.current, strokeButton: 3)
        #expect(out.contains("config{ share_mice = true, stroke_button = \"right\" }"))
        // An instant gesture of the right button with the right button held is that click alone, no chord.
        #expect(out.contains("--   not imported: a click of button 3, the stroke button, alone: Easystroke matches it only while that button acts at once (instant) and draws no strokes, and a rule for it would take every click of it from the desktop"))
        #expect(out.filter { $0.hasPrefix("--   not imported: a click of button 3, the stroke button, alone") }.count == 1)
    }

    @Test("an additional button acting alone (trigger and button 8) is the side button's click; the wheel alone (4) stays commented out, with why")
    func additionalButtonsAlone() {
        let instant = "11 0 1 3 0 0 32768"
        #expect(EasystrokeFixtures.current.contains(instant))
        let side = lua(EasystrokeFixtures.current.replacingOccurrences(of: instant, with: "11 0 1 8 8 0 32768"))
        // Its action types text, which no rule does: commented out for that alone.
        #expect(side.contains { $0.hasPrefix("-- on({ kind = \"click\", button = \"side\" }, ") }, "\(side)")
        #expect(!side.contains { $0.contains("alone") })
        let wheel = lua(EasystrokeFixtures.current.replacingOccurrences(of: instant, with: "11 0 1 4 4 0 32768"))
        #expect(wheel.contains("--   not imported: a turn of the wheel up alone (an additional button Easystroke acts on at once), and gesturemap's rules take the wheel only with a button or modifier keys held"))
    }

    @Test func strokesReadAsFourOrEightDirectionsOnlyWhenSure() {
        // 20° reads right among 4 directions even turned 15° either way; among 8 it is near the 22.5° border.
        let shallow = lua(EasystrokeArchiveBuilder.archive([(EasystrokeArchiveBuilder.line(degrees: 20), "a")]))
        #expect(shallow.contains("on({ kind = \"stroke\", direction = \"right\" }, function(g) shell(\"a\") end)"))
        // 45° is unsure among 4, sure among 8: the button is read in 8, and the straight stroke beside it reads alike.
        let both = lua(EasystrokeArchiveBuilder.archive([(EasystrokeArchiveBuilder.line(degrees: 45), "a"), (EasystrokeArchiveBuilder.line(degrees: 180), "b")]))
        #expect(both.contains("on({ kind = \"stroke\", direction = \"down-right\" }, function(g) shell(\"a\") end)"))
        #expect(both.contains("on({ kind = \"stroke\", direction = \"left\" }, function(g) shell(\"b\") end)"))
        // A zigzag of five arms is no stroke (four at most): a drawn shape, live only with a shapes file.
        let unsure = EasystrokeArchiveBuilder.archive([([(0, 0), (0.2, 1), (0.4, 0), (0.6, 1), (0.8, 0), (1, 1)], "a")])
        #expect(lua(unsure).contains("--   not imported: its stroke reads as no sure direction, so it is a drawn shape, whose template goes to a shapes file: give --shapes FILE.shapes.jsonl (beside FILE.lua) to import it"))
        #expect(lua(unsure, shapes: true).contains("on({ kind = \"shape\", button = \"middle\", name = \"easystroke-1\" }, function(g) shell(\"a\") end)"))
    }

    @Test func twoEntriesThatReadAlikeAreShapes() throws {
        let archive = EasystrokeArchiveBuilder.archive([(EasystrokeArchiveBuilder.line(degrees: 0), "a"), (EasystrokeArchiveBuilder.line(degrees: 5), "b")])
        let out = lua(archive, shapes: true)
        #expect(out.contains("on({ kind = \"shape\", button = \"middle\", name = \"easystroke-1\" }, function(g) shell(\"a\") end)"))
        #expect(out.contains("on({ kind = \"shape\", button = \"middle\", name = \"easystroke-2\" }, function(g) shell(\"b\") end)"))
        let result = EasystrokeImport.read(Array(archive.utf8), shapesLive: true)
        let lines = EasystrokeRulesWriter.shapesFile(result).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("{\"name\":\"easystroke-1\",\"points\":[[0,0],[6,0],"))
    }

    @Test func keysAsEasystrokePressesThem() {
        #expect(EasystrokeKeys.combo(modifiers: 5, keysym: 0x54) == .success("shift+ctrl+t"))
        // Shifted punctuation is the key that carries it, pressed alone; Mod2 (Num Lock) presses nothing.
        #expect(EasystrokeKeys.combo(modifiers: 1 << 4, keysym: 0x2B) == .success("equal"))
        #expect(EasystrokeKeys.combo(modifiers: 1 << 26, keysym: 0x1008FF13) == .success("super+XF86AudioRaiseVolume"))
        #expect(EasystrokeKeys.combo(modifiers: 0, keysym: 0xE9) == .failure(EasystrokeKeys.Reason("keysym 0xe9 is no key gesturemap's key() names (it knows ASCII, the function keys and the XF86 keys)")))
        #expect(EasystrokeKeys.combo(modifiers: 4, keysym: 0) == .failure(EasystrokeKeys.Reason("the SendKey has no key (keysym 0): Easystroke presses only its modifiers")))
    }

    @Test func anEntryWithNoStrokeIsNeverRun() {
        let archive = "22 serialization::archive 15 0 3 0 1 0 0 0 0 0 0 1 0 0 0 5 1 0\n0 0 1 1 0\n1 0 0 0 1 0 1 10 7 Command 1 0\n2 0 0 2 ls 4 list 7 Default 0 0 0 1 0 0 0 1 0 5 0"
        #expect(messages(archive) == ["a:2: warning: \"list\": Command ls: no stroke is recorded for it, so Easystroke never runs it; nothing to import"])
        #expect(lua(archive).contains("-- 0 rules: 0 imported, 0 commented out."))
    }

    @Test func theFormatIsFoundFromTheSignature() {
        #expect(ImportFormat.detect(Array(EasystrokeFixtures.current.utf8)) == .easystroke)
        #expect(ImportFormat.detect(Array("\n22 serialization::archive 4 0 0".utf8)) == .easystroke)
        #expect(ImportFormat.detect(Array("22 serialization::archiv".utf8)) == nil)
    }
}
