import Foundation
import GestureCore
import Testing

/// examples/knock.lua: two quick taps, then a two-finger tap, written against
/// the frame docs/lua-api.md defines, run over knocks and the
/// near-misses a user makes.
@Suite("The knock example")
struct KnockExampleTests {
    static let source: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("examples/knock.lua"), encoding: .utf8)) ?? ""
    }()

    static let here = Vector(120, 75)

    static func tap(_ t: Double, at p: Vector = here, for duration: Double = 0.08) -> [Strokes.Stroke] {
        [Strokes.tap(at: p, t, for: duration)]
    }

    /// Two fingers 16 mm apart, the second landing 10 ms after the first.
    static func twoFingerTap(_ t: Double, at p: Vector = here, for duration: Double = 0.08) -> [Strokes.Stroke] {
        [Strokes.tap(at: p - Vector(8, 0), t, for: duration), Strokes.tap(at: p + Vector(8, 0), t + 0.01, for: duration - 0.01)]
    }

    static func knock(_ t: Double, at p: Vector = here) -> [Strokes.Stroke] {
        tap(t, at: p) + tap(t + 0.25, at: p + Vector(1, 0.5)) + twoFingerTap(t + 0.5, at: p)
    }

    static func run(_ strokes: [Strokes.Stroke]) throws -> (actions: [String], times: [Double]) {
        let s = try UserGestureScenario(source)
        let actions = s.run(Strokes.frames(strokes))
        return (actions, s.emitted.compactMap { $0["t"] as? Double })
    }

    static let cases: [(name: String, strokes: [Strokes.Stroke], expected: [String])] = [
        ("a knock", knock(1.0), ["knock"]),
        ("two knocks", knock(1.0) + knock(3.0, at: Vector(60, 40)), ["knock", "knock"]),
        ("a pause before the two-finger tap", tap(1.0) + tap(1.25) + twoFingerTap(2.0), ["tap", "tap", "two-finger tap"]),
        ("one tap, then the two-finger tap", tap(1.0) + twoFingerTap(1.25), ["tap", "two-finger tap"]),
        ("three taps, then the two-finger tap", tap(1.0) + tap(1.25) + tap(1.5) + twoFingerTap(1.75), ["tap", "tap", "tap", "two-finger tap"]),
        ("a far tap starts the count again", tap(1.0, at: Vector(40, 75)) + knock(1.25), ["tap", "knock"]),
        ("the two-finger press held too long", tap(1.0) + tap(1.25) + twoFingerTap(1.5, for: 0.6), ["tap", "tap"]),
        ("a slow first press", tap(1.0, for: 0.4) + tap(1.6) + twoFingerTap(1.85), ["tap", "two-finger tap"]),
        ("a two-finger tap alone", twoFingerTap(1.0), ["two-finger tap"]),
    ]

    @Test("knocks are knocks; near-misses give their taps back, in time order", arguments: cases.indices)
    func knocksAndNearMisses(_ k: Int) throws {
        let c = Self.cases[k]
        let out = try Self.run(c.strokes)
        #expect(out.actions == c.expected, "\(c.name): \(out.actions)")
        #expect(zip(out.times, out.times.dropFirst()).allSatisfy { $0 <= $1 }, "\(c.name): \(out.times)")
    }

    @Test("docs/lua-api.md shows the example as examples/knock.lua has it")
    func documented() {
        let file = Self.source.range(of: "-- example: knock\n").map { String(Self.source[$0.lowerBound...]) }
        #expect(!DocExamples.code("knock").isEmpty)
        #expect(file == DocExamples.code("knock"))
    }

    @Test("the knock wins the tie with a two-finger tap recognized in the same frame, and explain's trace says so")
    func tieWithTwoFingerTap() throws {
        let s = try UserGestureScenario(Self.source, tracing: true)
        #expect(s.run(Strokes.frames(Self.knock(1.0))) == ["knock"])
        let lines = s.arena.traceLines
        #expect(lines.contains { $0.hasSuffix("tap: lost this sequence to rule \"knock\"") }, "\(lines)")
        #expect(!lines.contains { $0.contains("knock: lost this sequence") }, "\(lines)")
    }
}
