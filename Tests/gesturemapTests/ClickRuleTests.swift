import Foundation
import Testing

/// Touchpad clicks by finger count and place, from an NDJSON stream's "click"
/// events, through the binary.
@Suite("Click rules, through the binary")
struct ClickRuleTests {
    static let rules = """
    on({ kind = "click", fingers = 2, where = "left" }, function(g) emit("back", { fingers = g.fingers }) end)
    on({ kind = "click", fingers = 2, where = "right" }, function(g) emit("forward") end)
    on({ kind = "click", fingers = 1, edge = "bottom" }, function(g) emit("bottom", { edge = g.edge }) end)
    on("3-finger click", function(g) emit("three") end)
    on("2-finger tap", function(g) emit("tap") end)

    """

    /// A 100 x 60 mm pad: two fingers click on its left half, two on its right,
    /// one at its bottom edge, two tap without clicking, three click anywhere.
    static let stream = """
    {"device":{"name":"pad","x":{"min":0,"max":1000,"resolution":10},"y":{"min":0,"max":600,"resolution":10}}}
    {"t":0.00,"ev":"down","id":1,"x":200,"y":300}
    {"t":0.00,"ev":"down","id":2,"x":300,"y":300}
    {"t":0.10,"ev":"click"}
    {"t":0.20,"ev":"up","id":1}
    {"t":0.20,"ev":"up","id":2}
    {"t":1.00,"ev":"down","id":3,"x":700,"y":300}
    {"t":1.00,"ev":"down","id":4,"x":800,"y":300}
    {"t":1.10,"ev":"click"}
    {"t":1.20,"ev":"up","id":3}
    {"t":1.20,"ev":"up","id":4}
    {"t":2.00,"ev":"down","id":5,"x":500,"y":590}
    {"t":2.10,"ev":"click"}
    {"t":2.20,"ev":"up","id":5}
    {"t":3.00,"ev":"down","id":6,"x":200,"y":200}
    {"t":3.00,"ev":"down","id":7,"x":300,"y":200}
    {"t":3.10,"ev":"up","id":6}
    {"t":3.10,"ev":"up","id":7}
    {"t":4.00,"ev":"down","id":8,"x":200,"y":200}
    {"t":4.00,"ev":"down","id":9,"x":300,"y":200}
    {"t":4.00,"ev":"down","id":10,"x":400,"y":200}
    {"t":4.05,"ev":"click"}
    {"t":4.10,"ev":"up","id":8}
    {"t":4.10,"ev":"up","id":9}
    {"t":4.10,"ev":"up","id":10}

    """

    @Test("each click goes to the rule for its finger count and place; a tap with no click is still a tap")
    func clicks() throws {
        let rules = try Binary.temporaryFile("clicks.lua", Self.rules)
        let input = try Binary.temporaryFile("clicks.ndjson", Self.stream)
        let result = try Binary.run(["run", "--rules", rules.path, input.path])
        #expect(result.status == 0)
        #expect(result.lines == [
            #"{"action":"back","t":0.1,"fingers":2}"#,
            #"{"action":"forward","t":1.1}"#,
            #"{"action":"bottom","t":2.1,"edge":"bottom"}"#,
            #"{"action":"tap","t":3.1}"#,
            #"{"action":"three","t":4.05}"#,
        ], "\(result.errorLines)")
        #expect(result.errorLines.isEmpty)
    }

    @Test("synth draws clicks where the phrase says, and run reads each back as that click, 20 of 20", arguments: [
        ("2-finger click on the left half", "back"), ("2-finger click on the right half", "forward"),
        ("click on the bottom edge", "bottom"), ("3-finger click", "three"),
    ])
    func synthesized(phrase: String, action: String) throws {
        let rules = try Binary.temporaryFile("clicks.lua", Self.rules)
        let stream = try Binary.run(["synth", "--seed", "9", "--count", "20", phrase])
        #expect(stream.status == 0, "\(stream.stderr)")
        #expect(stream.lines.filter { $0.contains(#""ev":"click""#) }.count == 20)
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(stream.stdout.utf8))
        let actions = result.lines.compactMap { $0.split(separator: "\"").dropFirst(3).first.map(String.init) }
        #expect(actions == Array(repeating: action, count: 20), "\(result.stdout)\(result.stderr)")
    }

    @Test("check names every misplaced or unknown place at its line, and exits 1")
    func hostile() throws {
        let rules = try Binary.temporaryFile("hostile-clicks.lua", """
        on({ kind = "click", where = "middle" }, function(g) end)
        on({ kind = "click", where = 3 }, function(g) end)
        on({ kind = "tap", where = "left" }, function(g) end)
        on({ kind = "swipe", edge = "left" }, function(g) end)
        on({ kind = "click", direction = "left" }, function(g) end)

        """)
        let result = try Binary.run(["check", rules.path])
        let p = rules.path
        #expect(result.errorLines == [
            "\(p):1: unknown place \"middle\"; a click is on the left, right, top or bottom half",
            "\(p):2: \"where\" must be a string: left, right, top or bottom (the half the fingers click on)",
            "\(p):3: \"where\" belongs to kind \"click\", not \"tap\"",
            "\(p):4: \"edge\" belongs to kinds \"edge_swipe\" and \"click\", not \"swipe\"",
            "\(p):5: a click has no direction; remove \"left\"",
        ])
        #expect(result.status == 1)
    }
}
