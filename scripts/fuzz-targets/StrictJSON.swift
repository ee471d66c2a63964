// A strict JSON checker for what `emit` writes: RFC 8259 grammar, valid UTF-8,
// no raw control characters in strings, no key twice in one object.

struct StrictJSON {
    let bytes: [UInt8]
    var i = 0
    var problem: String?

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The problem with the line, or nil when it is one JSON object.
    static func check(_ line: String) -> String? {
        var p = StrictJSON(line)
        p.skipSpace()
        guard p.peek == UInt8(ascii: "{") else { return "not an object" }
        guard p.value(depth: 0) else { return p.problem ?? "invalid" }
        p.skipSpace()
        return p.i == p.bytes.count ? nil : "text after the value at \(p.i)"
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func fail(_ message: String) -> Bool {
        if problem == nil { problem = "\(message) at byte \(i)" }
        return false
    }

    mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
    }

    mutating func value(depth: Int) -> Bool {
        guard depth < 10_000 else { return fail("nested too deep") }
        skipSpace()
        guard let b = peek else { return fail("end of text") }
        switch b {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    mutating func literal(_ word: String) -> Bool {
        for c in word.utf8 {
            guard peek == c else { return fail("bad literal") }
            i += 1
        }
        return true
    }

    mutating func object(depth: Int) -> Bool {
        i += 1
        var keys = Set<[UInt8]>()
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; return true }
        while true {
            skipSpace()
            guard let key = string() else { return fail("key expected") }
            guard keys.insert(key).inserted else { return fail("duplicate key \(String(decoding: key, as: UTF8.self).debugDescription)") }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { return fail("colon expected") }
            i += 1
            guard value(depth: depth + 1) else { return false }
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "}") { i += 1; return true }
            return fail("comma or } expected")
        }
    }

    mutating func array(depth: Int) -> Bool {
        i += 1
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; return true }
        while true {
            guard value(depth: depth + 1) else { return false }
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "]") { i += 1; return true }
            return fail("comma or ] expected")
        }
    }

    /// The decoded string's UTF-8, or nil.
    mutating func string() -> [UInt8]? {
        guard peek == UInt8(ascii: "\"") else { _ = fail("string expected"); return nil }
        i += 1
        var out: [UInt8] = []
        while let b = peek {
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                // The text between the quotes was valid UTF-8 byte for byte (escapes aside).
                guard String(validating: out, as: UTF8.self) != nil else { _ = fail("invalid UTF-8"); return nil }
                return out
            case UInt8(ascii: "\\"):
                guard let e = peek else { _ = fail("cut escape"); return nil }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { _ = fail("bad \\u"); return nil }
                    var scalar = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit) {
                        guard peek == UInt8(ascii: "\\") else { _ = fail("lone high surrogate"); return nil }
                        i += 1
                        guard peek == UInt8(ascii: "u") else { _ = fail("lone high surrogate"); return nil }
                        i += 1
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { _ = fail("bad low surrogate"); return nil }
                        scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(unit) {
                        _ = fail("lone low surrogate")
                        return nil
                    }
                    guard let s = Unicode.Scalar(scalar) else { _ = fail("bad scalar"); return nil }
                    out.append(contentsOf: Array(String(Character(s)).utf8))
                default:
                    _ = fail("bad escape")
                    return nil
                }
            default:
                guard b >= 0x20 else { _ = fail("raw control character"); return nil }
                out.append(b)
            }
        }
        _ = fail("unterminated string")
        return nil
    }

    mutating func hex4() -> UInt16? {
        var v: UInt16 = 0
        for _ in 0..<4 {
            guard let b = peek else { return nil }
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
            i += 1
        }
        return v
    }

    mutating func number() -> Bool {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        guard let first = peek, (0x30...0x39).contains(first) else { return fail("bad value") }
        i += 1
        if first != 0x30 { while let b = peek, (0x30...0x39).contains(b) { i += 1 } }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard let b = peek, (0x30...0x39).contains(b) else { return fail("digit expected after .") }
            while let b = peek, (0x30...0x39).contains(b) { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard let b = peek, (0x30...0x39).contains(b) else { return fail("digit expected in exponent") }
            while let b = peek, (0x30...0x39).contains(b) { i += 1 }
        }
        return i > start
    }
}
