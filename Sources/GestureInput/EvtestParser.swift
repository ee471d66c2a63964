import GestureCore

/// `evtest` output: its header (device name, supported events with each axis's
/// Value/Min/Max/Resolution, properties) and its event lines:
///
///     Event: time 160278.880972, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 33
///     Event: time 160278.881053, -------------- SYN_REPORT ------------
public typealias EvtestDecoder = LineDecoder<EvtestParser>

public struct EvtestParser: EvdevTextParser {
    public private(set) var stream: EvdevStream
    /// The axis whose Value/Min/Max lines the header is listing.
    private var axisCode: UInt16?
    /// The event type whose codes the header is listing.
    private var listedType: Int?
    private var sawEvents = false

    public init(resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity, device: Int = 0) {
        stream = EvdevStream(resolution: resolution, size: size, transform: transform, device: device)
    }

    public mutating func parse(line: UnsafeBufferPointer<UInt8>, number: Int, into output: DecoderOutput) -> LineResult {
        var s = EventScanner(line, from: 0)
        if s.expect("Event:") {
            sawEvents = true
            return event(&s, into: output)
        }
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty { return .ok }
        if trimmed.hasPrefix("Input device ID:") {
            // "Input device ID: bus 0x3 vendor 0x56a product 0x27 version 0x107"
            if let id = Self.deviceID(trimmed) { stream.describe { $0.id = id } }
        } else if trimmed.hasPrefix("Input device name:") {
            let name = trimmed.dropFirst("Input device name:".count).trimmingCharacters(in: " \"")
            stream.describe { $0.name = name }
            stream.sendName(to: output)
        } else if trimmed.hasPrefix("Event type ") {
            listedType = Int(trimmed.dropFirst("Event type ".count).prefix { $0 != " " })
            axisCode = nil
        } else if trimmed.hasPrefix("Event code ") {
            let code = UInt16(trimmed.dropFirst("Event code ".count).prefix { $0 != " " })
            axisCode = listedType == Int(EV.abs) ? code : nil
            if let code = axisCode { stream.describe { if $0.axes[code] == nil { $0.axes[code] = AxisInfo() } } }
            if listedType == Int(EV.key), let code, code == BTN.touch || code == BTN.toolFinger {
                stream.describe { _ = $0.keys.insert(code) }
            }
        } else if let code = axisCode, let (key, text) = Self.keyValue(trimmed) {
            // The kernel's absinfo fields are 32-bit integers; anything else is no axis.
            guard let value = Int32(text) else {
                return .malformed("evtest's \(key) for an axis is a 32-bit integer, not \"\(text.prefix(40))\"; ignored")
            }
            stream.describe { d in
                var axis = d.axes[code] ?? AxisInfo()
                switch key {
                case "Value": d.initialValues[code] = value
                case "Min": axis.minimum = Double(value)
                case "Max": axis.maximum = Double(value)
                case "Resolution": axis.resolution = Double(value)
                default: break
                }
                d.axes[code] = axis
            }
        } else if trimmed.hasPrefix("Property type ") {
            if let bit = UInt64(trimmed.dropFirst("Property type ".count).prefix { $0 != " " }), bit < 64 {
                stream.describe { $0.properties |= 1 << bit }
            }
        } else if Self.headerPrefixes.contains(where: { trimmed.hasPrefix($0) }) || !sawEvents {
            // evtest's header, and whatever the session printed before the first event.
            axisCode = nil
        } else {
            return .malformed("not an evtest line; expected \"Event: time 12.345678, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 861\" or evtest's device header")
        }
        return .ok
    }

    static func deviceID(_ line: String) -> DeviceID? {
        let words = line.split(separator: " ")
        func hex(after key: String) -> UInt16? {
            guard let i = words.firstIndex(where: { $0 == key }), i + 1 < words.count else { return nil }
            let text = words[i + 1].hasPrefix("0x") ? words[i + 1].dropFirst(2) : words[i + 1]
            return UInt16(text, radix: 16)
        }
        guard let bus = hex(after: "bus"), let vendor = hex(after: "vendor"), let product = hex(after: "product") else { return nil }
        return DeviceID(bus: bus, vendor: vendor, product: product)
    }

    static let headerPrefixes = ["Input driver version", "Input device ID", "Supported events", "Properties", "Testing", "Key repeat", "Repeat"]

    /// "Value 0", "Min 0", "Max 1280", "Fuzz 0", "Flat 0", "Resolution 12"
    static func keyValue(_ text: String) -> (String, Substring)? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, axisFields.contains(String(parts[0])) else { return nil }
        return (String(parts[0]), parts[1])
    }

    static let axisFields: Set<String> = ["Value", "Min", "Max", "Fuzz", "Flat", "Resolution"]

    private mutating func event(_ s: inout EventScanner, into output: DecoderOutput) -> LineResult {
        guard s.expect("time"), let time = s.decimal() else {
            return .malformed("an evtest event line needs a time, as in \"Event: time 12.345678, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 861\"")
        }
        if s.expect("type") {
            guard let type = s.integer() else { return .malformed("an evtest event line needs its type number") }
            s.skipParenthesis()
            guard s.expect("code"), let code = s.integer() else { return .malformed("an evtest event line needs its code number") }
            s.skipParenthesis()
            guard s.expect("value"), let value = s.integer(), s.atEndOrComment() else { return .malformed("an evtest event line needs its value") }
            guard let type = Checked.integer(type, as: UInt16.self), let code = Checked.integer(code, as: UInt16.self),
                  let value = Checked.integer(value, as: Int32.self) else {
                return .malformed("an evtest event's type, code or value is out of range (type and code are 16-bit, the value 32-bit)")
            }
            guard let time = InputLimits.time(time) else {
                return .malformed("an evtest event's time is out of range (more than \(InputLimits.maxWholeSeconds) seconds)")
            }
            stream.handle(EvdevEvent(time: time, type: type, code: code, value: value), emit: output.frame, mouse: output.mouse)
            return .ok
        }
        // "-------------- SYN_REPORT ------------", "SYN_MT_REPORT", "++++++++++++++ SYN_DROPPED ++++++++++++"
        let rest = String(decoding: UnsafeBufferPointer(rebasing: s.bytes[s.pos...]), as: UTF8.self)
        let code: UInt16
        if rest.contains("SYN_MT_REPORT") { code = SYN.mtReport } else if rest.contains("SYN_DROPPED") { code = SYN.dropped } else if rest.contains("SYN_REPORT") { code = SYN.report } else {
            return .malformed("an evtest event line needs \"type N (...)\" or a SYN marker")
        }
        guard let time = InputLimits.time(time) else {
            return .malformed("an evtest event's time is out of range (more than \(InputLimits.maxWholeSeconds) seconds)")
        }
        stream.handle(EvdevEvent(time: time, type: EV.syn, code: code, value: 0), emit: output.frame, mouse: output.mouse)
        return .ok
    }

    public mutating func flush(into output: DecoderOutput) { stream.flush(emit: output.frame) }
    public mutating func finish(into output: DecoderOutput) { stream.finish(emit: output.frame) }
    public mutating func takeNotes() -> [String] { stream.takeNotes() }
}

extension EventScanner {
    /// Skips "(EV_ABS)," and similar.
    mutating func skipParenthesis() {
        skipSpaces()
        guard pos < bytes.count, bytes[pos] == 0x28 else { return }
        while pos < bytes.count, bytes[pos] != 0x29 { pos += 1 }
        if pos < bytes.count { pos += 1 }
        skipSpaces()
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
