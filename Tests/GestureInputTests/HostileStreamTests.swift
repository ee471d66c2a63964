import GestureCore
@testable import GestureInput
import Testing

// Streams that are well-formed line by line but hostile as a whole: clocks
// that jump, more touches than any hand, palms, and the assembler's readable
// protocol state.

private func run<D: TouchDecoder>(_ decoder: D, _ text: String, chunk: Int? = 5) -> (frames: [TouchFrame], diagnostics: [String], errors: Int) {
    var d = decoder
    let frames = drive(&d, Array(text.utf8), chunk: chunk)
    return (frames, d.diagnostics.map(\.description), d.errorCount)
}

private func lines(_ l: [String]) -> String { l.joined(separator: "\n") + "\n" }

private func phases(_ frames: [TouchFrame]) -> [[String]] {
    frames.map { $0.touches.map { "\($0.id):\($0.phase)" } }
}

private func event(_ t: Double, _ ev: String, _ id: Int, x: Int? = nil, y: Int? = nil, extra: String = "") -> String {
    var s = "{\"t\": \(t), \"ev\": \"\(ev)\", \"id\": \(id)"
    if let x { s += ", \"x\": \(x)" }
    if let y { s += ", \"y\": \(y)" }
    return s + extra + "}"
}

@Suite("Clock jumps")
struct ClockJumpTests {
    @Test("one t far ahead mid-stroke is reported once; the clock goes on from where it was and later strokes keep their timing")
    func outlierForward() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            event(0.0, "down", 1, x: 0, y: 0),
            event(0.1, "move", 1, x: 10, y: 0),
            event(5e9, "move", 1, x: 20, y: 0),
            event(0.2, "move", 1, x: 30, y: 0),
            event(0.3, "up", 1),
            event(1.0, "down", 2, x: 0, y: 0),
            event(1.25, "up", 2),
        ]))
        #expect(r.diagnostics == ["in:3: \(FramingAnomaly.clockJumped.message)"])
        #expect(r.errors == 0)
        // 5e9 continues at 0.1, and 0.2 at 0.1 again (one frame, as events of one
        // time are); from there the clock keeps its steps.
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"], ["2:began"], ["2:ended"]])
        let times = r.frames.map { ($0.time * 1000).rounded() / 1000 }
        #expect(times == [0.0, 0.1, 0.2, 0.9, 1.15], "\(times)")
        #expect(r.frames[1].touches.first.map { abs($0.position.x - 30 / cssPixelsPerMillimetre) < 1e-9 } == true)
    }

    @Test("a clock that changes for good (two recordings joined) is re-based once and runs on")
    func joinedRecordings() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            event(100.0, "down", 1, x: 0, y: 0), event(100.1, "up", 1),
            event(1.7e9, "down", 2, x: 0, y: 0), event(1.7e9 + 0.05, "up", 2),
        ]))
        #expect(r.diagnostics == ["in:3: \(FramingAnomaly.clockJumped.message)"])
        // No touch was down: the second recording begins a second after the first ends.
        #expect(phases(r.frames) == [["1:began"], ["1:ended"], ["2:began"], ["2:ended"]])
        let times = r.frames.map { ($0.time * 1000).rounded() / 1000 }
        #expect(times == [100.0, 100.1, 101.1, 101.15], "\(times)")
    }

    @Test("a step back under a day is still held at the previous time, as documented")
    func smallStepBack() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            event(10.0, "down", 1, x: 0, y: 0), event(9.0, "move", 1, x: 5, y: 0), event(10.5, "up", 1),
        ]))
        #expect(r.diagnostics == ["in:2: \(FramingAnomaly.timeWentBackwards.message)"])
        #expect(r.frames.map(\.time) == [10.0, 10.5])
    }

    @Test("evemu: a jump of days between packets re-bases the clock, reported at its line")
    func evemu() {
        let text = lines([
            "N: panel", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10",
            "E: 1.000000 0003 0039 1", "E: 1.000000 0003 0035 100", "E: 1.000000 0003 0036 100", "E: 1.000000 0000 0000 0000",
            "E: 900001.000000 0003 0035 110", "E: 900001.000000 0000 0000 0000",
            "E: 1.020000 0003 0039 -1", "E: 1.020000 0000 0000 0000",
        ])
        let r = run(EvemuDecoder(source: "in"), text)
        #expect(r.diagnostics == ["in:9: \(FramingAnomaly.clockJumped.message)"])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        #expect(r.frames.last.map { abs($0.time - 1.0) < 1e-9 } == true, "\(r.frames.map(\.time))")
    }
}

@Suite("Positions no surface has")
struct FarPositionTests {
    @Test("a position more than a kilometre from the origin (valid units at a tiny resolution) is ignored, reported once")
    func kilometreAway() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            #"{"device": {"x": {"min": 0, "max": 2000000000, "resolution": 0.001}, "y": {"min": 0, "max": 100, "resolution": 0.001}}}"#,
            event(0, "down", 1, x: 0, y: 0),
            event(0.01, "move", 1, x: 2_000_000_000, y: 0),
            event(0.02, "move", 1, x: 1_900_000_000, y: 0),
            event(0.03, "move", 1, x: 1, y: 0),
            event(0.04, "up", 1),
        ]))
        #expect(r.diagnostics == ["in:3: \(FramingAnomaly.positionOutOfRange.message)"])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        #expect(r.frames.allSatisfy { $0.touches.allSatisfy { abs($0.position.x) <= InputLimits.maxMillimetres } })
    }
}

@Suite("More touches than a hand")
struct ContactCapTests {
    @Test("100 touches down at once: 64 are tracked, the rest reported once and ignored until they lift; then new ones land")
    func ndjson() {
        var l = (1...100).map { event(0, "down", $0, x: $0, y: $0) }
        l += (1...100).map { event(0.01, "move", $0, x: $0 + 1, y: $0) }
        l += (1...100).map { event(0.02, "up", $0) }
        l.append(event(0.03, "down", 500, x: 1, y: 1))
        l.append(event(0.04, "up", 500))
        let r = run(NDJSONDecoder(source: "in"), lines(l), chunk: nil)
        #expect(r.diagnostics == ["in:65: \(FramingAnomaly.tooManyContacts.message)"])
        #expect(r.errors == 0)
        #expect(r.frames.map(\.activeCount).max() == 64)
        #expect(r.frames.first?.touches.count == 64)
        #expect(!r.frames.contains { $0.touches.contains { $0.id > 64 && $0.id != 500 } })
        #expect(phases(r.frames).suffix(2) == [["500:began"], ["500:ended"]])
    }

    @Test("a protocol-A packet of 100 contacts: 64 are kept, reported once")
    func protocolA() {
        var l = ["N: panel", "A: 35 0 4095 0 0 16", "A: 36 0 4095 0 0 16"]
        for i in 0..<100 { l += ["E: 0.000000 0003 0035 \(i * 10)", "E: 0.000000 0003 0036 \(i * 10)", "E: 0.000000 0000 0002 0000"] }
        l += ["E: 0.000000 0000 0000 0000", "E: 0.010000 0000 0000 0000"]
        let r = run(EvemuDecoder(source: "in"), lines(l), chunk: nil)
        #expect(r.diagnostics == ["in:198: \(AssemblyAnomaly.tooManyContacts.message)"])
        #expect(r.frames.first?.touches.count == 64)
        #expect(r.frames.last?.touches.allSatisfy { $0.phase == .ended } == true)
    }
}

/// A 10-slot touchscreen at 10 units/mm with ABS_MT_TOOL_TYPE.
private let panel = ["N: panel", "P: 02 00 00 00 00 00 00 00", "A: 2f 0 9 0 0 0", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10", "A: 37 0 2 0 0 0", "A: 39 0 65535 0 0 0"]

@Suite("Palms (ABS_MT_TOOL_TYPE = MT_TOOL_PALM)")
struct PalmTests {
    @Test("a contact that lands as a palm is never seen; a finger beside it is")
    func landsAsPalm() {
        let r = run(EvemuDecoder(source: "in"), lines(panel + [
            "E: 0.000000 0003 002f 0", "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0037 2", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100",
            "E: 0.000000 0003 002f 1", "E: 0.000000 0003 0039 2", "E: 0.000000 0003 0035 500", "E: 0.000000 0003 0036 500",
            "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 002f 0", "E: 0.010000 0003 0035 150", "E: 0.010000 0000 0000 0000",
            "E: 0.050000 0003 0039 -1", "E: 0.050000 0003 002f 1", "E: 0.050000 0003 0039 -1", "E: 0.050000 0000 0000 0000",
        ]))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["2:began"], ["2:ended"]])
    }

    @Test("a finger that turns into a palm mid-stroke is cancelled, not ended, so it completes no tap; its slot stays a palm for the next contact until the tool type changes")
    func turnsIntoPalm() {
        let r = run(EvemuDecoder(source: "in"), lines(panel + [
            "E: 0.000000 0003 002f 0", "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0000 0000",
            "E: 0.030000 0003 0037 2", "E: 0.030000 0003 0035 110", "E: 0.030000 0000 0000 0000",
            "E: 0.040000 0003 0035 130", "E: 0.040000 0003 0037 0", "E: 0.040000 0000 0000 0000",
            "E: 0.050000 0003 0039 -1", "E: 0.050000 0000 0000 0000",
            // The same slot, tool type still palm (values persist): ignored too.
            "E: 0.200000 0003 0037 2", "E: 0.200000 0000 0000 0000",
            "E: 0.300000 0003 0039 2", "E: 0.300000 0000 0000 0000", "E: 0.350000 0003 0039 -1", "E: 0.350000 0000 0000 0000",
            // A finger again.
            "E: 0.400000 0003 0037 0", "E: 0.400000 0003 0039 3", "E: 0.400000 0000 0000 0000", "E: 0.450000 0003 0039 -1", "E: 0.450000 0000 0000 0000",
        ]))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:cancelled"], ["3:began"], ["3:ended"]])
    }

    @Test("raw records: the same palm rules")
    func raw() {
        var palmFirst = HostileLibinputAndRawTests.rawStroke(tool: MTTool.palm)
        palmFirst += HostileLibinputAndRawTests.rawStroke(at: 1, tool: MTTool.finger)
        var d = RawEventDecoder(source: "in", resolution: (10, 10))
        let frames = drive(&d, palmFirst, chunk: 24)
        #expect(d.diagnostics.isEmpty)
        #expect(phases(frames) == [["2:began"], ["2:moved"], ["2:ended"]])

        var turning = RawEventDecoder(source: "in", resolution: (10, 10))
        let turned = drive(&turning, HostileLibinputAndRawTests.rawStroke(palmAfterMove: true), chunk: 11)
        #expect(phases(turned) == [["1:began"], ["1:cancelled"]])
    }

    @Test("protocol A: a palm contact is never seen; a contact that turns into one is cancelled")
    func protocolA() {
        let r = run(EvemuDecoder(source: "in"), lines([
            "N: panel", "A: 35 0 4095 0 0 16", "A: 36 0 4095 0 0 16",
            "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0002 0000",
            "E: 0.000000 0003 0035 900", "E: 0.000000 0003 0036 900", "E: 0.000000 0003 0037 2", "E: 0.000000 0000 0002 0000",
            "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 0035 101", "E: 0.010000 0003 0036 100", "E: 0.010000 0003 0037 2", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0003 0035 900", "E: 0.010000 0003 0036 900", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0000 0000 0000",
            "E: 0.020000 0000 0000 0000",
        ]))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:cancelled"]])
    }

    @Test("NDJSON's \"tool\": \"palm\" extension: a palm down is ignored, a finger that becomes one is cancelled")
    func ndjson() {
        let r = run(NDJSONDecoder(source: "in"), lines([
            event(0, "down", 1, x: 0, y: 0),
            event(0, "down", 2, x: 50, y: 50, extra: ", \"tool\": \"palm\""),
            event(0.01, "move", 2, x: 55, y: 50),
            event(0.02, "move", 1, x: 1, y: 0, extra: ", \"tool\": \"palm\""),
            event(0.03, "move", 1, x: 2, y: 0),
            event(0.04, "up", 1),
            event(0.05, "up", 2),
            event(0.06, "down", 1, x: 0, y: 0, extra: ", \"tool\": \"finger\""),
            event(0.07, "up", 1),
        ]))
        #expect(r.diagnostics == [])
        #expect(phases(r.frames) == [["1:began"], ["1:cancelled"], ["1:began"], ["1:ended"]])
    }
}

@Suite("SlotAssembler's protocol mode")
struct ProtocolModeTests {
    private func mode(_ events: [EvdevEvent], semiMT: Bool = false) -> ProtocolMode {
        var a = SlotAssembler(converter: UnitConverter(device: nil))
        a.semiMT = semiMT
        for e in events { a.handle(e) { _ in } }
        return a.mode
    }

    private func abs(_ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(time: 0, type: EV.abs, code: code, value: value) }
    private let report = EvdevEvent(time: 0, type: EV.syn, code: SYN.report, value: 0)
    private let mtReport = EvdevEvent(time: 0, type: EV.syn, code: SYN.mtReport, value: 0)

    @Test("unknown until multitouch shows; undecided on MT values alone; B on a slot; semi-MT when described so; A on SYN_MT_REPORT")
    func modes() {
        #expect(mode([]) == .unknown)
        #expect(mode([abs(ABS.x, 5), abs(ABS.y, 5), report]) == .unknown)
        #expect(mode([abs(ABS.mtPositionX, 5), report]) == .undecided)
        #expect(mode([abs(ABS.mtPositionX, 5), abs(ABS.mtSlot, 1), report]) == .protocolB)
        #expect(mode([abs(ABS.mtSlot, 0)], semiMT: true) == .semiMT)
        #expect(mode([abs(ABS.mtPositionX, 5), mtReport, report]) == .protocolA)
        // Once A, a stray slot event does not turn it back.
        #expect(mode([abs(ABS.mtPositionX, 5), mtReport, abs(ABS.mtSlot, 1), report]) == .protocolA)
    }

    @Test("the description's semi-MT flag moves B to semi-MT and back")
    func semiMTFollowsTheDescription() {
        var a = SlotAssembler(converter: UnitConverter(device: nil))
        a.handle(abs(ABS.mtSlot, 0)) { _ in }
        #expect(a.mode == .protocolB)
        a.semiMT = true
        #expect(a.mode == .semiMT)
        a.semiMT = false
        #expect(a.mode == .protocolB)
    }
}
