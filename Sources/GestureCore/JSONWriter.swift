/// Builds JSON text byte by byte: the one place strings are escaped and numbers
/// formatted for every JSON line gesturemap writes.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    /// `capacity` 0 allocates nothing: a writer to swap a kept one out with.
    public init(capacity: Int = 128) {
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// Empty again, keeping its storage for the next line.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// A JSON string. Invalid UTF-8 becomes U+FFFD; control characters are escaped.
    public mutating func string(_ s: String) {
        var copy = s
        copy.withUTF8 { string(utf8: $0) }
    }

    public mutating func string(utf8 input: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var i = 0
        let n = input.count
        while i < n {
            // Printable ASCII that needs no escape goes in as one run: a byte
            // at a time, each append checked the array's uniqueness.
            let run = i
            while i < n, JSONWriter.isPlain(input[i]) { i += 1 }
            if i > run { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i])) }
            guard i < n else { break }
            let b = input[i]
            if b < 0x80 {
                switch b {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x00..<0x20, 0x7F:
                    raw("\\u00")
                    bytes.append(hexDigit(b >> 4))
                    bytes.append(hexDigit(b & 0xF))
                default: bytes.append(b)
                }
                i += 1
                continue
            }
            let sequence = utf8Sequence(input, at: i)
            if sequence.valid {
                for k in 0..<sequence.length { bytes.append(input[i + k]) }
            } else {
                bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
            i += sequence.length
        }
        bytes.append(0x22)
    }

    /// A number as JSON allows: integers (up to 2^53, where doubles stop being
    /// exact) without a fraction, others in the shortest form that reads back
    /// the same; non-finite values become null.
    public mutating func number(_ v: Double) {
        guard v.isFinite else { raw("null"); return }
        if v == v.rounded(), abs(v) <= 9_007_199_254_740_992 {
            integer(Int64(v))
            return
        }
        bytes.append(contentsOf: Array(v.description.utf8))
    }

    /// Seconds on the input clock, to the microsecond: deadlines computed by
    /// addition would otherwise print as 0.30000000000000004.
    public mutating func time(_ t: Double) {
        guard t.isFinite else { raw("null"); return }
        let micro = (t * 1_000_000).rounded()
        if abs(micro) >= 9e15 { number(t); return }
        var m = Int64(micro)
        if m < 0 { bytes.append(0x2D); m = -m }
        let whole = m / 1_000_000
        var frac = m % 1_000_000
        integer(whole)
        guard frac != 0 else { return }
        bytes.append(0x2E)
        var digits = 6
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        // Written from the last digit back, where they go: every emitted line
        // has a time, and a buffer of its own was an allocation each.
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0x30, count: digits))
        bytes.withUnsafeMutableBufferPointer { all in
            var k = start + digits - 1
            while frac > 0 { all[k] = UInt8(frac % 10) + 0x30; frac /= 10; k -= 1 }
        }
    }

    public mutating func integer(_ v: Int64) {
        if v == 0 { bytes.append(0x30); return }
        var magnitude = v.magnitude
        if v < 0 { bytes.append(0x2D) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            while magnitude > 0 {
                digits[count] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            }
            // Most significant first, then in with one append.
            var low = 0
            var high = count - 1
            while low < high {
                digits.swapAt(low, high)
                low += 1
                high -= 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<count]))
        }
    }

    private func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }

    @inline(__always)
    private static func isPlain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C }
}

/// The UTF-8 sequence starting at `i`: its length when valid, or the length of
/// its maximal valid prefix when not (Unicode's "maximal subpart", which becomes
/// one U+FFFD, as Swift's own decoder does). Overlong forms, surrogates and
/// truncated sequences are invalid.
private func utf8Sequence(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> (length: Int, valid: Bool) {
    let b0 = s[i]
    let expected: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: expected = 2
    case 0xE0: expected = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: expected = 3
    case 0xED: expected = 3; high = 0x9F
    case 0xF0: expected = 4; low = 0x90
    case 0xF1...0xF3: expected = 4
    case 0xF4: expected = 4; high = 0x8F
    default: return (1, false)
    }
    var k = 1
    while k < expected {
        guard i + k < s.count else { return (k, false) }
        let b = s[i + k]
        // Only the second byte has the narrowed range.
        let ok = k == 1 ? (b >= low && b <= high) : (b & 0xC0 == 0x80)
        guard ok else { return (k, false) }
        k += 1
    }
    return (expected, true)
}
