import Foundation
import GestureCore
import GestureEngine
@testable import GestureTools
import Testing

/// `synth` places gestures (`at X,Y` in mm), pauses before
/// them (`after S` from the last lift) and repeats them (`xN`), so that the
/// knock's cases, near-misses included, are one line each.
@Suite("synth: placed gestures")
struct SynthPlacementTests {
    struct Written {
        var t: Double
        var ev: String
        var position: Vector?
    }

    static func events(_ phrases: [String], rate: Double = 100) throws -> [Written] {
        let text = try SynthStream.generate(phrases: phrases, seed: 4, rate: rate).get()
        return text.split(separator: "\n").dropFirst().compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let t = object["t"] as? Double, let ev = object["ev"] as? String else { return nil }
            var p: Vector?
            if let x = object["x"] as? Double, let y = object["y"] as? Double { p = Vector(x / 16, y / 16) }
            return Written(t: t, ev: ev, position: p)
        }
    }

    @Test("at X,Y: the fingers land with their centroid there")
    func place() throws {
        let one = try Self.events(["tap at 100,70"])
        let down = try #require(one.first { $0.ev == "down" }?.position)
        #expect(down.distance(to: Vector(100, 70)) < 1, "\(down)")
        let two = try Self.events(["2-finger tap at 60,40"]).filter { $0.ev == "down" }.compactMap(\.position)
        #expect(two.count == 2)
        let centroid = two.reduce(Vector.zero, +) / 2
        #expect(centroid.distance(to: Vector(60, 40)) < 1, "\(two)")
    }

    @Test("after S: the gesture's first landing comes S seconds after the last lift, to a sample")
    func gap() throws {
        let events = try Self.events(["tap", "tap after 0.15"])
        let ups = events.enumerated().filter { $0.element.ev == "up" }
        let downs = events.enumerated().filter { $0.element.ev == "down" }
        try #require(ups.count == 2 && downs.count == 2)
        let pause = downs[1].element.t - ups[0].element.t
        #expect(pause >= 0.15 - 1e-9 && pause <= 0.16 + 1e-9, "\(pause)")
    }

    @Test("xN: N gestures, each with the place and pause given")
    func repeats() throws {
        let events = try Self.events(["tap at 30,30 x3 after 0.2"])
        let downs = events.filter { $0.ev == "down" }
        #expect(downs.count == 3)
        #expect(downs.allSatisfy { ($0.position?.distance(to: Vector(30, 30)) ?? 99) < 1 })
    }

    @Test("a bad place, pause or count is refused with what to write")
    func refusals() {
        func reason(_ phrase: String) -> String? {
            if case .failure(let e) = SynthStream.generate(phrases: [phrase], seed: 1) { return e.reason }
            return nil
        }
        #expect(reason("tap at 300,70") == "\"at\" takes X,Y in mm on the synth panel (0-256 by 0-144), as in \"tap at 120,70\"")
        #expect(reason("tap at") == "\"at\" takes X,Y in mm on the synth panel (0-256 by 0-144), as in \"tap at 120,70\"")
        #expect(reason("tap after -1") == "\"after\" takes a pause in seconds from the last lift, 0 to 60, as in \"tap after 0.15\"")
        #expect(reason("tap x0") == "\"x0\" repeats the gesture 1 to 1000 times, as in \"tap x3\"")
        #expect(reason("tap x99999999999999999999") != nil)
        #expect(reason("tap at 10,10 after 0.1 x2") == nil)
        #expect(reason("shape x") == nil)
    }

    static let knockRules: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("examples/knock.lua"), encoding: .utf8)) ?? ""
    }()

    static let knocks: [(phrases: [String], actions: [String])] = [
        (["tap at 120,70 x2 after 0.15", "2-finger tap at 120,70 after 0.15"], ["knock"]),
        (["tap at 40,70", "tap at 120,70 x2 after 0.15", "2-finger tap at 120,70 after 0.15"], ["tap", "knock"]),
        (["tap at 120,70 x2 after 0.15", "2-finger tap at 120,70 after 0.8"], ["tap", "tap", "two-finger tap"]),
        (["tap at 120,70 x3 after 0.15", "2-finger tap at 120,70 after 0.15"], ["tap", "tap", "tap", "two-finger tap"]),
        (["tap at 120,70", "2-finger tap at 120,70 after 0.15"], ["tap", "two-finger tap"]),
    ]

    @Test("the knock's cases, one line each, through examples/knock.lua", arguments: knocks.indices)
    func knockCases(_ k: Int) throws {
        let c = Self.knocks[k]
        let text = try SynthStream.generate(phrases: c.phrases, seed: 5).get()
        var options = RunOptions()
        options.inputs = [try temporaryFile("knock.ndjson", text)]
        options.rulesPath = try temporaryFile("knock.lua", Self.knockRules)
        let sink = CollectingSink()
        #expect(try #require(Engine(options: options.forReplayTool, console: Console(), output: sink)).run() == .ok)
        let actions = sink.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["action"] as? String
        }
        #expect(actions == c.actions, "\(c.phrases): \(sink.lines)")
    }
}
