@testable import GestureInput
import Testing

/// The fast lane reads its own writers' lines a word at a time and
/// numbers without the full scanner. Whatever it takes must still read as the
/// full parser reads it, bit for bit, and whatever the full parser refuses (and
/// explains) must be left to it. Every check here compares with the full
/// parser itself rather than with written-down answers.
@Suite("NDJSON fast lane: the same as the full parser")
struct NDJSONFastLaneSamenessTests {
    /// The lane's reading of `line`, with `after` in memory right behind the
    /// line (never part of it), so that a read past the end changes the answer.
    private func fast(_ line: String, after: String = "") -> NDJSONFastLane.Event? {
        let bytes = Array(line.utf8) + Array(after.utf8)
        let count = line.utf8.count
        return bytes.withUnsafeBufferPointer { NDJSONFastLane.parse(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    private func full(_ line: String) -> NDJSONRecord {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { NDJSONLineParser.parse($0) }
    }

    /// Nil when the lane agrees with the full parser on `line`; otherwise what differs.
    private func disagreement(_ line: String, after: String = "") -> String? {
        let lane = fast(line, after: after)
        switch full(line) {
        case let .event(kind, time, id, x, y):
            guard let lane else { return nil }
            let same = lane.kind == kind && lane.id == id && lane.time.bitPattern == time.bitPattern
                && lane.x?.bitPattern == x?.bitPattern && lane.y?.bitPattern == y?.bitPattern
            return same ? nil : "lane read \(lane), the full parser \(kind) t=\(time) id=\(id) x=\(String(describing: x)) y=\(String(describing: y))"
        case .invalid(let message):
            return lane.map { "lane read \($0) where the full parser says: \(message)" }
        case .palm, .device, .blank, .mouse:
            return lane.map { "lane read \($0) from a line that is no plain event" }
        }
    }

    /// The writers' own order, and a shuffled, spaced spelling of the same line.
    private func spellings(t: String = "1.5", ev: String = "move", id: String = "3", x: String? = "100", y: String? = "200") -> [String] {
        var members = [("t", t), ("ev", "\"\(ev)\""), ("id", id)]
        if let x { members.append(("x", x)) }
        if let y { members.append(("y", y)) }
        let canonical = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        let spaced = "{ " + members.reversed().map { "\"\($0.0)\" : \($0.1)" }.joined(separator: " ,\t") + " }"
        return [canonical, spaced]
    }

    static let numbers = [
        "0", "-0", "0.0", "-0.0", "00", "01", "-01", "0.", ".5", "-", "+1", "1.5", "-1.5",
        "0.1", "0.2", "0.3", "0.30000000000000004", "0.1000000000000000055511151231257827",
        "2.2250738585072014e-308", "1e400", "-1e400", "1e-400", "1e3", "1E3", "1e+3", "1.5e-3", "1e", "1e+",
        "123456789012345678", "1234567890123456789", "0.123456789012345678", "0.1234567890123456789",
        "9007199254740991", "9007199254740992", "9007199254740993", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999999", "0.0000000000000000000001", "0.00000000000000000000001",
        "0.000001", "1939", "1189", "0.207692", "12345.678901", "2147483648", "2147483648.5", "-2147483648", "2147483649",
        "10000000000", "-10000000000", "10000000000.000001", "8999999999999999", "9000000000000000", "-9000000000000000",
        "4503599627370497.5", "1.7976931348623157e308", "null", "true", "\"1\"", "[1]", "{}", "1 2", "1,", "0x10", "1_000",
    ]

    @Test("numbers at every edge, in every field, in the writers' order and shuffled with spaces", arguments: numbers)
    func numbersAgree(_ number: String) {
        var lines: [String] = []
        lines += spellings(t: number)
        lines += spellings(id: number)
        lines += spellings(x: number)
        lines += spellings(y: number)
        lines += spellings(ev: "down", x: number, y: number)
        lines += spellings(ev: "up", id: number, x: nil, y: nil)
        lines += spellings(t: number, ev: "sync", id: "0", x: nil, y: nil)
        lines.append(#"{"t":"# + number + #","ev":"sync"}"#)
        for line in lines {
            #expect(disagreement(line) == nil, "\(line)")
        }
    }

    /// Without this the tests above would pass with a lane that declines everything.
    @Test("takes the writers' lines and their usual numbers", arguments: [
        #"{"t":0.207692,"ev":"move","id":1,"x":1939,"y":1189}"#,
        #"{"t":0.2,"ev":"down","id":1,"x":1944,"y":1183}"#,
        #"{"t":12.5,"ev":"up","id":1}"#,
        #"{"t":12.5,"ev":"cancel","id":12}"#,
        #"{"t":12.5,"ev":"sync"}"#,
        #"{"t":3,"ev":"move","id":2,"x":-0.5}"#,
        #"{"t":3,"ev":"move","id":2,"y":0.001}"#,
        #"{"t":0.3,"ev":"move","id":2,"x":12345.678901,"y":-0}"#,
        #"{ "y" : 1189 , "x" : 1939 , "id" : 1 , "ev" : "move" , "t" : 0.207692 }"#,
    ])
    func takesUsualLines(_ line: String) {
        #expect(fast(line) != nil)
        #expect(disagreement(line) == nil)
    }

    @Test("keys repeated, unknown, missing or misspelt", arguments: [
        #"{"t":1,"t":2,"ev":"move","id":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"move","ev":"up","id":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"move","id":1,"id":2,"x":5,"y":6}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"x":6}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6,"y":7}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6,"z":7}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6,"tool":"palm"}"#,
        #"{"t":1,"ev":"down","id":1,"x":5,"y":6,"tool":"finger"}"#,
        #"{"t":1,"ev":"move","id":1,"xx":5,"y":6}"#,
        #"{"t":1,"ev":"move","ed":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"moves","id":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"mov","id":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"canceled","id":1}"#,
        #"{"t":1,"ev":"cancel,"id":1}"#,
        #"{"t":1,"ev":"upp","id":1}"#,
        #"{"t":1,"ev":"u","id":1}"#,
        #"{"t":1,"ev":"","id":1}"#,
        #"{"t":1,"ev":"sync","id":1}"#,
        #"{"t":1,"ev":"sync","x":3000000000}"#,
        #"{"t":1,"ev":"down","id":1,"x":5}"#,
        #"{"t":1,"ev":"down","id":1,"y":5}"#,
        #"{"t":1,"ev":"move","id":1}"#,
        #"{"t":1,"ev":"move","x":5,"y":6}"#,
        #"{"ev":"move","id":1,"x":5,"y":6}"#,
        #"{"t":1,"id":1,"x":5,"y":6}"#,
        #"{"t":1,"ev":"move","id":1,"y":6,"x":5}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6}}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6},"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6,}"#,
        #"{"t":1,,"ev":"move","id":1}"#,
        #"{"t"1,"ev":"move","id":1}"#,
        #"{"t":1"ev":"move","id":1}"#,
        #"{{"t":1,"ev":"move","id":1}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6"#,
        "{\"t\":1,\"ev\":\"move\",\"id\":1}\r",
        "{\"t\":1,\"ev\":\"move\",\"id\":1}\n",
        "{\"t\":1,\"ev\":\"move\",\n\"id\":1}",
        " \t{\"t\":1,\"ev\":\"move\",\"id\":1} \t",
        "{\"t\":1,\"ev\":\"m\u{00F6}ve\",\"id\":1}",
        "\u{FEFF}{\"t\":1,\"ev\":\"move\",\"id\":1}",
        #"{"t":1,"ev":"move","id":1,"x":5,"y":6} {"t":2}"#,
        "{}", "}", "{", "", " ", "{\"\":1}", "{\"t\":}", "{\"t\"}", "{\"t\":1}", "{\"ev\":\"sync\"}",
    ])
    func oddKeysAgree(_ line: String) {
        #expect(disagreement(line) == nil, "\(line)")
    }

    /// Every prefix of a line is a truncated line, and whatever follows it in
    /// memory must not be read: a brace or digits there would complete it.
    @Test("reads nothing past a line's end, at every cut of the writers' lines")
    func readsNothingPastTheEnd() {
        let lines = [
            #"{"t":0.207692,"ev":"move","id":1,"x":1939,"y":1189}"#,
            #"{"t":12.5,"ev":"cancel","id":12}"#,
            #"{"t":12.5,"ev":"sync"}"#,
            #"{"t":12.5,"ev":"up","id":1}"#,
            #"{ "t" : 1 , "ev" : "down" , "id" : 1 , "x" : 5 , "y" : 6 }"#,
        ]
        var cuts = 0
        for line in lines {
            let bytes = Array(line.utf8)
            for cut in 0...bytes.count {
                let head = String(decoding: bytes[0..<cut], as: UTF8.self)
                let tail = String(decoding: bytes[cut...], as: UTF8.self)
                for after in [tail, "}", "0}", "\"}", "ove\",\"id\":1}", String(repeating: "9", count: 40)] {
                    #expect(disagreement(head, after: after) == nil, "\(head) followed in memory by \(after)")
                }
                cuts += 1
            }
        }
        #expect(cuts > 150)
    }

    @Test("agrees with the full parser on 100,000 seeded random lines, broken ones among them")
    func agreesOnRandomLines() {
        var rng = SplitMix(seed: 22)
        var taken = 0
        for _ in 0..<100_000 {
            let line = randomLine(&rng)
            if fast(line) != nil { taken += 1 }
            if let problem = disagreement(line, after: "0}") {
                Issue.record("\(line): \(problem)")
            }
        }
        // Most of the lines are well formed; a lane that declined them all would not be tested.
        #expect(taken > 25_000)
    }

    private func randomNumber(_ rng: inout SplitMix) -> String {
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(rng.next(10))) }) }
        switch rng.next(10) {
        case 0: return String(rng.next(5000))
        case 1: return "-" + String(rng.next(5000))
        case 2: return "\(rng.next(1000)).\(digits(1 + rng.next(8)))"
        case 3: return "0.\(String(repeating: "0", count: rng.next(25)))\(digits(1 + rng.next(5)))"
        case 4: return "\(1 + rng.next(9))\(digits(rng.next(22)))"
        case 5: return "\(digits(1 + rng.next(10))).\(digits(1 + rng.next(14)))"
        case 6: return "\(rng.next(100))e\(["", "+", "-"][rng.next(3)])\(rng.next(400))"
        case 7: return ["-0", "0", "00", "-", "1.", ".1", "0.1", "0.2", "0.3", "1e400", "9007199254740993", "2147483648", "2147483649"][rng.next(13)]
        case 8: return String(Double(rng.next(1 << 30)) / Double(1 + rng.next(1 << 20)))
        default: return "\(rng.next(300)).\(rng.next(1_000_000))"
        }
    }

    private func randomLine(_ rng: inout SplitMix) -> String {
        let kinds = ["down", "move", "up", "cancel", "sync", "hover", "mo\\u0076e"]
        let kind = kinds[rng.next(rng.next(8) == 0 ? kinds.count : 5)]
        var members = [("t", randomNumber(&rng)), ("ev", "\"\(kind)\"")]
        if kind != "sync" || rng.next(4) == 0 { members.append(("id", rng.next(3) == 0 ? randomNumber(&rng) : String(rng.next(40)))) }
        if kind == "down" || kind == "move" || rng.next(6) == 0 {
            if rng.next(8) != 0 { members.append(("x", randomNumber(&rng))) }
            if rng.next(8) != 0 { members.append(("y", randomNumber(&rng))) }
        }
        if rng.next(10) == 0 { members.append([("t", "2"), ("x", "null"), ("pressure", "0.3"), ("tool", "\"palm\""), ("id", "4")][rng.next(5)]) }
        let shuffled = rng.next(3) == 0
        if shuffled {
            for i in stride(from: members.count - 1, to: 0, by: -1) { members.swapAt(i, rng.next(i + 1)) }
        }
        let spaced = shuffled && rng.next(2) == 0
        func gap() -> String { spaced ? [" ", "\t", "", "  "][rng.next(4)] : "" }
        var line = "{" + gap() + members.map { "\"\($0.0)\"" + gap() + ":" + gap() + $0.1 }.joined(separator: gap() + "," + gap()) + gap() + "}"
        // One in five lines is damaged: a byte changed, dropped or the line cut short.
        if rng.next(5) == 0 {
            var bytes = Array(line.utf8)
            let at = rng.next(bytes.count)
            switch rng.next(3) {
            case 0: bytes[at] = Array(#"{}[]":,.-+0123456789eE tnx\"#.utf8)[rng.next(27)]
            case 1: bytes.remove(at: at)
            default: bytes.removeSubrange(at...)
            }
            line = String(decoding: bytes, as: UTF8.self)
        }
        return line
    }
}
