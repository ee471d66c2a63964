import Foundation
import Testing

/// `synth` draws a mouse's strokes, shapes and chords as NDJSON mouse lines,
/// and `run` reads each back as the phrase says, through the binary.
@Suite("synth draws a mouse's gestures")
struct MouseSynthTests {
    static let phrases = [
        "right-drag left", "right-drag up", "right-drag left-up", "right-drag down-right-up", "right-drag up-left",
        "middle-drag up,left", "side-drag right-down-left-up", "right-drag shape circle", "left+right", "right+wheel up",
        "side click", "extra click",
    ]

    /// A rule for each phrase, emitting the phrase: a right-button diagonal is
    /// among them, so right-button strokes are read in eight directions.
    static var rules: String {
        phrases.map { #"on("\#($0)", function(g) emit("\#($0)") end)"# }.joined(separator: "\n") + "\n"
    }

    @Test("each phrase drawn 20 times reads back as itself, 20 of 20", arguments: phrases)
    func readsBack(phrase: String) throws {
        let rules = try Binary.temporaryFile("mouse.lua", Self.rules)
        let stream = try Binary.run(["synth", "--seed", "5", "--count", "20", phrase])
        #expect(stream.status == 0, "\(stream.stderr)")
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(stream.stdout.utf8))
        let actions = result.lines.compactMap { Binary.json($0)?["action"] as? String }
        #expect(actions == Array(repeating: phrase, count: 20), "\(result.stderr)")
    }

    @Test("a stroke is a press, motion every 8 ms in whole counts, and a release; no touch panel's header")
    func lines() throws {
        let stream = try Binary.run(["synth", "--seed", "3", "right-drag left"])
        #expect(stream.status == 0)
        let events = stream.lines.compactMap(Binary.json)
        #expect(events.count == stream.lines.count)
        #expect(events.first?["ev"] as? String == "press")
        #expect(events.first?["button"] as? String == "right")
        #expect(events.last?["ev"] as? String == "release")
        let motion = events.dropFirst().dropLast()
        #expect(motion.count >= 10)
        #expect(motion.allSatisfy { $0["ev"] as? String == "motion" && $0["dx"] is Int && $0["dy"] is Int })
        let dx = motion.compactMap { $0["dx"] as? Int }.reduce(0, +)
        // 25 to 45 mm left at 1000 dpi.
        #expect((-1772 ... -984).contains(dx), "\(dx)")
        let times = events.compactMap { $0["t"] as? Double }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.dropFirst().dropLast().allSatisfy { abs($0.truncatingRemainder(dividingBy: 0.008)) < 1e-6 || abs($0.truncatingRemainder(dividingBy: 0.008) - 0.008) < 1e-6 }, "\(gaps)")
    }

    @Test("a mouse phrase synth cannot read is refused with why")
    func refused() throws {
        let result = try Binary.run(["synth", "right-drag left-left"])
        #expect(result.status == 64)
        #expect(result.errorLines.first?.contains(#"cannot read gesture phrase "right-drag left-left": "left-left" goes left twice in a row"#) == true, "\(result.stderr)")
    }
}
