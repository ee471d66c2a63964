import Foundation
import GestureCore
import GestureInput
import Testing

/// Inputs that once broke a fuzz target (scripts/fuzz), kept under
/// Fixtures/fuzz/TARGET/ and replayed as the target feeds them: the first byte
/// chooses the piece size (its low 7 bits, 0 for all at once) and whether each
/// piece is flushed (its high bit); the rest is the input.
@Suite("Fuzz reproducers")
struct FuzzReproducerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    struct Replay {
        var frames: [TouchFrame] = []
        var diagnostics: [Diagnostic] = []
    }

    static func replay<D: TouchDecoder>(_ decoder: D, _ input: [UInt8]) -> Replay {
        var decoder = decoder
        var out = Replay()
        guard let control = input.first else { return out }
        let body = Array(input.dropFirst())
        let piece = control & 0x7F == 0 ? max(body.count, 1) : Int(control & 0x7F)
        var offset = 0
        while offset < body.count {
            let end = min(offset + piece, body.count)
            body[offset..<end].withUnsafeBytes { decoder.feed($0) { out.frames.append($0) } }
            if control & 0x80 != 0 { decoder.flush { out.frames.append($0) } }
            offset = end
        }
        decoder.finish { out.frames.append($0) }
        out.diagnostics = decoder.diagnostics
        return out
    }

    static func fixture(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(target).appendingPathComponent(name)))
    }

    @Test("libinput: a time of +1e3007s is refused at its line; the frames' times stay finite and never go back")
    func libinputHugeTime() throws {
        let run = Self.replay(LibinputDecoder(source: "fuzz.libinput"), try Self.fixture("libinput", "time-1e3007"))
        #expect(run.frames.allSatisfy { $0.time.isFinite })
        #expect(zip(run.frames, run.frames.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(run.diagnostics.contains { $0.description.contains("time") }, "\(run.diagnostics)")
    }

    @Test("auto: libinput list-devices text fed 7 bytes at a time is no format, said once")
    func autoDetectionInPieces() throws {
        let input = try Self.fixture("auto", "detection-7-byte-pieces")
        #expect(input.first == 7)
        let run = Self.replay(AutoDecoder(source: "fuzz.input"), input)
        #expect(run.frames.isEmpty)
        #expect(run.diagnostics.map(\.description) == [
            "fuzz.input:1: cannot tell the input format: no line among the first ones is ndjson, evemu, evtest or libinput text, nor is it raw event records; give --format ndjson, evemu, evtest, libinput, raw",
        ])
        // The same bytes at once decide the same.
        var whole = input
        whole[0] = 0
        #expect(Self.replay(AutoDecoder(source: "fuzz.input"), whole).diagnostics.map(\.description) == run.diagnostics.map(\.description))
    }

    @Test("evtest: a click in a packet whose time went back makes its frame at the packet's checked time: frame times never go back")
    func clickWhenTimeGoesBack() throws {
        let run = Self.replay(EvtestDecoder(source: "fuzz.evtest"), try Self.fixture("evtest", "click-time-goes-back"))
        #expect(!run.frames.isEmpty)
        #expect(zip(run.frames, run.frames.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(run.frames.contains { $0.clicked })
    }
}
