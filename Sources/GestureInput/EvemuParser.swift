import GestureCore

/// evemu's text format (`evemu-record`, versions 1.2 and 1.3): an optional
/// description (`N:` name, `I:` ids, `P:` property bits, `B:` event bits, `A:`
/// axes with 5 or 6 fields) and `E: sec.usec type code value` event lines, with
/// or without the `# ...` comments 1.3 adds. A description followed by an
/// events-only file on the same input works, as `cat X.desc X.events` gives.
public typealias EvemuDecoder = LineDecoder<EvemuParser>

public struct EvemuParser: EvdevTextParser {
    public private(set) var stream: EvdevStream
    /// EV_KEY bitmask bytes read so far: each B: 01 line continues the last.
    private var keyBytesRead = 0

    public init(resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity, device: Int = 0) {
        stream = EvdevStream(resolution: resolution, size: size, transform: transform, device: device)
    }

    public mutating func parse(line: UnsafeBufferPointer<UInt8>, number: Int, into output: DecoderOutput) -> LineResult {
        guard line.count >= 2 else {
            return line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? .ok : .malformed(Self.notEvemu)
        }
        let tag = line[0]
        if tag == UInt8(ascii: "#") { return .ok }
        guard line[1] == UInt8(ascii: ":") else {
            return line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? .ok : .malformed(Self.notEvemu)
        }
        switch tag {
        case UInt8(ascii: "E"):
            return event(line, into: output)
        case UInt8(ascii: "N"):
            let name = String(decoding: UnsafeBufferPointer(rebasing: line[2...]), as: UTF8.self).trimmingSpaces()
            stream.describe { $0.name = name }
            stream.sendName(to: output)
        case UInt8(ascii: "A"):
            let f = fields(line)
            guard f.count >= 5, let code = UInt16(f[0], radix: 16) else {
                return .malformed("an A: line needs code (hex), min, max, fuzz, flat and optionally resolution, as in \"A: 35 0 4095 0 0 16\"")
            }
            // The kernel's absinfo fields are 32-bit integers; anything else is no axis.
            var values: [Int32] = []
            for field in f.dropFirst().prefix(5) {
                guard let v = Int32(field) else {
                    return .malformed("an A: line's min, max, fuzz, flat and resolution are 32-bit integers, not \"\(field.prefix(40))\"; the axis is ignored")
                }
                values.append(v)
            }
            let resolution = values.count >= 5 ? Double(values[4]) : nil
            stream.describe { $0.axes[code] = AxisInfo(minimum: Double(values[0]), maximum: Double(values[1]), resolution: resolution) }
        case UInt8(ascii: "P"):
            var bits: UInt64 = 0
            for (i, byte) in fields(line).prefix(8).enumerated() {
                guard let b = UInt64(byte, radix: 16) else { return .malformed("a P: line holds property bytes in hex, as in \"P: 02 00 00 00 00 00 00 00\"") }
                bits |= b << UInt64(8 * i)
            }
            stream.describe { $0.properties = bits }
        case UInt8(ascii: "B"):
            return bits(line)
        case UInt8(ascii: "I"):
            // "I: 0003 056a 0027 0107": bus, vendor, product, version, in hex.
            let ids = fields(line).prefix(3).compactMap { UInt16($0, radix: 16) }
            if ids.count == 3 { stream.describe { $0.id = DeviceID(bus: ids[0], vendor: ids[1], product: ids[2]) } }
        case UInt8(ascii: "L"), UInt8(ascii: "S"):
            break
        default:
            return .malformed(Self.notEvemu)
        }
        return .ok
    }

    static let notEvemu = "not an evemu line; expected \"E: 0.016000 0003 0035 1234\" or a description line (N:, I:, P:, B:, A:)"

    /// "E: 1382570952.534113 0003 002f 0000" (numbers after the time are hex, except the value).
    private mutating func event(_ line: UnsafeBufferPointer<UInt8>, into output: DecoderOutput) -> LineResult {
        var s = EventScanner(line, from: 2)
        guard let time = s.decimal(), let type = s.hex(), let code = s.hex(), let value = s.integer(), s.atEndOrComment() else {
            return .malformed("an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\"")
        }
        guard let type = Checked.integer(type, as: UInt16.self), let code = Checked.integer(code, as: UInt16.self),
              let value = Checked.integer(value, as: Int32.self) else {
            return .malformed("an E: line's type, code or value is out of range (type and code are 16-bit, the value 32-bit)")
        }
        guard let time = InputLimits.time(time) else {
            return .malformed("an E: line's time is out of range (more than \(InputLimits.maxWholeSeconds) seconds)")
        }
        stream.handle(EvdevEvent(time: time, type: type, code: code, value: value), emit: output.frame, mouse: output.mouse)
        return .ok
    }

    /// "B: 01 00 20 e4 00 00 00 00 00": the next eight bytes of one event type's code bits.
    private mutating func bits(_ line: UnsafeBufferPointer<UInt8>) -> LineResult {
        let f = fields(line)
        guard let type = f.first.flatMap({ UInt8($0, radix: 16) }) else {
            return .malformed("a B: line holds an event type and code bits in hex, as in \"B: 01 00 00 00 00 00 00 00 00\"")
        }
        var bytes: [UInt8] = []
        for field in f.dropFirst() {
            guard let b = UInt8(field, radix: 16) else {
                return .malformed("a B: line holds an event type and code bits in hex, as in \"B: 01 00 00 00 00 00 00 00 00\"")
            }
            bytes.append(b)
        }
        if type == UInt8(EV.abs), bytes.contains(where: { $0 != 0 }) { stream.describe { $0.hasAbsoluteBits = true } }
        if type == UInt8(EV.rel), let motion = bytes.first {
            // REL_X and REL_Y are the first byte's two lowest bits.
            if motion & 1 != 0 { stream.describe { $0.relativeAxes.insert(REL.x) } }
            if motion & 2 != 0 { stream.describe { $0.relativeAxes.insert(REL.y) } }
        }
        guard type == UInt8(EV.key) else { return .ok }
        let first = keyBytesRead
        keyBytesRead += bytes.count
        let touch = Int(BTN.touch)
        let finger = Int(BTN.toolFinger)
        for (i, b) in bytes.enumerated() where b != 0 {
            let base = (first + i) * 8
            if base <= touch && touch < base + 8 && b & (1 << UInt8(touch - base)) != 0 { stream.describe { $0.keys.insert(BTN.touch) } }
            if base <= finger && finger < base + 8 && b & (1 << UInt8(finger - base)) != 0 { stream.describe { $0.keys.insert(BTN.toolFinger) } }
        }
        return .ok
    }

    private func fields(_ line: UnsafeBufferPointer<UInt8>) -> [Substring] {
        var text = String(decoding: UnsafeBufferPointer(rebasing: line[2...]), as: UTF8.self)
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    public mutating func flush(into output: DecoderOutput) { stream.flush(emit: output.frame) }
    public mutating func finish(into output: DecoderOutput) { stream.finish(emit: output.frame) }
    public mutating func takeNotes() -> [String] { stream.takeNotes() }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// Reads numbers from an event line without allocating.
struct EventScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        self.bytes = bytes
        pos = start
    }

    mutating func skipSpaces() {
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x09 || bytes[pos] == 0x2C { pos += 1 }
    }

    /// "160278.880972": seconds with a fraction, read exactly to the microsecond.
    mutating func decimal() -> Double? {
        skipSpaces()
        var whole: Int64 = 0
        var digits = 0
        while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39, digits < 18 {
            whole = whole * 10 + Int64(bytes[pos] - 0x30)
            pos += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        var fraction = 0.0
        if pos < bytes.count, bytes[pos] == 0x2E {
            pos += 1
            var value: Int64 = 0
            var divisor = 1.0
            while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 {
                if divisor < 1e9 {
                    value = value * 10 + Int64(bytes[pos] - 0x30)
                    divisor *= 10
                }
                pos += 1
            }
            fraction = Double(value) / divisor
        }
        guard atSeparator else { return nil }
        return Double(whole) + fraction
    }

    /// At the end, or at a space, tab or comma: a number ended where it should.
    var atSeparator: Bool {
        pos >= bytes.count || bytes[pos] == 0x20 || bytes[pos] == 0x09 || bytes[pos] == 0x2C
    }

    /// Nothing but spaces and an optional `# comment` (evemu 1.3) follows.
    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return pos >= bytes.count || bytes[pos] == 0x23
    }

    mutating func hex() -> UInt64? {
        skipSpaces()
        var value: UInt64 = 0
        var digits = 0
        while pos < bytes.count, digits < 16 {
            let b = bytes[pos]
            let d: UInt64
            switch b {
            case 0x30...0x39: d = UInt64(b - 0x30)
            case 0x61...0x66: d = UInt64(b - 0x61 + 10)
            case 0x41...0x46: d = UInt64(b - 0x41 + 10)
            default: return digits > 0 && atSeparator ? value : nil
            }
            value = value << 4 | d
            pos += 1
            digits += 1
        }
        return digits > 0 && atSeparator ? value : nil
    }

    /// A signed decimal integer; leading zeros allowed ("-001", "0393").
    mutating func integer() -> Int64? {
        skipSpaces()
        var negative = false
        if pos < bytes.count, bytes[pos] == 0x2D { negative = true; pos += 1 }
        var value: Int64 = 0
        var digits = 0
        while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39, digits < 18 {
            value = value * 10 + Int64(bytes[pos] - 0x30)
            pos += 1
            digits += 1
        }
        guard digits > 0, atSeparator else { return nil }
        return negative ? -value : value
    }

    mutating func expect(_ text: StaticString) -> Bool {
        skipSpaces()
        let n = text.utf8CodeUnitCount
        guard pos + n <= bytes.count else { return false }
        for i in 0..<n where bytes[pos + i] != text.utf8Start[i] { return false }
        pos += n
        return true
    }
}
