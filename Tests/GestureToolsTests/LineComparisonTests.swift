import Testing
import GestureEngine
@testable import GestureTools

@Suite("JSON lines compared by meaning")
struct LineComparisonTests {
    @Test("key order is ignored, values are not")
    func keyOrder() {
        let a = OutputLine(#"{"action":"next","t":1.5,"page":2}"#)
        #expect(a.matches(OutputLine(#"{"page":2,"t":1.5,"action":"next"}"#)))
        #expect(!a.matches(OutputLine(#"{"action":"next","t":1.5,"page":3}"#)))
        #expect(!a.matches(OutputLine(#"{"action":"next","t":1.5}"#)))
        #expect(!a.matches(OutputLine(#"{"action":"next","t":1.5,"page":2,"extra":null}"#)))
    }

    @Test("t matches within one millisecond, and only t")
    func timeTolerance() {
        let a = OutputLine(#"{"action":"x","t":1.000,"v":1.000}"#)
        #expect(a.matches(OutputLine(#"{"action":"x","t":1.001,"v":1.000}"#)))
        #expect(a.matches(OutputLine(#"{"action":"x","t":0.999,"v":1}"#)))
        #expect(!a.matches(OutputLine(#"{"action":"x","t":1.0015,"v":1}"#)))
        #expect(!a.matches(OutputLine(#"{"action":"x","t":1.000,"v":1.0005}"#)))
        // Nested t is data, not the gesture's time.
        #expect(!OutputLine(#"{"a":{"t":1}}"#).matches(OutputLine(#"{"a":{"t":1.0005}}"#)))
    }

    @Test("lines that are not JSON compare as text")
    func text() {
        #expect(OutputLine("not json").matches(OutputLine("not json")))
        #expect(!OutputLine("not json").matches(OutputLine(#"{"not":"json"}"#)))
        #expect(!OutputLine(#"{"a":1}"#).matches(OutputLine("{\"a\":1")))
    }

    @Test("the diff keeps common lines and marks removed and added ones")
    func diff() {
        let expected = ["{\"a\":1}", "{\"a\":2}", "{\"a\":3}", "{\"a\":4}"].map(OutputLine.init)
        let actual = ["{\"a\":1}", "{\"a\":3}", "{\"a\":5}", "{\"a\":4}"].map(OutputLine.init)
        #expect(LineDiff.entries(expected: expected, actual: actual) == [
            .same("{\"a\":1}"), .removed("{\"a\":2}"), .same("{\"a\":3}"), .added("{\"a\":5}"), .same("{\"a\":4}"),
        ])
    }

    @Test("a changed line is shown as - then +, with the fields that differ")
    func render() {
        let expected = [#"{"action":"next","t":0.3,"page":2}"#].map(OutputLine.init)
        let actual = [#"{"action":"next","t":0.35,"page":3}"#].map(OutputLine.init)
        #expect(LineDiff.render(expected: expected, actual: actual, indent: "") == [
            #"- {"action":"next","t":0.3,"page":2}"#,
            #"+ {"action":"next","t":0.35,"page":3}"#,
            "  (page: 2 → 3; t: 0.3 → 0.35)",
        ])
    }

    @Test("far from a change, unchanged lines are elided")
    func context() {
        let expected = (1...10).map { OutputLine("{\"n\":\($0)}") }
        var actualText = (1...10).map { "{\"n\":\($0)}" }
        actualText[9] = "{\"n\":99}"
        let lines = LineDiff.render(expected: expected, actual: actualText.map(OutputLine.init), context: 1, indent: "")
        #expect(lines == ["  …", "  {\"n\":9}", "- {\"n\":10}", "+ {\"n\":99}", "  (n: 10 → 99)"])
    }

    @Test("a huge difference is shown as replaced whole, not compared pairwise")
    func huge() {
        let expected = (0..<3000).map { OutputLine("{\"e\":\($0)}") }
        let actual = (0..<3000).map { OutputLine("{\"a\":\($0)}") }
        let entries = LineDiff.entries(expected: expected, actual: actual)
        #expect(entries.count == 6000)
        #expect(entries.first == .removed("{\"e\":0}"))
        #expect(entries.last == .added("{\"a\":2999}"))
    }
}
