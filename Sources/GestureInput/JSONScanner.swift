import Glibc

/// A strict JSON reader over one line's bytes, with no `String` or `Dictionary`
/// on the way: the replay hot path reads a million of these.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    // The first failure, kept as a constant and a column so that the scanner
    // holds no references: copying it is a few words, with no retain or release.
    private var failure: StaticString?
    private var failureColumn = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var failed: Bool { failure != nil }

    /// The first failure, for people: what was expected, and the column.
    var error: String? {
        failure.map { "\($0) at column \(failureColumn)" }
    }

    var atEnd: Bool { pos >= bytes.count }

    @inline(__always)
    var current: UInt8 { pos < bytes.count ? bytes[pos] : 0 }

    mutating func fail(_ message: StaticString) -> Bool {
        if failure == nil {
            failure = message
            failureColumn = pos + 1
        }
        return false
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < bytes.count {
            let b = bytes[pos]
            if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A { pos += 1 } else { break }
        }
    }

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if current == byte && !atEnd {
            pos += 1
            return true
        }
        return false
    }

    /// A string's raw contents (between the quotes), validated; escapes are left
    /// in place and flagged.
    mutating func readString() -> (range: Range<Int>, escaped: Bool)? {
        skipWhitespace()
        guard !atEnd, bytes[pos] == 0x22 else { _ = fail("expected a string"); return nil }
        pos += 1
        let start = pos
        var escaped = false
        while pos < bytes.count {
            let b = bytes[pos]
            if b == 0x22 {
                let range = start..<pos
                pos += 1
                return (range, escaped)
            }
            if b == 0x5C {
                escaped = true
                pos += 1
                guard pos < bytes.count else { break }
                switch bytes[pos] {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: pos += 1
                case 0x75:
                    pos += 1
                    for _ in 0..<4 {
                        guard pos < bytes.count, isHexDigit(bytes[pos]) else { _ = fail("bad \\u escape"); return nil }
                        pos += 1
                    }
                default:
                    _ = fail("bad escape in string")
                    return nil
                }
                continue
            }
            if b < 0x20 { _ = fail("control character in string"); return nil }
            pos += 1
        }
        _ = fail("unterminated string")
        return nil
    }

    /// Decodes a string value fully (escapes included), for the rare fields that need text.
    mutating func readDecodedString() -> String? {
        guard let (range, escaped) = readString() else { return nil }
        return decode(range, escaped: escaped)
    }

    /// The text of a string already read and validated by `readString`.
    func decode(_ range: Range<Int>, escaped: Bool) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !escaped { return String(decoding: slice, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var out: [UInt8] = []
        var i = 0
        func flush() {
            if !out.isEmpty {
                scalars.append(contentsOf: String(decoding: out, as: UTF8.self).unicodeScalars)
                out.removeAll()
            }
        }
        while i < slice.count {
            let b = slice[i]
            if b != 0x5C { out.append(b); i += 1; continue }
            i += 1
            let e = slice[i]
            i += 1
            switch e {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var value: UInt32 = 0
                for _ in 0..<4 { value = value << 4 | UInt32(hexValue(slice[i])); i += 1 }
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default: out.append(e)
            }
        }
        flush()
        return String(scalars)
    }

    /// True when the raw (unescaped) string at `range` equals `literal`.
    @inline(__always)
    func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        var i = 0
        while i < range.count {
            if bytes[range.lowerBound + i] != lit[i] { return false }
            i += 1
        }
        return true
    }

    /// A JSON number, strictly per the grammar, as a Double. The position
    /// lives in a local while digits are read, so it stays in a register.
    mutating func readNumber() -> Double? {
        skipWhitespace()
        let bytes = self.bytes
        let end = bytes.count
        let start = pos
        var p = pos
        defer { pos = p }
        var negative = false
        if p < end, bytes[p] == 0x2D { negative = true; p += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        guard p < end, isDigit(bytes[p]) else { pos = p; _ = fail("expected a number"); return nil }
        if bytes[p] == 0x30 {
            p += 1
            if p < end, isDigit(bytes[p]) { pos = p; _ = fail("leading zero in number"); return nil }
        } else {
            while p < end {
                let d = bytes[p] &- 0x30
                guard d < 10 else { break }
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); digits += 1 } else { exponent += 1 }
                p += 1
            }
        }
        if p < end, bytes[p] == 0x2E {
            p += 1
            guard p < end, isDigit(bytes[p]) else { pos = p; _ = fail("expected a digit after the decimal point"); return nil }
            while p < end {
                let d = bytes[p] &- 0x30
                guard d < 10 else { break }
                // Leading zeros of the fraction are not significant digits: they only move the exponent.
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa > 0 { digits += 1 }
                    exponent -= 1
                }
                p += 1
            }
        }
        if p < end, bytes[p] == 0x65 || bytes[p] == 0x45 {
            p += 1
            var expNegative = false
            if p < end, bytes[p] == 0x2B || bytes[p] == 0x2D { expNegative = bytes[p] == 0x2D; p += 1 }
            guard p < end, isDigit(bytes[p]) else { pos = p; _ = fail("expected exponent digits"); return nil }
            var explicitExponent = 0
            while p < end {
                let d = bytes[p] &- 0x30
                guard d < 10 else { break }
                if explicitExponent < 100_000 { explicitExponent = explicitExponent * 10 + Int(d) }
                p += 1
            }
            exponent += expNegative ? -explicitExponent : explicitExponent
        }
        // Exact when both the mantissa and the power of ten are exact doubles
        // (Clinger's fast path); otherwise let the C library round correctly.
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            let value = exponent < 0 ? m / exactPowerOfTen(-exponent) : m * exactPowerOfTen(exponent)
            return negative ? -value : value
        }
        return slowNumber(start..<p)
    }

    private func slowNumber(_ range: Range<Int>) -> Double? {
        var text = [CChar](repeating: 0, count: range.count + 1)
        for i in 0..<range.count { text[i] = CChar(bitPattern: bytes[range.lowerBound + i]) }
        return text.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { strtod($0, nil) } }
    }

    /// Skips any JSON value, checking its syntax.
    mutating func skipValue(depth: Int = 0) -> Bool {
        guard depth < 64 else { return fail("nested too deeply") }
        skipWhitespace()
        guard !atEnd else { return fail("expected a value") }
        switch bytes[pos] {
        case 0x22: return readString() != nil
        case 0x7B:
            pos += 1
            if consume(0x7D) { return true }
            repeat {
                guard readString() != nil else { return false }
                guard consume(0x3A) else { return fail("expected ':'") }
                guard skipValue(depth: depth + 1) else { return false }
            } while consume(0x2C)
            return consume(0x7D) ? true : fail("expected ',' or '}'")
        case 0x5B:
            pos += 1
            if consume(0x5D) { return true }
            repeat {
                guard skipValue(depth: depth + 1) else { return false }
            } while consume(0x2C)
            return consume(0x5D) ? true : fail("expected ',' or ']'")
        case 0x74: return literal("true")
        case 0x66: return literal("false")
        case 0x6E: return literal("null")
        default: return readNumber() != nil
        }
    }

    mutating func readNull() -> Bool {
        skipWhitespace()
        return current == 0x6E && literal("null")
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard pos + n <= bytes.count else { return fail("unknown literal") }
        for i in 0..<n where bytes[pos + i] != word.utf8Start[i] { return fail("unknown literal") }
        pos += n
        return true
    }
}

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
@inline(__always) private func isHexDigit(_ b: UInt8) -> Bool {
    isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
}
@inline(__always) private func hexValue(_ b: UInt8) -> UInt8 {
    isDigit(b) ? b - 0x30 : (b | 0x20) - 0x61 + 10
}

/// 10^n for n in 0...22, every one an exact double; a switch rather than a
/// global array, which would cost a lazy-initialisation check per call.
@inline(__always) func exactPowerOfTen(_ n: Int) -> Double {
    switch n {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
}
