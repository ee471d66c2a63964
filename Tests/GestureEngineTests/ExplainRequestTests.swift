import Foundation
import GestureActions
import GestureCore
import GestureEngine
import Testing

/// `explain` keeps what decides a verdict, not every frame of a running gesture.
@Suite("explain's capture")
struct ExplainRequestTests {
    @Test("a long pan keeps a handful of records, not one per frame; the pan still fired")
    func boundedRecords() throws {
        // 2 s of two fingers moving right at 100 Hz: about 200 frames of a running pan.
        var ndjson = ""
        let written = SynthStream.write(phrases: ["two-finger pan right"], seed: 1, rate: 100, count: 1) { bytes in
            ndjson += String(decoding: bytes, as: UTF8.self)
            return true
        }
        guard case .success = written else {
            Issue.record("synth refused the phrase")
            return
        }
        var options = RunOptions()
        options.inputs = [try temporaryFile("pan.ndjson", ndjson)]
        options.rulesPath = try temporaryFile("rules.lua", #"on({ kind = "pan", fingers = 2 }, { began = function(g) emit("pan") end, changed = function(g) end })"#)
        var told: [Explanation.Sequence] = []
        guard case .success = ExplainRequest(options: options).explain(console: Console(), tell: { told.append($0); return true }) else {
            Issue.record("explain failed")
            return
        }
        #expect(told.count == 1)
        let sequence = try #require(told.first)
        #expect(sequence.verdicts.first?.verdict.fired == true)
        let running = sequence.captured.records.filter { record in
            if case .transition(let t) = record.entry { return t.from == .changed && t.to == .changed }
            return false
        }
        #expect(running.isEmpty)
        #expect(sequence.captured.records.count < 10, "\(sequence.captured.records.map(\.text))")
    }
}
