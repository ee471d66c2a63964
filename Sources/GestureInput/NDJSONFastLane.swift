/// The usual shape of a native event line, read in one pass over its bytes:
/// `{"t": 1.25, "ev": "move", "id": 3, "x": 120.5, "y": 80}` with the keys in
/// any order, spaces or none, plain decimal numbers and no other keys.
///
/// Anything else (escapes, `null`, exponents, long numbers, unknown or repeated
/// keys, device headers, mistakes) is declined, and the line goes to
/// `NDJSONLineParser`, which reads all of JSON and explains errors. So this lane
/// decides nothing on its own: when it accepts a line, the full parser would
/// have read the same event, bit for bit (NDJSONFastLaneTests hold it to that).
/// It exists because replay reads a million lines, and the full parser costs
/// several times as many instructions per line.
///
/// The line must end in `}` (after spaces), and every loop below stops at a
/// byte that `}` is not (a digit, a space), so the closing brace bounds all
/// of them: only fixed-width reads (a key, an event kind) check the length.
enum NDJSONFastLane {
    struct Event: Equatable {
        var kind: TouchEventKind
        var time: Double
        var id: Int
        var x: Double?
        var y: Double?
    }

    @inline(__always)
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
        guard let base = line.baseAddress, line.count > 0 else { return nil }
        var last = base + (line.count - 1)
        while last > base && isSpace(last.pointee) { last -= 1 }
        guard last.pointee == 0x7D else { return nil }
        return canonical(base, last: last) ?? anyOrder(base, last: last)
    }

    /// `{"t":T,"ev":"K","id":N,"x":X,"y":Y}` as gesturemap's own writers
    /// (`record`, `synth`) print it: keys in this order, no spaces, the id and
    /// the axes as the event has them. Literals are compared a word at a time.
    @inline(__always)
    private static func canonical(_ base: UnsafePointer<UInt8>, last: UnsafePointer<UInt8>) -> Event? {
        // The shortest such line is `{"t":0,"ev":"sync"}`.
        guard last - base >= 18, word(base, 5) == 0x3A_2274_227B else { return nil } // {"t":
        var p = base + 5
        guard let time = decimal(&p, literalFollows: true), last - p >= 12, word(p, 7) == 0x22_3A22_7665_222C else { return nil } // ,"ev":"
        p += 7
        let kind: TouchEventKind
        let letters = quad(p)
        if p[4] == 0x22 && letters == 0x636E_7973 { // sync"
            guard p + 5 == last else { return nil }
            return accepted(.sync, time: time, id: 0, x: nil, y: nil)
        } else if p[4] == 0x22 && letters == 0x6576_6F6D { // move"
            kind = .move
            p += 4
        } else if p[4] == 0x22 && letters == 0x6E77_6F64 { // down"
            kind = .down
            p += 4
        } else if p[2] == 0x22 && UInt16(truncatingIfNeeded: letters) == 0x7075 { // up"
            kind = .up
            p += 2
        } else if letters == 0x636E_6163 && p[4] == 0x65 && p[5] == 0x6C { // cancel
            kind = .cancel
            p += 6
        } else {
            return nil
        }
        guard last - p >= 8, word(p, 7) == 0x3A_2264_6922_2C22 else { return nil } // ","id":
        p += 7
        guard let id = integer(&p, literalFollows: true) else { return nil }
        var x: Double?
        var y: Double?
        if p != last {
            guard last - p >= 6, p[4] == 0x3A else { return nil }
            let key = quad(p)
            if key == 0x2278_222C { // ,"x"
                p += 5
                x = decimal(&p, literalFollows: true)
                guard x != nil else { return nil }
                if p != last {
                    guard last - p >= 6, p[4] == 0x3A, quad(p) == 0x2279_222C else { return nil }
                    p += 5
                    y = decimal(&p, literalFollows: true)
                    guard y != nil else { return nil }
                }
            } else if key == 0x2279_222C { // ,"y"
                p += 5
                y = decimal(&p, literalFollows: true)
                guard y != nil else { return nil }
            } else {
                return nil
            }
            guard p == last else { return nil }
        }
        return accepted(kind, time: time, id: id, x: x, y: y)
    }

    /// Any order of the same keys, with spaces or tabs around the punctuation.
    /// Out of line: the canonical lane's caller must stay small for the
    /// optimizer to inline its number reading.
    @inline(never)
    private static func anyOrder(_ base: UnsafePointer<UInt8>, last: UnsafePointer<UInt8>) -> Event? {
        var p = base
        skipSpace(&p)
        guard p.pointee == 0x7B else { return nil }
        p += 1

        var seen: Fields = []
        var time = 0.0
        var kind = TouchEventKind.sync
        var id = 0
        var x = 0.0
        var y = 0.0
        while true {
            skipSpace(&p)
            // The shortest member and the brace: `"t":0}`.
            guard last - p >= 5, p[0] == 0x22 else { return nil }
            let field: Fields
            if p[2] == 0x22 {
                switch p[1] {
                case 0x74: field = .t
                case 0x78: field = .x
                case 0x79: field = .y
                default: return nil
                }
                p += 3
            } else {
                guard p[3] == 0x22 else { return nil }
                if p[1] == 0x65 && p[2] == 0x76 {
                    field = .ev
                } else if p[1] == 0x69 && p[2] == 0x64 {
                    field = .id
                } else {
                    return nil
                }
                p += 4
            }
            guard !seen.contains(field) else { return nil }
            seen.insert(field)
            skipSpace(&p)
            guard p.pointee == 0x3A else { return nil }
            p += 1
            skipSpace(&p)
            switch field {
            case .t:
                guard let v = decimal(&p) else { return nil }
                time = v
            case .x:
                guard let v = decimal(&p) else { return nil }
                x = v
            case .y:
                guard let v = decimal(&p) else { return nil }
                y = v
            case .id:
                guard let n = integer(&p) else { return nil }
                id = n
            default:
                guard let k = eventKind(&p, last: last) else { return nil }
                kind = k
            }
            skipSpace(&p)
            let separator = p.pointee
            if separator == 0x2C {
                p += 1
                continue
            }
            guard separator == 0x7D, p == last else { return nil }
            break
        }
        guard seen.contains(.t), seen.contains(.ev) else { return nil }
        if kind != .sync && !seen.contains(.id) { return nil }
        return accepted(kind, time: time, id: id, x: seen.contains(.x) ? x : nil, y: seen.contains(.y) ? y : nil)
    }

    /// The event, unless the full parser has something to say about it.
    @inline(__always)
    private static func accepted(_ kind: TouchEventKind, time: Double, id: Int, x: Double?, y: Double?) -> Event? {
        // Out-of-range numbers are the full parser's to explain.
        guard InputLimits.time(time) != nil else { return nil }
        if let x, InputLimits.units(x) == nil { return nil }
        if let y, InputLimits.units(y) == nil { return nil }
        if kind == .sync { return Event(kind: .sync, time: time, id: 0, x: nil, y: nil) }
        if kind == .down && (x == nil || y == nil) { return nil }
        return Event(kind: kind, time: time, id: id, x: x, y: y)
    }

    /// The first `count` (at most 8) bytes at `p`, little-endian; the caller
    /// has checked that 8 bytes are there.
    @inline(__always)
    private static func word(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) & (~0 >> (64 - 8 * UInt64(count)))
    }

    /// The 4 bytes at `p`, little-endian; the caller has checked that they are there.
    @inline(__always)
    private static func quad(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }

    /// The keys read so far, so that a repeated one is declined.
    private struct Fields: OptionSet {
        let rawValue: UInt8
        static let t = Fields(rawValue: 1)
        static let ev = Fields(rawValue: 2)
        static let id = Fields(rawValue: 4)
        static let x = Fields(rawValue: 8)
        static let y = Fields(rawValue: 16)
    }

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    @inline(__always)
    private static func skipSpace(_ p: inout UnsafePointer<UInt8>) {
        while isSpace(p.pointee) { p += 1 }
    }

    /// `"down"`, `"move"`, `"up"`, `"cancel"` or `"sync"`, with no escapes, and
    /// at least one byte (the brace) after it.
    @inline(__always)
    private static func eventKind(_ p: inout UnsafePointer<UInt8>, last: UnsafePointer<UInt8>) -> TouchEventKind? {
        guard p.pointee == 0x22 else { return nil }
        let room = last - p
        let raw = UnsafeRawPointer(p + 1)
        if room >= 4 && p[1] == 0x75 && p[2] == 0x70 && p[3] == 0x22 {
            p += 4
            return .up
        }
        guard room >= 6 else { return nil }
        let word = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
        if p[5] == 0x22 {
            let kind: TouchEventKind
            switch word {
            case 0x6576_6F6D: kind = .move // "move"
            case 0x6E77_6F64: kind = .down // "down"
            case 0x636E_7973: kind = .sync // "sync"
            default: return nil
            }
            p += 6
            return kind
        }
        if room >= 8 && word == 0x636E_6163 && p[5] == 0x65 && p[6] == 0x6C && p[7] == 0x22 {
            p += 8
            return .cancel // "cancel"
        }
        return nil
    }

    /// The digits of `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 18 of them, so
    /// that the mantissa cannot overflow and JSONScanner.readNumber, given the
    /// same text, gathers the same mantissa and exponent.
    private struct Parts {
        var mantissa: UInt64
        var fractionDigits: Int
        var negative: Bool
    }

    /// `literalFollows`: the caller matches the byte after the number against
    /// punctuation (the canonical lane does), which an exponent's `e` never is.
    @inline(__always)
    private static func parts(_ p: inout UnsafePointer<UInt8>, integerOnly: Bool, literalFollows: Bool) -> Parts? {
        var q = p
        let negative = q.pointee == 0x2D
        if negative { q += 1 }
        let first = q.pointee &- 0x30
        guard first < 10 else { return nil }
        var mantissa = UInt64(first)
        let start = q
        q += 1
        if first == 0 {
            guard q.pointee &- 0x30 >= 10 else { return nil }
        } else {
            while true {
                let d = q.pointee &- 0x30
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                q += 1
            }
        }
        var digits = q - start
        var fractionDigits = 0
        if q.pointee == 0x2E {
            if integerOnly { return nil }
            q += 1
            let fraction = q
            while true {
                let d = q.pointee &- 0x30
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                q += 1
            }
            fractionDigits = q - fraction
            guard fractionDigits > 0 else { return nil }
            digits += fractionDigits
        }
        // Up to 15 digits the mantissa is below 10^15, so below 2^53.
        guard digits <= 15 || (digits <= 18 && mantissa < (1 << 53)) else { return nil }
        if !literalFollows {
            let next = q.pointee
            guard next != 0x65, next != 0x45 else { return nil }
        }
        p = q
        return Parts(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// A number, converted as JSONScanner.readNumber converts it (the mantissa
    /// over an exact power of ten, one correctly rounded division), so both
    /// give the same double.
    @_transparent
    private static func decimal(_ p: inout UnsafePointer<UInt8>, literalFollows: Bool = false) -> Double? {
        guard let n = parts(&p, integerOnly: false, literalFollows: literalFollows) else { return nil }
        let m = Double(n.mantissa)
        let value = n.fractionDigits > 0 ? m / exactPowerOfTen(n.fractionDigits) : m
        return n.negative ? -value : value
    }

    /// An id: what the full parser reads as a double and then checks is an
    /// integer below 9e15, read without the double (below 2^53 the double is
    /// the integer exactly, and -0 is 0).
    @inline(__always)
    private static func integer(_ p: inout UnsafePointer<UInt8>, literalFollows: Bool = false) -> Int? {
        var q = p
        guard let n = parts(&q, integerOnly: true, literalFollows: literalFollows), n.mantissa < 9_000_000_000_000_000 else { return nil }
        p = q
        let value = Int(truncatingIfNeeded: n.mantissa)
        return n.negative ? 0 &- value : value
    }
}
