import Testing
@testable import GestureTools

/// The stroke button from Easystroke's preferences file, as `PrefDB::serialize` reads it.
@Suite("Easystroke's preferences")
struct EasystrokePreferencesTests {
    @Test func version14WithExceptions() {
        // PrefDB 14: a map of exceptions (Gimp: strokes off, a null ButtonInfo), then the button, ButtonInfo 3: the right one.
        let prefs = EasystrokePreferences.read(Array("22 serialization::archive 10 0 14 0 0 1 0 0 0 4 Gimp 0 1 -1 1 3\n0 3 0 0 0 1 0".utf8), path: "p")
        #expect(prefs.number == 3)
        #expect(prefs.source == "from p")
        #expect(prefs.exceptions == ["Gimp"])
        #expect(prefs.warnings == ["p: warning: Easystroke takes no strokes, or strokes of another button, in 1 application (Gimp); gesturemap's rules take them there too, since a rule cannot leave one application out"])
    }

    @Test func version10WithTheOldNumberAndModifiers() {
        // PrefDB 10: a set of names, the sensitivity Easystroke 0.4 kept, then ButtonInfo 2: button 1 with Control held.
        let prefs = EasystrokePreferences.read(Array("22 serialization::archive 5 0 10 0 0 0 0 5.0e-01 0 2 1 4 0".utf8), path: "p")
        #expect(prefs.number == 1)
        #expect(prefs.exceptions == [])
        #expect(prefs.warnings == ["p: warning: Easystroke's stroke button is button 1 with modifier keys held (mask 0x4); gesturemap's stroke button takes no modifier keys, so the rules take strokes made without them too"])
    }

    @Test func aFileEasystrokeCannotReadLeavesTheMiddleButton() {
        let prefs = EasystrokePreferences.read(Array("22 serialization::archive 10 0 14 0 0 1".utf8), path: "p")
        #expect(prefs.number == 2)
        #expect(prefs.warnings == ["p:1: warning: the archive ends where the item version of the exceptions belongs: it is cut short; Easystroke cannot read it either and takes the middle button, and so does the import"])
    }
}
