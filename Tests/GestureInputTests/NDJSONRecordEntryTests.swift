import Testing
import GestureCore
import GestureInput

/// Records a program makes (a phone's page) go through the same checks, line
/// numbers and framing as the same lines read as text.
@Suite("Records given to the NDJSON decoder, against the same lines as text")
struct NDJSONRecordEntryTests {
    struct Run: Equatable {
        var out: [String] = []
        var messages: [String] = []
        var errors = 0
    }

    static func fromText(_ lines: [String]) -> Run {
        var decoder = NDJSONDecoder(source: "phone", device: 5)
        var run = Run()
        let output = DecoderOutput(frame: { run.out.append("frame \($0.time) \($0.touches.map { "\($0.id)@\($0.position.x),\($0.position.y) \($0.phase)" })") },
                                   deviceNamed: { run.out.append("named \($0) \($1)") })
        Array(lines.map { $0 + "\n" }.joined().utf8).withUnsafeBytes { decoder.feed($0, into: output) }
        decoder.finish(into: output)
        run.messages = decoder.diagnostics.map(\.description)
        run.errors = decoder.errorCount
        return run
    }

    static func fromRecords(_ records: [NDJSONRecord]) -> Run {
        var decoder = NDJSONDecoder(source: "phone", device: 5)
        var run = Run()
        let output = DecoderOutput(frame: { run.out.append("frame \($0.time) \($0.touches.map { "\($0.id)@\($0.position.x),\($0.position.y) \($0.phase)" })") },
                                   deviceNamed: { run.out.append("named \($0) \($1)") })
        decoder.take(records, into: output)
        decoder.finish(into: output)
        run.messages = decoder.diagnostics.map(\.description)
        run.errors = decoder.errorCount
        return run
    }

    @Test("a header, touches, a hostile record in the middle and touches after: the same frames, messages and lines")
    func same() {
        let device = DeviceInfo(name: "phone 10.0.0.7:40112", x: AxisInfo(minimum: 0, maximum: 390, resolution: 6.299212598425197),
                                y: AxisInfo(minimum: 0, maximum: 844, resolution: 6.299212598425197))
        let records: [NDJSONRecord] = [
            .device(device),
            .event(.down, time: 1.25, id: 0, x: 120.5, y: 300),
            .event(.sync, time: 1.25, id: nil, x: nil, y: nil),
            .event(.move, time: 1.5, id: 0, x: 1e300, y: 300),
            .event(.move, time: .nan, id: 0, x: 1, y: 1),
            .event(.move, time: 1.5, id: 0.5, x: 1, y: 1),
            .event(.down, time: 1.5, id: 1, x: 10, y: nil),
            .event(.move, time: 1.5, id: 0, x: 130.25, y: 310),
            .event(.sync, time: 1.5, id: nil, x: nil, y: nil),
            .event(.up, time: 1.75, id: 0, x: nil, y: nil),
            .event(.sync, time: 1.75, id: nil, x: nil, y: nil),
        ]
        let lines = [
            #"{"device":{"name":"phone 10.0.0.7:40112","x":{"min":0,"max":390,"resolution":6.299212598425197},"y":{"min":0,"max":844,"resolution":6.299212598425197}}}"#,
            #"{"t":1.25,"ev":"down","id":0,"x":120.5,"y":300}"#,
            #"{"t":1.25,"ev":"sync"}"#,
            #"{"t":1.5,"ev":"move","id":0,"x":1e300,"y":300}"#,
            #"{"t":1e999,"ev":"move","id":0,"x":1,"y":1}"#,
            #"{"t":1.5,"ev":"move","id":0.5,"x":1,"y":1}"#,
            #"{"t":1.5,"ev":"down","id":1,"x":10}"#,
            #"{"t":1.5,"ev":"move","id":0,"x":130.25,"y":310}"#,
            #"{"t":1.5,"ev":"sync"}"#,
            #"{"t":1.75,"ev":"up","id":0}"#,
            #"{"t":1.75,"ev":"sync"}"#,
        ]
        let text = Self.fromText(lines)
        let given = Self.fromRecords(records)
        #expect(given.out.count == 4 && given.errors == 4, "\(given)")
        #expect(given.messages.first?.hasPrefix("phone:4: \"x\" is out of range") == true, "\(given.messages)")
        #expect(given.out == text.out)
        #expect(given.errors == text.errors)
        // 1e999 reads as infinity: the same message as NaN's.
        #expect(given.messages == text.messages)
    }

    @Test("under --strict the first bad record stops the rest, as a bad line does")
    func strict() {
        var decoder = NDJSONDecoder(source: "phone")
        decoder.stopsAtFirstError = true
        var frames = 0
        decoder.take([.event(.move, time: .infinity, id: 0, x: 1, y: 1), .event(.down, time: 1, id: 0, x: 1, y: 1), .event(.sync, time: 1, id: nil, x: nil, y: nil)],
                     into: .framesOnly { _ in frames += 1 })
        #expect(frames == 0)
        #expect(decoder.diagnostics.map(\.description) == ["phone:1: \"t\" must be a finite number of seconds"])
    }
}
