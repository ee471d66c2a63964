import GestureCore
import GestureInput
import Testing

/// Which evdev streams are a mouse's: their events go to the stroke gate, a
/// touch device's to the touch assembler, as before there were mice.
@Suite("A recorded mouse's events told from a touch device's")
struct MouseRecordingSortTests {
    typealias Event = (UInt16, UInt16, Int32)

    static func raw(_ events: [(Double, Event)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (time, (type, code, value)) in events {
            let seconds = Int64(time.rounded(.down))
            bytes += HostileLibinputAndRawTests.record(seconds, Int64(((time - Double(seconds)) * 1e6).rounded()), type, code, value)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8], device: Int = 3) -> (frames: Int, mouse: [String], readsMouse: Bool) {
        var decoder = RawEventDecoder(source: "t", resolution: (10, 10), device: device)
        var frames = 0
        var mouse: [String] = []
        let output = DecoderOutput(frame: { _ in frames += 1 }, deviceNamed: { _, _ in },
                                   mouse: { mouse.append("\($0) \($1.type):\($1.code)=\($1.value)") })
        bytes.withUnsafeBytes { decoder.feed($0, into: output) }
        decoder.finish(into: output)
        return (frames, mouse, decoder.readsMouse)
    }

    @Test("raw records: a press before the first motion waits for it, and goes to the mouse in order with it")
    func rawMouse() {
        let out = Self.decode(Self.raw([(1.0, (1, BTN.right, 1)), (1.0, (0, 0, 0)), (1.01, (2, REL.x, -5)), (1.01, (0, 0, 0))]))
        #expect(out.mouse == ["3 1:273=1", "3 0:0=0", "3 2:0=-5", "3 0:0=0"])
        #expect(out.frames == 0)
        #expect(out.readsMouse)
    }

    @Test("raw records: a touch device's key before its first axis still reaches the assembler, and nothing goes to the mouse")
    func rawTouch() {
        let out = Self.decode(Self.raw([(1.0, (1, BTN.touch, 1)), (1.0, (3, ABS.mtTrackingID, 1)), (1.0, (3, ABS.mtPositionX, 100)),
                                        (1.0, (3, ABS.mtPositionY, 100)), (1.0, (0, 0, 0)), (1.1, (3, ABS.mtTrackingID, -1)),
                                        (1.1, (1, BTN.touch, 0)), (1.1, (0, 0, 0))]))
        #expect(out.mouse.isEmpty)
        #expect(out.frames == 2)
        #expect(!out.readsMouse)
    }

    @Test("evemu: the description decides before any event: B: 02 with X and Y and no B: 03 bits is a mouse; A: lines a touch device")
    func evemuDescription() {
        let mouse = "N: m\nB: 02 03 01 00 00 00 00 00 00\nB: 03 00 00 00 00 00 00 00 00\nE: 1.0 0001 0111 1\nE: 1.0 0000 0000 0\n"
        var decoder = EvemuDecoder(source: "t")
        var got: [String] = []
        let output = DecoderOutput(frame: { _ in got.append("frame") }, deviceNamed: { _, _ in }, mouse: { got.append("mouse \($1.type)") })
        mouse.utf8.withContiguousStorageIfAvailable { decoder.feed(UnsafeRawBufferPointer($0), into: output) }
        decoder.finish(into: output)
        #expect(got == ["mouse 1", "mouse 0"])
        #expect(decoder.readsMouse)
    }
}
