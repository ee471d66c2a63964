import Testing
import GestureCore
import GestureInput

/// What a decoder put out, in order: "named 3 pad" for a device's name,
/// "frame 0.5" for a frame at its time.
private func outputs<D: TouchDecoder>(_ decoder: inout D, _ text: String, chunk: Int = 7) -> [String] {
    var out: [String] = []
    let output = DecoderOutput(frame: { out.append("frame \($0.time)") }, deviceNamed: { out.append("named \($0) \($1)") })
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { all in
        var start = 0
        while start < all.count {
            let end = min(all.count, start + chunk)
            decoder.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]), into: output)
            start = end
        }
    }
    decoder.finish(into: output)
    return out
}

@Suite("A device's name is an element of the decoder's output, before the frames after it")
struct DeviceNamedOutputTests {
    @Test("NDJSON: each device header names the device, between the frames it falls between")
    func ndjson() {
        var decoder = NDJSONDecoder(source: "t", device: 3)
        let text = """
            {"device":{"name":"pad one","x":{"min":0,"max":100,"resolution":10},"y":{"min":0,"max":100,"resolution":10}}}
            {"t":0.5,"ev":"down","id":1,"x":10,"y":10}
            {"t":0.5,"ev":"sync"}
            {"device":{"name":"pad two","x":{"min":0,"max":100,"resolution":10},"y":{"min":0,"max":100,"resolution":10}}}
            {"t":0.6,"ev":"up","id":1}
            {"t":0.6,"ev":"sync"}

            """
        #expect(outputs(&decoder, text) == ["named 3 pad one", "frame 0.5", "named 3 pad two", "frame 0.6"])
    }

    @Test("evemu: the N: line names the device before its events; a second recording joined on names it again")
    func evemu() {
        var decoder = EvemuDecoder(source: "t", device: 1)
        let recording = { (name: String, t: Double) in
            """
            N: \(name)
            A: 35 0 1000 0 0 10
            A: 36 0 1000 0 0 10
            A: 2f 0 9 0 0 0
            A: 39 0 65535 0 0 0
            E: \(t) 0003 0039 0001
            E: \(t) 0003 0035 0100
            E: \(t) 0003 0036 0100
            E: \(t) 0000 0000 0000
            E: \(t + 0.1) 0003 0039 -001
            E: \(t + 0.1) 0000 0000 0000

            """
        }
        let out = outputs(&decoder, recording("Wacom Pad", 1) + recording("Elan Screen", 2))
        #expect(out == ["named 1 Wacom Pad", "frame 1.0", "frame 1.1", "named 1 Elan Screen", "frame 2.0", "frame 2.1"])
    }

    @Test("evemu: description lines that repeat the name do not name the device again")
    func evemuRepeated() {
        var decoder = EvemuDecoder(source: "t")
        let out = outputs(&decoder, "N: Pad\nA: 35 0 1000 0 0 10\nN: Pad\nA: 36 0 1000 0 0 10\n")
        #expect(out == ["named 0 Pad"])
    }

    @Test("libinput: the touch device's DEVICE_ADDED names it at its first touch, not the devices listed after it")
    func libinput() {
        var decoder = LibinputDecoder(source: "t", device: 2)
        let text = """
            -event4   DEVICE_ADDED            NTRG0001:01 1B96:1B05             seat0 default group7  cap:t  size 253x167mm ntouches 10 calib
            -event10  DEVICE_ADDED            Microsoft Surface Type Cover Touchpad seat0 default group8  cap:pg  size 98x50mm
             event4   TOUCH_DOWN              +0.000s\t0 (0) 27.07/42.62 (68.39/71.37mm)
             event4   TOUCH_FRAME             +0.000s
             event4   TOUCH_UP                +0.040s\t0 (0)
             event4   TOUCH_FRAME             +0.040s

            """
        #expect(outputs(&decoder, text) == ["named 2 NTRG0001:01 1B96:1B05", "frame 0.0", "frame 0.04"])
    }

    @Test("raw records: the description given by the device's ioctls names it before the first frame")
    func raw() {
        var decoder = RawEventDecoder(source: "t", resolution: (10, 10), device: 4)
        decoder.describe(EvdevDescription(name: "Live Panel"))
        var bytes: [UInt8] = []
        for (type, code, value) in [(3, 0x39, 1), (3, 0x35, 100), (3, 0x36, 100), (0, 0, 0)] as [(UInt16, UInt16, Int32)] {
            bytes += HostileLibinputAndRawTests.record(7, 0, type, code, value)
        }
        var out: [String] = []
        let output = DecoderOutput(frame: { out.append("frame \($0.time)") }, deviceNamed: { out.append("named \($0) \($1)") })
        bytes.withUnsafeBytes { decoder.feed($0, into: output) }
        #expect(out == ["named 4 Live Panel", "frame 7.0"])
    }

    @Test("a reader that asks for frames alone gets the same frames")
    func framesAlone() {
        let text = "N: Pad\nA: 35 0 1000 0 0 10\nA: 36 0 1000 0 0 10\nE: 1.0 0003 0039 0001\nE: 1.0 0003 0035 0100\nE: 1.0 0003 0036 0100\nE: 1.0 0000 0000 0000\n"
        var a = EvemuDecoder(source: "t")
        var b = EvemuDecoder(source: "t")
        let framesAlone = drive(&a, Array(text.utf8), chunk: 5)
        #expect(outputs(&b, text, chunk: 5) == ["named 0 Pad"] + framesAlone.map { "frame \($0.time)" })
    }
}
