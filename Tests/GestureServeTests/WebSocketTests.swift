import Testing
@testable import GestureServe

@Suite("WebSocket handshake and frames")
struct WebSocketTests {
    @Test("the accept key of RFC 6455's own example")
    func acceptKey() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ=="))
        #expect(!WebSocketHandshake.isValidKey("short=="))
        #expect(!WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ!="))
    }

    @Test("base64 of every padding case")
    func base64() {
        #expect(WebSocketHandshake.base64(Array("f".utf8)) == "Zg==")
        #expect(WebSocketHandshake.base64(Array("fo".utf8)) == "Zm8=")
        #expect(WebSocketHandshake.base64(Array("foo".utf8)) == "Zm9v")
    }

    /// A frame as a client sends it: masked.
    static func clientFrame(_ opcode: UInt8, _ payload: [UInt8], mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d], fin: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        out += mask
        for (i, b) in payload.enumerated() { out.append(b ^ mask[i & 3]) }
        return out
    }

    @Test("a masked text frame is unmasked; cut anywhere before its end it is incomplete")
    func textFrame() {
        let bytes = Self.clientFrame(1, Array("Hello".utf8))
        #expect(WebSocketFrame.parse(bytes[...], maxPayload: 4096) == .frame(opcode: .text, payload: Array("Hello".utf8), length: bytes.count))
        for cut in 0..<bytes.count {
            #expect(WebSocketFrame.parse(bytes[0..<cut], maxPayload: 4096) == .incomplete)
        }
    }

    @Test("a 16-bit length, and one over the cap refused from the header alone")
    func lengths() {
        let payload = [UInt8](repeating: 0x61, count: 300)
        let bytes = Self.clientFrame(1, payload)
        #expect(WebSocketFrame.parse(bytes[...], maxPayload: 4096) == .frame(opcode: .text, payload: payload, length: bytes.count))
        #expect(WebSocketFrame.parse(bytes[0..<4], maxPayload: 200) == .invalid("a WebSocket message of 300 bytes (at most 200)"))
        let huge: [UInt8] = [0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(WebSocketFrame.parse(huge[...], maxPayload: 4096) == .invalid("a WebSocket message of 9223372036854775807 bytes (at most 4096)"))
    }

    @Test("what the page never sends is refused", arguments: [
        ([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f] as [UInt8], "an unmasked WebSocket frame (RFC 6455 has clients mask every frame)"),
        (clientFrame(1, [0x61], fin: false), "a fragmented WebSocket message (the page sends whole ones)"),
        (clientFrame(0, [0x61]), "a fragmented WebSocket message (the page sends whole ones)"),
        (clientFrame(0x41, [0x61]), "a WebSocket frame has reserved bits set"),
        (clientFrame(3, [0x61]), "a WebSocket frame with unknown opcode 3"),
        (clientFrame(9, [UInt8](repeating: 0, count: 126)), "a WebSocket control frame longer than 125 bytes"),
    ])
    func refused(bytes: [UInt8], message: String) {
        #expect(WebSocketFrame.parse(bytes[...], maxPayload: 4096) == .invalid(message))
    }

    @Test("server frames are unmasked with the shortest length that fits")
    func encode() {
        #expect(WebSocketFrame.encode(.text, Array("hi".utf8)) == [0x81, 2, 0x68, 0x69])
        let medium = WebSocketFrame.encode(.text, [UInt8](repeating: 0, count: 300))
        #expect(Array(medium[0..<4]) == [0x81, 126, 1, 44])
        let large = WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 70000))
        #expect(Array(large[0..<10]) == [0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
    }
}
