import GestureCore

/// `libinput debug-events` touch lines, as libinput prints them for touchscreens:
///
///     event4   TOUCH_DOWN   +0.000s   0 (0) 27.07/42.62 (68.39/71.37mm)
///     event4   TOUCH_FRAME  +0.000s
///     event4   TOUCH_UP     +0.079s   0 (0)
///
/// The slot is the touch id; positions come from the millimetre column. Other
/// libinput events (pointer, keyboard, gestures) are skipped quietly; a
/// DEVICE_ADDED line gives the device's name and size.
public typealias LibinputDecoder = LineDecoder<LibinputDebugParser>

extension LineDecoder where Parser == LibinputDebugParser {
    public init(source: String, transform: Transform = .identity, device: Int = 0) {
        self.init(source: source, parser: LibinputDebugParser(transform: transform, device: device))
    }
}

public struct LibinputDebugParser: LineParser {
    public private(set) var eventCount = 0
    public private(set) var deviceName: String?
    private var framer: TouchFramer
    private var anomalies = OnceReporter<FramingAnomaly>()
    private var usedPercent = false
    private let deviceIndex: Int
    /// DEVICE_ADDED lines list every device; the one that sends touches is ours.
    private var announced: [Substring: (name: String?, surface: Surface?)] = [:]
    private var touchNode: Substring?

    private let transform: Transform
    private var warnedTransform = false
    /// The touch device's size as libinput states it, before any rotation.
    private var deviceSurface: Surface?

    public init(transform: Transform = .identity, device: Int = 0) {
        self.transform = transform
        framer = TouchFramer(device: device)
        deviceIndex = device
    }

    /// libinput already speaks millimetres.
    public var converter: UnitConverter {
        var c = UnitConverter(device: DeviceInfo(x: AxisInfo(resolution: 1), y: AxisInfo(resolution: 1)))
        c.surface = framer.surface
        return c
    }

    public func unitsExplanation(source: String) -> String {
        usedPercent
            ? "\(source): libinput debug-events without millimetre columns; taking its 0-100 screen percentages as millimetres"
            : "\(source): libinput debug-events, positions from its millimetre column"
    }

    public mutating func parse(line: UnsafeBufferPointer<UInt8>, number: Int, into output: DecoderOutput) -> LineResult {
        let text = String(decoding: line, as: UTF8.self)
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !fields.isEmpty else { return .ok }
        guard fields.count >= 2, fields[0].trimmingPrefix("-").hasPrefix("event") else {
            return .malformed("not a libinput debug-events line; expected \"event4  TOUCH_DOWN  +0.000s  0 (0) 27.07/42.62 (68.39/71.37mm)\"")
        }
        let type = fields[1]
        if type == "DEVICE_ADDED" {
            readDevice(fields)
            return .ok
        }
        guard type.hasPrefix("TOUCH_") else { return .ok }
        let node = fields[0].trimmingPrefix("-")
        if node != touchNode {
            touchNode = node
            if let info = announced[node] {
                deviceName = info.name
                deviceSurface = info.surface
                framer.surface = info.surface.map { transform.swapsAxes ? Surface(width: $0.height, height: $0.width) : $0 }
                if let name = info.name { output.deviceNamed(deviceIndex, name) }
            }
        }
        guard fields.count >= 3, let time = Self.time(fields[2]) else {
            return .malformed("\(type) without a time such as +0.123s")
        }
        guard InputLimits.time(time) != nil else {
            return .malformed("\(type)'s time is out of range (more than \(InputLimits.maxWholeSeconds) seconds)")
        }
        if type == "TOUCH_FRAME" {
            framer.apply(.sync, time: time, id: 0, x: nil, y: nil, emit: output.frame)
            return .ok
        }
        guard fields.count >= 4, let slot = Int(fields[3]) else { return .malformed("\(type) without a slot number") }
        let kind: TouchEventKind
        switch type {
        case "TOUCH_DOWN": kind = .down
        case "TOUCH_MOTION": kind = .move
        case "TOUCH_UP": kind = .up
        case "TOUCH_CANCEL": kind = .cancel
        default: return .ok
        }
        var position: Vector?
        if kind == .down || kind == .move {
            guard let p = Self.position(fields.dropFirst(4)) else {
                return .malformed("\(type) without a position such as 27.07/42.62 (68.39/71.37mm)")
            }
            guard abs(p.value.x) <= InputLimits.maxMillimetres, abs(p.value.y) <= InputLimits.maxMillimetres else {
                return .malformed("\(type)'s position is out of range (more than a kilometre)")
            }
            if !p.millimetres { usedPercent = true }
            position = p.value
            if !transform.isIdentity {
                // libinput's millimetres are already on the device's axes; map them as
                // normalized coordinates over its size.
                if let surface = deviceSurface, surface.width > 0, surface.height > 0 {
                    let (u, v) = transform.apply(p.value.x / surface.width, p.value.y / surface.height)
                    let w = transform.swapsAxes ? surface.height : surface.width
                    let h = transform.swapsAxes ? surface.width : surface.height
                    position = Vector(u * w, v * h)
                } else if !warnedTransform {
                    warnedTransform = true
                    eventCount += 1
                    framer.apply(kind, time: time, id: slot, x: p.value.x, y: p.value.y, emit: output.frame)
                    return .repaired("cannot apply --rotate, --flip or --calibration without the device's size; libinput prints it in DEVICE_ADDED lines (\"size 253x167mm\")")
                }
            }
        }
        eventCount += 1
        guard let anomaly = framer.apply(kind, time: time, id: slot, x: position?.x, y: position?.y, emit: output.frame),
              anomalies.note(anomaly) else { return .ok }
        _ = anomalies.take()
        return .repaired(anomaly.message)
    }

    public mutating func flush(into output: DecoderOutput) { framer.flush(emit: output.frame) }
    public mutating func finish(into output: DecoderOutput) { framer.finish(emit: output.frame) }

    /// "+1.234s"
    static func time(_ field: Substring) -> Double? {
        guard field.hasPrefix("+"), field.hasSuffix("s") else { return nil }
        return plainNumber(field.dropFirst().dropLast())
    }

    /// A decimal number as libinput prints it: Swift's `Double("...")` would
    /// also take "nan", "inf" and hexadecimal, which no libinput line holds.
    static func plainNumber(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }) else { return nil }
        return Double(text)
    }

    /// The "(68.39/71.37mm)" column, or failing that the percentages "27.07/42.62".
    static func position(_ fields: ArraySlice<Substring>) -> (value: Vector, millimetres: Bool)? {
        var percent: Vector?
        for field in fields {
            if field.hasPrefix("("), field.hasSuffix("mm)"), let v = pair(field.dropFirst().dropLast(3)) {
                return (v, true)
            }
            if percent == nil, !field.hasPrefix("("), let v = pair(field) { percent = v }
        }
        return percent.map { ($0, false) }
    }

    private static func pair(_ text: Substring) -> Vector? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let x = plainNumber(parts[0]), let y = plainNumber(parts[1]) else { return nil }
        return Vector(x, y)
    }

    /// "-event4  DEVICE_ADDED  NTRG0001:01 1B96:1B05  seat0 default group1  cap:t  size 253x167mm ..."
    private mutating func readDevice(_ fields: [Substring]) {
        var nameParts: [Substring] = []
        for field in fields.dropFirst(2) {
            if field.hasPrefix("seat") { break }
            nameParts.append(field)
        }
        var surface: Surface?
        if let i = fields.firstIndex(of: "size"), i + 1 < fields.count {
            let size = fields[i + 1]
            if size.hasSuffix("mm") {
                let parts = size.dropLast(2).split(separator: "x")
                if parts.count == 2, let w = Self.plainNumber(parts[0]), let h = Self.plainNumber(parts[1]),
                   w > 0, h > 0, w <= InputLimits.maxMillimetres, h <= InputLimits.maxMillimetres {
                    surface = Surface(width: w, height: h)
                }
            }
        }
        let name = nameParts.isEmpty ? nil : nameParts.joined(separator: " ")
        // A real session announces a few dozen devices; garbage must not grow this without end.
        let node = fields[0].trimmingPrefix("-")
        guard announced[node] != nil || announced.count < 1024 else { return }
        announced[node] = (name, surface)
    }
}
