import Foundation
import GestureActions
import GestureCore
import GestureEngine
@testable import GestureTools
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

/// A tap is often reported late: as the next press lands, or once its waiting
/// time runs out. `explain` and `draw` must still place it in the sequence it
/// was tapped in (drumroll_lumpy's first tap was "decided nothing" in
/// sequence 1, then drawn and counted in sequence 2).
@Suite("explain places late gestures", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/chromeos-autotest-firmware_TouchMTB beside the package"))
struct ExplainPlacementTests {
    static func explain(_ path: String, rules: String) throws -> [Explanation.Sequence] {
        var options = RunOptions()
        options.inputs = [path]
        options.rulesPath = try temporaryFile("rules.lua", rules)
        var told: [Explanation.Sequence] = []
        guard case .success = ExplainRequest(options: options).explain(console: Console(), tell: { told.append($0); return true }) else {
            Issue.record("explain failed")
            return []
        }
        return told
    }

    @Test("drumroll_lumpy with tap, double tap and 2-finger tap rules: sequence 1's tap fired there; every gesture lies in its own sequence")
    func drumroll() throws {
        let told = try Self.explain(touchMTBPath("drumroll_lumpy.dat"), rules: """
            on("tap", function(g) emit("tap") end)
            on("double tap", function(g) emit("double") end)
            on("2-finger tap", function(g) emit("two") end)
            """)
        try #require(told.count >= 2)
        let first = try #require(told.first)
        let tap = try #require(first.verdicts.first { $0.rule.label == #"rule "tap""# }?.verdict)
        #expect(tap.fired, "\(tap.words)")
        #expect(first.captured.gestures.map(\.ruleIndex) == [0])
        for sequence in told {
            for g in sequence.captured.gestures {
                // A tap lies where its last tap lifted (a double tap in its second sequence).
                let made = g.event.start + g.event.duration
                #expect(made >= sequence.captured.start && made <= sequence.captured.end,
                        "sequence \(sequence.number) (\(sequence.captured.start)–\(sequence.captured.end)) got \(g.rule) made at \(made)")
            }
            // Every gesture delivered is a verdict "fired" in its sequence, and the other way round.
            let fired = sequence.verdicts.filter { $0.verdict.fired }.map(\.rule.index).sorted()
            #expect(Set(fired) == Set(sequence.captured.gestures.map(\.ruleIndex)))
        }
        // The drawing takes its gestures from the same sequences.
        let drawn = told.map { DrawRequest.firstEvents(of: $0.captured).gestures.count }
        #expect(drawn.first == 1)
    }
}

/// `explain`'s tally is what the handlers did. A rule in its cooldown
/// does not fire, and says so with the time it had left.
@Suite("explain and cooldowns")
struct ExplainCooldownTests {
    @Test("three taps under cooldown = 100: fired in 1 of 3 sequences; the others held back by the cooldown, with the real time left")
    func cooldownTally() throws {
        var options = RunOptions()
        options.inputs = [try temporaryFile("taps.ndjson", try SynthStream.generate(phrases: ["tap x3"], seed: 2, rate: 100).get())]
        options.rulesPath = try temporaryFile("rules.lua", #"on("tap", function(g) emit("tap") end, { cooldown = 100 })"#)
        var told: [Explanation.Sequence] = []
        guard case .success(let (_, tally)) = ExplainRequest(options: options).explain(console: Console(), tell: { told.append($0); return true }) else {
            Issue.record("explain failed")
            return
        }
        #expect(told.count == 3)
        #expect(tally.rules.first?.fired == 1)
        #expect(tally.rules.first?.live == 3)
        let first = try #require(told.first?.verdicts.first?.verdict)
        guard case .fired(let e, _) = first else {
            Issue.record("the first tap did not fire: \(first.words)")
            return
        }
        for sequence in told.dropFirst() {
            let verdict = try #require(sequence.verdicts.first?.verdict)
            guard case .cooledDown(let at, let left) = verdict else {
                Issue.record("sequence \(sequence.number): \(verdict.words)")
                continue
            }
            #expect(abs(left - (100 - (at - e.time))) < 1e-6)
            #expect(verdict.words.hasPrefix("held back by its cooldown (\(TraceRecord.oneDecimal(left)) s left)"), "\(verdict.words)")
        }
        // One action, as the tally says, when the same input is run.
        let sink = CollectingSink()
        #expect(try #require(Engine(options: options.forReplayTool, console: Console(), output: sink)).run() == .ok)
        #expect(sink.lines.count == 1, "\(sink.lines)")
    }
}

extension ExplainCooldownTests {
    @Test("a cooldown runs on every device: a tap on a second input, within the cooldown, is held back there too")
    func acrossDevices() throws {
        var options = RunOptions()
        let tap = try SynthStream.generate(phrases: ["tap"], seed: 2, rate: 100).get()
        options.inputs = [try temporaryFile("first.ndjson", tap), try temporaryFile("second.ndjson", tap)]
        options.rulesPath = try temporaryFile("rules.lua", #"on("tap", function(g) emit("tap") end, { cooldown = 100 })"#)
        var told: [Explanation.Sequence] = []
        guard case .success(let (_, tally)) = ExplainRequest(options: options).explain(console: Console(), tell: { told.append($0); return true }) else {
            Issue.record("explain failed")
            return
        }
        #expect(told.map(\.captured.device) == [0, 1])
        #expect(tally.rules.first?.fired == 1)
        #expect(told.last?.verdicts.first?.verdict.outcome == "cooldown", "\(told.last?.verdicts.first?.verdict.words ?? "")")
    }
}

/// A gesture held by `requires_failure_of` is told in the sequence it
/// was made in, with how it ended, however many sequences later that came.
@Suite("explain and held gestures")
struct ExplainHeldTests {
    @Test("a knock's two taps, held for it across three sequences, are each dropped in their own sequence")
    func knockTaps() throws {
        var options = RunOptions()
        let stream = try SynthStream.generate(phrases: ["tap at 120,70 x2 after 0.15", "2-finger tap at 120,70 after 0.15"], seed: 5).get()
        options.inputs = [try temporaryFile("knock.ndjson", stream)]
        options.rulesPath = try temporaryFile("knock.lua", SynthPlacementTests.knockRules)
        var told: [Explanation.Sequence] = []
        guard case .success = ExplainRequest(options: options).explain(console: Console(), tell: { told.append($0); return true }) else {
            Issue.record("explain failed")
            return
        }
        try #require(told.count == 3)
        for sequence in told.prefix(2) {
            let tap = try #require(sequence.verdicts.first { $0.rule.label == #"rule "tap""# }?.verdict)
            #expect(tap.outcome == "dropped", "sequence \(sequence.number): \(tap.words)")
        }
        let knock = try #require(told[2].verdicts.first { $0.rule.label == #"rule "knock""# }?.verdict)
        #expect(knock.fired, "\(knock.words)")
    }
}
