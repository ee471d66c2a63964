import GestureCore

/// evemu's text format (`evemu-record`, versions 1.2 and 1.3): an optional
/// description (`N:` name, `I:` ids, `P:` property bits, `B:` event bits, `A:`
/// axes with 5 or 6 fields) and `E: sec.usec type code value` event lines, with
/// or without the `# ...` comments 1.3 adds. A description followed by an
/// events-only file on the same input works, as `cat X.desc X.events` gives.
public typealias EvemuDecoder = LineDecoder<EvemuParser>

public struct EvemuParser: EvdevTextParser {
    public private(set) var stream: EvdevStream

    public init(resolution: (x: Double, y: Double)? = nil, transform: Transform = .identity, device: Int = 0, directory: DeviceDirectory? = nil) {
        stream = EvdevStream(resolution: resolution, transform: transform, device: device, directory: directory)
    }

    public mutating func parse(line: UnsafeBufferPointer<UInt8>, number: Int, emit: (TouchFrame) -> Void) -> LineResult {
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
            return event(line, emit: emit)
        case UInt8(ascii: "N"):
            let name = String(decoding: UnsafeBufferPointer(rebasing: line[2...]), as: UTF8.self).trimmingSpaces()
            stream.describe { $0.name = name }
        case UInt8(ascii: "A"):
            let f = fields(line)
            guard f.count >= 5, let code = UInt16(f[0], radix: 16),
                  let min = Double(f[1]), let max = Double(f[2]) else {
                return .malformed("an A: line needs code (hex), min, max, fuzz, flat and optionally resolution, as in \"A: 35 0 4095 0 0 16\"")
            }
            let resolution = f.count >= 6 ? Double(f[5]) : nil
            stream.describe { $0.axes[code] = AxisInfo(minimum: min, maximum: max, resolution: resolution) }
        case UInt8(ascii: "P"):
            var bits: UInt64 = 0
            for (i, byte) in fields(line).prefix(8).enumerated() {
                guard let b = UInt64(byte, radix: 16) else { return .malformed("a P: line holds property bytes in hex, as in \"P: 02 00 00 00 00 00 00 00\"") }
                bits |= b << UInt64(8 * i)
            }
            stream.describe { $0.properties = bits }
        case UInt8(ascii: "I"), UInt8(ascii: "B"), UInt8(ascii: "L"), UInt8(ascii: "S"):
            break
        default:
            return .malformed(Self.notEvemu)
        }
        return .ok
    }

    static let notEvemu = "not an evemu line; expected \"E: 0.016000 0003 0035 1234\" or a description line (N:, I:, P:, B:, A:)"

    /// "E: 1382570952.534113 0003 002f 0000" (numbers after the time are hex, except the value).
    private mutating func event(_ line: UnsafeBufferPointer<UInt8>, emit: (TouchFrame) -> Void) -> LineResult {
        var s = EventScanner(line, from: 2)
        guard let time = s.decimal(), let type = s.hex(), let code = s.hex(), let value = s.integer() else {
            return .malformed("an E: line needs a time, type and code in hex, and a value, as in \"E: 0.016000 0003 0035 1234\"")
        }
        guard type <= 0xFFFF, code <= 0xFFFF, value >= Int64(Int32.min), value <= Int64(Int32.max) else {
            return .malformed("an E: line's type, code or value is out of range")
        }
        stream.handle(EvdevEvent(time: time, type: UInt16(type), code: UInt16(code), value: Int32(value)), emit: emit)
        return .ok
    }

    private func fields(_ line: UnsafeBufferPointer<UInt8>) -> [Substring] {
        var text = String(decoding: UnsafeBufferPointer(rebasing: line[2...]), as: UTF8.self)
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    public mutating func flush(emit: (TouchFrame) -> Void) { stream.flush(emit: emit) }
    public mutating func finish(emit: (TouchFrame) -> Void) { stream.finish(emit: emit) }
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
        return Double(whole) + fraction
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
            default: return digits > 0 ? value : nil
            }
            value = value << 4 | d
            pos += 1
            digits += 1
        }
        return digits > 0 ? value : nil
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
        guard digits > 0 else { return nil }
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
