import Testing
@testable import GestureTools

/// Archives Easystroke cannot load: each a clear message at its line, no
/// rule live, and no cost beyond the file's own size.
@Suite("Easystroke archives that do not load")
struct EasystrokeArchiveTests {
    func refusal(_ archive: String) -> [String] {
        let result = EasystrokeImport.read(Array(archive.utf8), shapesLive: true)
        #expect(result.rules.allSatisfy { !$0.isLive })
        return result.diagnostics.map { $0.rendered(file: "a") }
    }

    static let suffix = "; Easystroke cannot load the file either (\"Couldn't read action database\") and runs none of it, so nothing is imported"

    @Test func aFileCutShort() {
        let cut = String(EasystrokeFixtures.current.prefix(200))
        #expect(refusal(cut) == ["a:8: the archive ends where the item version of points belongs: it is cut short" + Self.suffix])
    }

    @Test func notABoostArchive() {
        #expect(refusal("22 serialization::archivX 17 0 3") == ["a:1: this is no Boost text archive: it starts with something other than \"22 serialization::archive\"" + Self.suffix])
    }

    @Test func wstrokesOwnFormat() {
        #expect(refusal("22 serialization::archive 19 0 5 0 1 0 0 0 0") == ["a:1: ActionDB version 5 is wstroke's own format (actions-wstroke-2), which Easystroke cannot read; import reads Easystroke's actions-0.5.6, which wstroke reads too" + Self.suffix])
    }

    @Test func hostileCountsCostNothing() {
        // A count no file has: read item by item until the archive ends, nothing allocated for it.
        #expect(refusal("22 serialization::archive 17 0 3 0 1 0 0 999999999999999 0 3 1 0 0 3 1") == ["a:1: the archive ends where a class id belongs: it is cut short" + Self.suffix])
        #expect(refusal("22 serialization::archive 17 0 3 0 1 0 0 -5 0") == ["a:1: the number of deleted actions is -5, and a count is never negative" + Self.suffix])
        #expect(refusal("22 serialization::archive 17 0 3 0 1 0 0 99999999999999999999999 0") == ["a:1: the number of deleted actions is too large a number" + Self.suffix])
        #expect(refusal("22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 0 0 4000000000 x") == ["a:1: an action list's name is 4000000000 bytes long, more than the rest of the archive: it is cut short or damaged" + Self.suffix])
    }

    @Test func moreStrokesThanRulesAreRefusedBeforeTheyAreRead() {
        let archive = EasystrokeArchiveBuilder.archive(Array(repeating: ([(0.0, 0.0), (1.0, 0.0)], "x"), count: EasystrokeImport.maxRules + 1))
        let result = EasystrokeImport.read(Array(archive.utf8), shapesLive: true)
        #expect(result.rules.isEmpty)
        #expect(result.diagnostics.map { $0.rendered(file: "a") } == ["a:1: the default list binds 20001 strokes, more than 20000 rules: no configuration has so many, and gesturemap loads at most 1000 rules from one file; nothing is imported"])
    }

    @Test func pointsThatAreNoNumbers() {
        let nan = EasystrokeFixtures.current.replacingOccurrences(of: "1.0 0.5 0.0 0.5", with: "1.0 nan 0.0 0.5")
        #expect(refusal(nan) == ["a:4: a point's y is a number, not \"nan\"" + Self.suffix])
        let huge = EasystrokeFixtures.current.replacingOccurrences(of: "1.0 0.5 0.0 0.5", with: "1.0 1e999 0.0 0.5")
        #expect(refusal(huge) == ["a:4: a point's y is 1e999, which is no finite number" + Self.suffix])
    }

    @Test func listsNestedTooDeep() {
        // Each child: deleted, added, a name, then its own children, 70 deep.
        var text = "22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 0 0 0  0 0 1 1"
        for _ in 0..<70 { text += " 0 0 0 0 0  1 1" }
        #expect(refusal(text) == ["a:1: action lists nested more than 64 deep: no Easystroke configuration is, so the archive is damaged" + Self.suffix])
    }

    @Test func classesEasystrokeDoesNotKnow() {
        let unknown = EasystrokeFixtures.current.replacingOccurrences(of: "14 7 Command", with: "14 7 Exploit")
        #expect(refusal(unknown) == ["a:4: class \"Exploit\" is no Action Easystroke knows (Button, Command, Ignore, Misc, ModAction, Scroll, SendKey, SendText); Easystroke refuses the file" + Self.suffix])
        let skipped = EasystrokeFixtures.current.replacingOccurrences(of: "14 7 Command", with: "40 7 Command")
        #expect(refusal(skipped) == ["a:4: class id 40 is neither a class read before (0 to 13) nor the next new one (14); the archive is damaged" + Self.suffix])
        // A Stroke's class id where an action belongs.
        let misplaced = EasystrokeFixtures.current.replacingOccurrences(of: "32768 16 7 SendKey", with: "32768 10")
        #expect(refusal(misplaced) == ["a:8: class id 10 is Stroke, where an Action pointer belongs; the archive is damaged" + Self.suffix])
        // Object 1 is a StrokeSet, not an entry's Unique.
        let wrongObject = EasystrokeFixtures.current.replacingOccurrences(of: "1 0 5 0 2 0 5 4", with: "1 0 5 1 2 0 5 4")
        #expect(refusal(wrongObject) == ["a:14: object id 1 is no Unique, where one belongs; the archive is damaged" + Self.suffix])
    }
}
