/// The RFC 6455 framing `serve` speaks: whole text messages from the page
/// (masked, as clients must), ping, pong and close; the page never fragments a
/// message this small, so a fragment is refused rather than buffered.
public enum WebSocketFrame {
    public enum Opcode: UInt8, Sendable {
        case text = 1
        case binary = 2
        case close = 8
        case ping = 9
        case pong = 10
    }

    public enum Parse: Equatable, Sendable {
        case incomplete
        case frame(opcode: Opcode, payload: [UInt8], length: Int)
        case invalid(String)
    }

    /// One frame from the start of `bytes`; a payload over `maxPayload` is
    /// refused from its header, before any of it is buffered.
    public static func parse(_ bytes: ArraySlice<UInt8>, maxPayload: Int) -> Parse {
        guard bytes.count >= 2 else { return .incomplete }
        let s = bytes.startIndex
        let b0 = bytes[s], b1 = bytes[s + 1]
        guard b0 & 0x70 == 0 else { return .invalid("a WebSocket frame has reserved bits set") }
        guard b0 & 0x80 != 0, b0 & 0x0f != 0 else { return .invalid("a fragmented WebSocket message (the page sends whole ones)") }
        guard let opcode = Opcode(rawValue: b0 & 0x0f) else { return .invalid("a WebSocket frame with unknown opcode \(b0 & 0x0f)") }
        guard b1 & 0x80 != 0 else { return .invalid("an unmasked WebSocket frame (RFC 6455 has clients mask every frame)") }
        var length = Int(b1 & 0x7f)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return .incomplete }
            length = Int(bytes[s + 2]) << 8 | Int(bytes[s + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return .incomplete }
            var value: UInt64 = 0
            for i in 2..<10 { value = value << 8 | UInt64(bytes[s + i]) }
            guard value <= UInt64(maxPayload) else { return .invalid("a WebSocket message of \(value) bytes (at most \(maxPayload))") }
            length = Int(value)
            offset = 10
        }
        if opcode.rawValue >= 8, length > 125 { return .invalid("a WebSocket control frame longer than 125 bytes") }
        guard length <= maxPayload else { return .invalid("a WebSocket message of \(length) bytes (at most \(maxPayload))") }
        guard bytes.count >= offset + 4 + length else { return .incomplete }
        let mask = bytes[(s + offset)..<(s + offset + 4)].map { $0 }
        let start = s + offset + 4
        var payload = [UInt8](repeating: 0, count: length)
        for i in 0..<length { payload[i] = bytes[start + i] ^ mask[i & 3] }
        return .frame(opcode: opcode, payload: payload, length: offset + 4 + length)
    }

    /// A frame from the server: unmasked, as servers send them.
    public static func encode(_ opcode: Opcode, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode.rawValue]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xffff {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xff)) }
        }
        return out + payload
    }
}
