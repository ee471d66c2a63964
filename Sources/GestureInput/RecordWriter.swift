import GestureCore

/// The formats `record` writes.
public enum RecordFormat: String, CaseIterable, Sendable {
    case ndjson, evemu, raw

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Writes frames as NDJSON (with a device header), evemu text, or raw
/// input_event bytes, in the source's own device units.
public struct RecordWriter: Sendable {
    public let format: RecordFormat
    private let name: String?
    private let converter: UnitConverter
    private var encoder: EvdevEncoder
    private var events: [EvdevEvent] = []
    private var wroteHeader = false
    private var lastTime: Double?

    public init(format: RecordFormat, deviceName: String?, converter: UnitConverter) {
        self.format = format
        name = deviceName
        self.converter = converter
        encoder = EvdevEncoder(converter: converter)
    }

    /// Appends what one frame becomes.
    public mutating func write(_ frame: TouchFrame, to out: inout [UInt8]) {
        if !wroteHeader {
            wroteHeader = true
            header(to: &out)
        }
        switch format {
        case .ndjson: ndjson(frame, to: &out)
        case .evemu, .raw:
            events.removeAll(keepingCapacity: true)
            encoder.encode(frame, into: &events)
            for e in events {
                if format == .raw { raw(e, to: &out) } else { evemu(e, to: &out) }
            }
        }
    }

    /// The header alone, for a recording with no frames.
    public mutating func finish(to out: inout [UInt8]) {
        if !wroteHeader {
            wroteHeader = true
            header(to: &out)
        }
    }

    private func header(to out: inout [UInt8]) {
        let d = encoder.description(name: name)
        switch format {
        case .ndjson:
            var json = JSONWriter()
            json.raw("{\"device\":{\"name\":")
            json.string(name ?? "gesturemap recording")
            for (key, code) in [("x", ABS.mtPositionX), ("y", ABS.mtPositionY)] {
                json.raw(",\"")
                json.raw(key == "x" ? "x" : "y")
                json.raw("\":{\"min\":")
                let axis = d.axes[code] ?? AxisInfo()
                json.number(axis.minimum)
                if converter.surface != nil, let max = axis.maximum {
                    json.raw(",\"max\":")
                    json.number((max * 1000).rounded() / 1000)
                }
                if converter.origin != .cssPixels {
                    json.raw(",\"resolution\":")
                    json.number(((axis.resolution ?? 1) * 1000).rounded() / 1000)
                }
                json.byte(0x7D)
            }
            json.raw("}}\n")
            out.append(contentsOf: json.bytes)
        case .evemu:
            var text = "# EVEMU 1.3\n# written by gesturemap record\n"
            text += "N: \(name ?? "gesturemap recording")\n"
            text += "I: 0006 0000 0000 0001\n"
            text += "P: 02 00 00 00 00 00 00 00\n"
            // The event codes the device has: evemu-device enables only these,
            // so without them it makes a device with no axes.
            text += evemuBits(type: EV.syn, codes: [EV.syn, EV.key, EV.abs], count: 32)
            text += evemuBits(type: EV.key, codes: [BTN.touch], count: 0x300)
            text += evemuBits(type: EV.abs, codes: Array(d.axes.keys), count: 0x40)
            for code in d.axes.keys.sorted() {
                guard let axis = d.axes[code] else { continue }
                let res = Checked.clampedInteger(axis.resolution ?? 0, as: Int32.self) ?? 0
                let minimum = Checked.clampedInteger(axis.minimum, as: Int32.self) ?? 0
                let maximum = Checked.clampedInteger(axis.maximum ?? 0, as: Int32.self) ?? 0
                text += "A: \(hex2(code)) \(minimum) \(maximum) 0 0 \(res)\n"
            }
            out.append(contentsOf: Array(text.utf8))
        case .raw:
            break
        }
    }

    private mutating func ndjson(_ frame: TouchFrame, to out: inout [UInt8]) {
        if let lastTime, lastTime == frame.time {
            var json = JSONWriter()
            json.raw("{\"t\":")
            json.time(frame.time)
            json.raw(",\"ev\":\"sync\"}\n")
            out.append(contentsOf: json.bytes)
        }
        lastTime = frame.time
        for touch in frame.touches where touch.phase != .stationary {
            var json = JSONWriter()
            json.raw("{\"t\":")
            json.time(frame.time)
            switch touch.phase {
            case .began: json.raw(",\"ev\":\"down\"")
            case .moved: json.raw(",\"ev\":\"move\"")
            case .ended: json.raw(",\"ev\":\"up\"")
            default: json.raw(",\"ev\":\"cancel\"")
            }
            json.raw(",\"id\":")
            json.integer(Int64(touch.id))
            if touch.phase == .began || touch.phase == .moved {
                let (x, y) = encoder.units(touch.position)
                json.raw(",\"x\":")
                json.number((x * 1000).rounded() / 1000)
                json.raw(",\"y\":")
                json.number((y * 1000).rounded() / 1000)
            }
            json.raw("}\n")
            out.append(contentsOf: json.bytes)
        }
    }

    private func evemu(_ e: EvdevEvent, to out: inout [UInt8]) {
        let micros = Checked.clampedInteger(e.time * 1_000_000, as: Int64.self) ?? 0
        let seconds = micros / 1_000_000
        let fraction = String(micros % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        let line = "E: \(seconds).\(padded) \(hex4(e.type)) \(hex4(e.code)) \(evemuValue(e.value))\n"
        out.append(contentsOf: Array(line.utf8))
    }

    private func raw(_ e: EvdevEvent, to out: inout [UInt8]) {
        let micros = Checked.clampedInteger(e.time * 1_000_000, as: Int64.self) ?? 0
        var seconds = micros / 1_000_000
        var usec = micros % 1_000_000
        var type = e.type
        var code = e.code
        var value = e.value
        withUnsafeBytes(of: &seconds) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: &usec) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: &type) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: &code) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: &value) { out.append(contentsOf: $0) }
    }


    private func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// Two lowercase hex digits at least, as evemu writes codes and bytes.
func hex2(_ v: UInt16) -> String {
    let s = String(v, radix: 16)
    return s.count < 2 ? "0" + s : s
}

/// evemu's `B:` lines for one event type: the bit of each code, eight bytes a line.
func evemuBits(type: UInt16, codes: [UInt16], count: Int) -> String {
    // evemu reads exactly eight bytes a line: the last one is padded.
    var bytes = [UInt8](repeating: 0, count: (count + 63) / 64 * 8)
    for code in codes where Int(code) < count { bytes[Int(code) / 8] |= 1 << (code % 8) }
    var text = ""
    var start = 0
    while start < bytes.count {
        let line = bytes[start..<min(start + 8, bytes.count)].map { hex2(UInt16($0)) }
        text += "B: \(hex2(type)) " + line.joined(separator: " ") + "\n"
        start += 8
    }
    return text
}

/// evemu writes values as at least four digits, sign first: "0393", "-001".
func evemuValue(_ value: Int32) -> String {
    let digits = String(value.magnitude)
    let width = value < 0 ? 3 : 4
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
}
