/// The usual shape of a native event line, read in one pass over its bytes:
/// `{"t": 1.25, "ev": "move", "id": 3, "x": 120.5, "y": 80}` with the keys in
/// any order, spaces or none, plain decimal numbers and no other keys.
///
/// Anything else (escapes, `null`, exponents, long numbers, unknown or repeated
/// keys, device headers, mistakes) is declined, and the line goes to
/// `NDJSONLineParser`, which reads all of JSON and explains errors. So this lane
/// decides nothing on its own: when it accepts a line, the full parser would
/// have read the same event, bit for bit (NDJSONFastLaneTests hold it to that).
/// It exists because the full parser costs about four times as many
/// instructions per line, and replay reads a million lines.
enum NDJSONFastLane {
    struct Event: Equatable {
        var kind: TouchEventKind
        var time: Double
        var id: Int
        var x: Double?
        var y: Double?
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
        var r = Reader(line)
        r.skipSpace()
        guard r.take(0x7B) else { return nil }
        var time: Double?
        var kind: TouchEventKind?
        var id: Int?
        var x: Double?
        var y: Double?
        repeat {
            r.skipSpace()
            guard let key = r.key() else { return nil }
            r.skipSpace()
            guard r.take(0x3A) else { return nil }
            r.skipSpace()
            switch key {
            case .t:
                guard time == nil, let v = r.number(integerOnly: false) else { return nil }
                time = v
            case .x:
                guard x == nil, let v = r.number(integerOnly: false) else { return nil }
                x = v
            case .y:
                guard y == nil, let v = r.number(integerOnly: false) else { return nil }
                y = v
            case .id:
                guard id == nil, let n = r.integer() else { return nil }
                id = n
            case .ev:
                guard kind == nil, let k = r.kind() else { return nil }
                kind = k
            }
            r.skipSpace()
        } while r.take(0x2C)
        guard r.take(0x7D) else { return nil }
        r.skipSpace()
        guard r.atEnd, let time, let kind else { return nil }
        // Out-of-range numbers are the full parser's to explain.
        guard InputLimits.time(time) != nil else { return nil }
        if let x, InputLimits.units(x) == nil { return nil }
        if let y, InputLimits.units(y) == nil { return nil }
        if kind == .sync { return Event(kind: .sync, time: time, id: 0, x: nil, y: nil) }
        guard let id else { return nil }
        if kind == .down && (x == nil || y == nil) { return nil }
        return Event(kind: kind, time: time, id: id, x: x, y: y)
    }

    private enum Key { case t, ev, id, x, y }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var p = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { p >= bytes.count }

        @inline(__always)
        func at(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        @inline(__always)
        mutating func skipSpace() {
            while p < bytes.count, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
        }

        @inline(__always)
        mutating func take(_ byte: UInt8) -> Bool {
            guard p < bytes.count, bytes[p] == byte else { return false }
            p += 1
            return true
        }

        /// A quoted key of the native format, with no escapes.
        @inline(__always)
        mutating func key() -> Key? {
            guard at(p) == 0x22 else { return nil }
            let a = at(p + 1)
            let b = at(p + 2)
            if b == 0x22 {
                p += 3
                switch a {
                case 0x74: return .t
                case 0x78: return .x
                case 0x79: return .y
                default: return nil
                }
            }
            guard at(p + 3) == 0x22 else { return nil }
            p += 4
            if a == 0x65 && b == 0x76 { return .ev }
            if a == 0x69 && b == 0x64 { return .id }
            return nil
        }

        /// `"down"`, `"move"`, `"up"`, `"cancel"` or `"sync"`, with no escapes.
        @inline(__always)
        mutating func kind() -> TouchEventKind? {
            guard at(p) == 0x22 else { return nil }
            let start = p + 1
            var q = start
            while q < bytes.count, bytes[q] != 0x22 {
                if bytes[q] == 0x5C || bytes[q] < 0x20 { return nil }
                q += 1
            }
            guard q < bytes.count else { return nil }
            let length = q - start
            p = q + 1
            let c0 = at(start)
            let c1 = at(start + 1)
            switch length {
            case 2 where c0 == 0x75 && c1 == 0x70: return .up
            case 4 where c0 == 0x6D && c1 == 0x6F && at(start + 2) == 0x76 && at(start + 3) == 0x65: return .move
            case 4 where c0 == 0x64 && c1 == 0x6F && at(start + 2) == 0x77 && at(start + 3) == 0x6E: return .down
            case 4 where c0 == 0x73 && c1 == 0x79 && at(start + 2) == 0x6E && at(start + 3) == 0x63: return .sync
            case 6 where c0 == 0x63 && c1 == 0x61 && at(start + 2) == 0x6E && at(start + 3) == 0x63
                && at(start + 4) == 0x65 && at(start + 5) == 0x6C: return .cancel
            default: return nil
            }
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 18 digits, converted as
        /// JSONScanner.readNumber converts it (mantissa over an exact power of
        /// ten), so both give the same double.
        @inline(__always)
        mutating func number(integerOnly: Bool) -> Double? {
            guard let (mantissa, exponent, negative) = numberParts(integerOnly: integerOnly) else { return nil }
            let m = Double(mantissa)
            let value = exponent < 0 ? m / exactPowerOfTen(-exponent) : m
            return negative ? -value : value
        }

        /// An id: what `number(integerOnly: true)` reads, without the round
        /// trip through a double (below 2^53 the double is the integer exactly,
        /// and -0 is 0).
        @inline(__always)
        mutating func integer() -> Int? {
            guard let (mantissa, _, negative) = numberParts(integerOnly: true) else { return nil }
            let n = Int(truncatingIfNeeded: mantissa)
            return negative ? 0 &- n : n
        }

        @inline(__always)
        private mutating func numberParts(integerOnly: Bool) -> (mantissa: UInt64, exponent: Int, negative: Bool)? {
            var q = p
            let negative = at(q) == 0x2D
            if negative { q += 1 }
            var mantissa: UInt64 = 0
            var digits = 0
            let first = at(q) &- 0x30
            guard first < 10 else { return nil }
            if first == 0 {
                q += 1
                guard at(q) &- 0x30 >= 10 else { return nil }
            } else {
                while q < bytes.count {
                    let d = bytes[q] &- 0x30
                    guard d < 10 else { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                    q += 1
                }
            }
            var exponent = 0
            if at(q) == 0x2E {
                if integerOnly { return nil }
                q += 1
                guard at(q) &- 0x30 < 10 else { return nil }
                while q < bytes.count {
                    let d = bytes[q] &- 0x30
                    guard d < 10 else { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa > 0 { digits += 1 }
                    exponent -= 1
                    q += 1
                }
            }
            let next = at(q)
            guard digits <= 18, mantissa < (1 << 53), exponent >= -22, next != 0x65, next != 0x45 else { return nil }
            // The full parser refuses ids this large; let it say so.
            if integerOnly && mantissa >= 9_000_000_000_000_000 { return nil }
            p = q
            return (mantissa, exponent, negative)
        }
    }
}
