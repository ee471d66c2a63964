import Foundation
import Testing

/// Every real evemu recording, replayed from its file through the binary,
/// gives what its SOURCE.md states, or the miss `recordingOutcomes` lists for
/// it; a listed miss that no longer misses fails too, so that the list is moved.
/// KernelRecordingTests holds the same table against the recordings played live.
@Suite("Real recordings against what their SOURCE.md states", .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"))
struct RealRecordingOutcomeTests {
    @Test("the table names every recording, and only those")
    func tableCoversEveryRecording() {
        let names = Set(RealRecording.all.map(\.testDescription))
        #expect(names.count >= 49)
        #expect(names.subtracting(recordingOutcomes.keys).sorted() == [], "recordings with no stated outcome")
        #expect(Set(recordingOutcomes.keys).subtracting(names).sorted() == [], "outcomes for recordings not there")
    }

    @Test("from its file, each recording gives what SOURCE.md states, or its listed miss", arguments: RealRecording.all)
    func fromFile(_ recording: RealRecording) throws {
        let outcome = try #require(recordingOutcomes[recording.testDescription])
        let gives = try Self.replay(recording, rules: everyGestureRules)
        switch outcome {
        case .gives(let stated):
            #expect(gives == stated, "SOURCE.md states \(stated)")
        case .misses(let stated, let expected, let cause, _):
            #expect(gives != stated, "now gives what SOURCE.md states: move it from .misses (\(cause.rawValue)) to .gives")
            #expect(gives == expected, "the listed miss was \(expected); SOURCE.md states \(stated)")
        }
    }

    static let slowStrokes = RealRecording.all.filter {
        if case .misses(_, _, .slowerThanASwipe, _) = recordingOutcomes[$0.testDescription] { return true }
        return false
    }

    @Test("a stroke too slow for a swipe is a pan: a pan rule bound beside the swipes gets it, the way SOURCE.md states it", arguments: slowStrokes)
    func slowStrokeIsAPan(_ recording: RealRecording) throws {
        let stated = try #require(recordingOutcomes[recording.testDescription]?.stated.first)
        let rules = everyGestureRules + """

            for n = 1, 4 do
              on(n .. "-finger pan", { ended = function(g)
                emit("pan", { fingers = g.fingers, dx = g.dx, dy = g.dy })
              end })
            end
            """
        let lines = try Self.run(recording, rules: rules)
        #expect(lines.compactMap(StatedGesture.init(line:)) == [], "no swipe, as from the table")
        let pans = lines.compactMap(Binary.json).filter { $0["action"] as? String == "pan" }
        #expect(pans.count == 1, "\(lines)")
        let pan = try #require(pans.first)
        let dx = (pan["dx"] as? NSNumber)?.doubleValue ?? 0, dy = (pan["dy"] as? NSNumber)?.doubleValue ?? 0
        #expect((pan["fingers"] as? NSNumber)?.intValue == stated.fingers)
        #expect(Self.axisDirection(dx: dx, dy: dy) == stated.direction, "the pan moved \(dx), \(dy) mm")
        // As far as a swipe must go (swipe_min_distance), and more.
        #expect((dx * dx + dy * dy).squareRoot() >= 10, "the pan moved \(dx), \(dy) mm")
    }

    static let stillFirst = RealRecording.all.filter {
        if case .misses(_, _, .stillBeforeMoving, _) = recordingOutcomes[$0.testDescription] { return true }
        return false
    }

    @Test("a recording held still before it moves gives what SOURCE.md states when no long press is bound", arguments: stillFirst)
    func stillFirstWithoutLongPress(_ recording: RealRecording) throws {
        let stated = try #require(recordingOutcomes[recording.testDescription]?.stated)
        let withoutLongPress = everyGestureRules.replacingOccurrences(of: #"on(n .. "-finger long press", report)"#, with: "")
        #expect(withoutLongPress != everyGestureRules)
        #expect(try Self.replay(recording, rules: withoutLongPress) == stated)
    }

    /// The four directions of a displacement, y down.
    static func axisDirection(dx: Double, dy: Double) -> String {
        abs(dx) > abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up")
    }

    static func replay(_ recording: RealRecording, rules: String) throws -> [StatedGesture] {
        try run(recording, rules: rules).compactMap(StatedGesture.init(line:))
    }

    static func run(_ recording: RealRecording, rules: String) throws -> [String] {
        let file = try Binary.temporaryFile("rules.lua", rules)
        let result = try Binary.run(["run", "--rules", file.path, recording.replayable])
        #expect(result.status == 0, "\(result.stderr)")
        return result.lines
    }
}
