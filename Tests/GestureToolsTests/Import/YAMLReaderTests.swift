import Testing
@testable import GestureTools

@Suite("YAML as libyaml reads it")
struct YAMLReaderTests {
    func read(_ text: String) -> YAMLReader.Documents { YAMLReader.read(Array(text.utf8)) }

    @Test func aliasesAndMergeKeys() {
        let docs = read("base: &b\n  command: x\n  interval: 1\nswipe:\n  3:\n    left:\n      <<: *b\n      interval: 2\n")
        let left = docs.roots[0]?.pairs?[1].value.pairs?[0].value.pairs?[0].value.pairs ?? []
        #expect(left.map { $0.key.scalar ?? "" }.sorted() == ["command", "interval"])
        #expect(left.first { $0.key.scalar == "interval" }?.value.scalar == "2")
        #expect(docs.failure == nil)
    }

    @Test func tabsAfterValuesAsFusumaAcceptsThem() {
        let docs = read("swipe:\n  3:\n    left:\t\n      command: 'a'\t\n")
        #expect(docs.failure == nil)
        #expect(docs.roots.count == 1)
    }

    @Test func theLaterOfTwoEqualKeysIsKept() {
        let docs = read("a: 1\na: 2\n")
        #expect(docs.roots[0]?.pairs?.map { $0.value.scalar } == ["2"])
        #expect(docs.duplicates.count == 1)
        #expect(docs.duplicates.first?.line == 2)
        #expect(docs.duplicates.first?.earlier == 1)
    }

    @Test func aSyntaxErrorKeepsWhatCameBefore() {
        let docs = read("swipe:\n  3:\n    left:\n      command: a\n  bad: [\n")
        #expect(docs.failure?.line == 6)
        #expect(docs.roots.first??.pairs?.first?.key.scalar == "swipe")
    }

    @Test func deepNestingStops() {
        let docs = read(String(repeating: "[", count: 10_000))
        #expect(docs.failure == YAMLReader.Failure(line: 1, message: "nested deeper than 256 levels; no configuration nests so deep"))
    }

    @Test func aliasesThatCopyEachOtherStop() {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        var previous = "a"
        for n in 0..<9 {
            let name = "b\(n)"
            text += "\(name): &\(name) [*\(previous), *\(previous), *\(previous), *\(previous), *\(previous), *\(previous), *\(previous), *\(previous), *\(previous), *\(previous)]\n"
            previous = name
        }
        let docs = read(text)
        #expect(docs.failure?.message.hasPrefix("more than 250000 nodes once aliases are expanded") == true)
    }

    @Test func anUnknownAliasIsAnError() {
        #expect(read("a: *nowhere\n").failure?.message == "the alias *nowhere names no anchor (&nowhere) before it")
    }
}
