/// Text made safe for a Lua source file and for a message on a terminal.
enum LuaText {
    /// A Lua string literal: quotes, backslashes and control characters escaped.
    static func literal(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\t"): out += "\\t"
            case 0..<0x20, 0x7F:
                let digits = String(byte)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            default:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return fixUTF8(out) + "\""
    }

    /// The bytes above were appended one scalar per byte; put the UTF-8 back together.
    private static func fixUTF8(_ s: String) -> String {
        let bytes = s.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A Lua pattern that matches exactly this text: magic characters escaped with %.
    static func patternEscaped(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 4)
        for byte in text.utf8 {
            if magic.contains(byte) { out.append(UInt8(ascii: "%")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let magic = Set("^$()%.[]*+-?".utf8)

    /// Text for a comment or a message: one line, no control characters, not too long.
    static func printable(_ text: String, limit: Int = 200) -> String {
        // Most text is short and has no control character (C0, DEL or C1, U+0080-U+009F: C2 80-9F), and stays as it is.
        if text.utf8.count < limit {
            var previous: UInt8 = 0
            let plain = text.utf8.allSatisfy { byte in
                defer { previous = byte }
                return byte >= 0x20 && byte != 0x7F && !(previous == 0xC2 && byte >= 0x80 && byte < 0xA0)
            }
            if plain { return text }
        } else if text.utf8.prefix(limit).allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII as far as the limit: one character a byte.
            return String(decoding: text.utf8.prefix(limit), as: UTF8.self) + "..."
        }
        var out = ""
        var count = 0
        for c in text {
            if c.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }) {
                out.append(" ")
            } else {
                out.append(c)
            }
            count += 1
            if count >= limit {
                out += "..."
                break
            }
        }
        return out
    }

    /// A number as people write it: 1 rather than 1.0.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
