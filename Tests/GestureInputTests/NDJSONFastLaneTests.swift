@testable import GestureInput
import Testing

/// The fast lane may decline any line, but a line it accepts must read exactly
/// as the full parser reads it.
@Suite("NDJSON fast lane")
struct NDJSONFastLaneTests {
    private func fast(_ line: String) -> NDJSONFastLane.Event? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { NDJSONFastLane.parse(UnsafeBufferPointer($0)) }
    }

    private func full(_ line: String) -> NDJSONFastLane.Event? {
        var bytes = Array(line.utf8)
        let record = bytes.withUnsafeMutableBufferPointer { NDJSONLineParser.parse(UnsafeBufferPointer($0)) }
        guard case let .event(kind, time, id, x, y) = record else { return nil }
        return NDJSONFastLane.Event(kind: kind, time: time, id: id, x: x, y: y)
    }

    /// Equal, with doubles compared bit for bit (so -0 and 0 differ).
    private func same(_ a: NDJSONFastLane.Event, _ b: NDJSONFastLane.Event) -> Bool {
        a.kind == b.kind && a.id == b.id && a.time.bitPattern == b.time.bitPattern
            && a.x?.bitPattern == b.x?.bitPattern && a.y?.bitPattern == b.y?.bitPattern
    }

    @Test("takes the lines writers usually produce", arguments: [
        #"{"t":0.228395,"ev":"down","id":1,"x":2016,"y":1426}"#,
        #"{"t": 1.5, "ev": "move", "id": 3, "x": 120.25, "y": -4}"#,
        #"{"ev":"up","id":3,"t":2}"#,
        #"{"t":2,"ev":"cancel","id":7}"#,
        #"{"t":2.000001,"ev":"sync"}"#,
        #"{"id":2,"y":0.5,"x":0,"ev":"move","t":0.0}"#,
        "\t{\"t\":1,\"ev\":\"move\",\"id\":1,\"x\":5}  ",
    ])
    func accepts(_ line: String) throws {
        let lane = try #require(fast(line))
        let reference = try #require(full(line))
        #expect(same(lane, reference))
    }

    /// Ids are read as integers, with no double in between: at the edges of
    /// what the lane takes they must still be the parser's numbers.
    @Test("reads ids as the full parser does, at the edges", arguments: [
        ("0", 0), ("-0", 0), ("-7", -7), ("42", 42),
        ("8999999999999999", 8_999_999_999_999_999), ("-8999999999999999", -8_999_999_999_999_999),
    ])
    func readsIDs(_ id: String, _ expected: Int) throws {
        let line = #"{"t":1,"ev":"move","id":"# + id + #","x":5,"y":6}"#
        let lane = try #require(fast(line))
        let reference = try #require(full(line))
        #expect(lane.id == expected)
        #expect(same(lane, reference))
    }

    /// From 9e15 the full parser refuses an id, and says why.
    @Test("leaves the ids it does not read to the full parser", arguments: ["9000000000000000", "-9000000000000000", "1.5", "1e3", "01", "-"])
    func declinesIDs(_ id: String) {
        #expect(fast(#"{"t":1,"ev":"move","id":"# + id + #","x":5,"y":6}"#) == nil)
    }

    @Test("declines what only the full parser should judge", arguments: [
        "",
        "   ",
        #"{"device":{"name":"panel","x":{"min":0,"max":4095,"resolution":16}}}"#,
        #"{"t":1e3,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":1,"x":null,"y":5}"#,
        #"{"t":1,"ev":"mo\u0076e","id":1,"x":5,"y":5}"#,
        #"{"\u0074":1,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":1.0,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":9000000000000001,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":5,"pressure":0.5}"#,
        #"{"t":1,"t":2,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"down","id":1,"x":5}"#,
        #"{"t":1,"ev":"move","x":5,"y":5}"#,
        #"{"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"hover","id":1,"x":5,"y":5}"#,
        #"{"t":01,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1.,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":5} x"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":5"#,
        #"{"t":1,"ev":"move","id":1,"x":5,"y":5,}"#,
        #"{"t":0.1234567890123456789,"ev":"move","id":1,"x":5,"y":5}"#,
        #"{"t":1,"ev":"move","id":1,"x":12345678901234567,"y":5}"#,
        "{\"t\":1,\r\"ev\":\"move\",\"id\":1}",
        #"[1,2]"#,
    ])
    func declines(_ line: String) {
        #expect(fast(line) == nil)
    }

    @Test("agrees with the full parser on 20,000 varied lines, and takes the usual ones")
    func agreesOnVariedLines() {
        var rng = SplitMix(seed: 42)
        var accepted = 0
        var usual = 0
        for _ in 0..<20_000 {
            let (line, isUsual) = randomLine(&rng)
            if isUsual { usual += 1 }
            let reference = full(line)
            if let lane = fast(line) {
                accepted += 1
                guard let reference else {
                    Issue.record("the fast lane read a line the full parser refuses: \(line)")
                    continue
                }
                #expect(same(lane, reference), "\(line)")
            } else if isUsual {
                Issue.record("the fast lane declined a usual line: \(line)")
            }
        }
        #expect(accepted >= usual)
    }

    /// A line in the usual shape (numbers as writers print them, keys shuffled,
    /// spacing varied) or, a quarter of the time, with one unusual part.
    private func randomLine(_ rng: inout SplitMix) -> (String, Bool) {
        let kinds = ["down", "move", "up", "cancel", "sync"]
        let kind = kinds[rng.next(5)]
        func number() -> String {
            switch rng.next(6) {
            case 0: return String(rng.next(5000))
            case 1: return "-" + String(rng.next(5000))
            case 2: return "\(rng.next(100000)).\(rng.next(1000000))"
            case 3: return "0.\(String(repeating: "0", count: rng.next(4)))\(rng.next(1000))"
            case 4: return "\(rng.next(20000)).\(rng.next(10))"
            default: return "-\(rng.next(300)).\(rng.next(100))"
            }
        }
        var fields = ["\"t\":\(rng.next(100000)).\(rng.next(1000000))", "\"ev\":\"\(kind)\""]
        if kind != "sync" { fields.append("\"id\":\(rng.next(40))") }
        if kind == "down" || (kind == "move" && rng.next(3) > 0) {
            fields.append("\"x\":\(number())")
            fields.append("\"y\":\(number())")
        } else if kind == "move" {
            fields.append(rng.next(2) == 0 ? "\"x\":\(number())" : "\"y\":\(number())")
        }
        var usual = true
        if rng.next(4) == 0 {
            usual = false
            let odd = [#""x":null"#, #""pressure":0.3"#, #""t":1e2"#, #""x":1.5E1"#, #""id":2.0"#, #""ev":"\u0064own""#, #""x":123456789012345678901"#]
            fields.append(odd[rng.next(odd.count)])
        }
        for i in stride(from: fields.count - 1, to: 0, by: -1) { fields.swapAt(i, rng.next(i + 1)) }
        let separator = [",", ", ", " , "][rng.next(3)]
        let colon = rng.next(2) == 0 ? ":" : ": "
        let body = fields.map { $0.replacingOccurrences(of: "\":", with: "\"" + colon) }.joined(separator: separator)
        return ("{" + body + "}", usual)
    }
}
