import GestureCore

/// The native NDJSON format (see docs/architecture.md), fed in chunks of any size,
/// turned into frames in millimetres. Malformed lines become diagnostics and are
/// skipped; everything around them is still read.
public typealias NDJSONDecoder = LineDecoder<NDJSONParser>

extension LineDecoder where Parser == NDJSONParser {
    public init(source: String, resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity,
                device: Int = 0) {
        self.init(source: source, parser: NDJSONParser(resolution: resolution, size: size, transform: transform, device: device))
    }

    public var device: DeviceInfo? { parser.device }

    /// Records a program made rather than read (a phone's page): each is a
    /// line, numbered and reported as the same line of text would be.
    public mutating func take(_ records: [NDJSONRecord], into output: DecoderOutput) {
        for record in records where !halted {
            line { $0.take(record, into: output) }
        }
    }
}

public struct NDJSONParser: LineParser {
    public private(set) var device: DeviceInfo?
    public private(set) var converter: UnitConverter {
        didSet { plainUnits = converter.transform.isIdentity }
    }
    /// `converter.transform.isIdentity`, kept rather than worked out on every event.
    private var plainUnits: Bool
    public private(set) var eventCount = 0
    /// A mouse's line was read.
    public private(set) var readsMouse = false
    private let resolutionOverride: (x: Double, y: Double)?
    /// `--size`, for a device header with ranges but no resolution. Without a
    /// header, or without the option, units stay CSS pixels (the contract).
    private let sizeHints: [SizeHint]
    private var framer: TouchFramer
    private var anomalies = OnceReporter<FramingAnomaly>()
    private let deviceIndex: Int
    private let transform: Transform
    /// With a transform, x and y mix: a move that gives one axis needs the other's last value.
    private var lastUnits: [Int: (x: Double, y: Double)] = [:]
    private var warnedTransform = false

    public init(resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity, device: Int = 0) {
        deviceIndex = device
        self.transform = transform
        resolutionOverride = resolution
        sizeHints = size.map { [SizeHint(.millimetres(width: $0.width, height: $0.height), from: .sizeOption)] } ?? []
        converter = UnitConverter(device: nil, override: resolution, transform: transform)
        plainUnits = converter.transform.isIdentity
        framer = TouchFramer(surface: converter.surface, device: device)
    }

    public var deviceName: String? { device?.name }

    public func unitsExplanation(source: String) -> String { converter.explanation(source: source) }

    @inline(__always)
    public mutating func parse(line bytes: UnsafeBufferPointer<UInt8>, number: Int, into output: DecoderOutput) -> LineResult {
        if let e = NDJSONFastLane.parse(bytes) {
            return accept(e.kind, time: e.time, id: e.id, x: e.x, y: e.y, emit: output.frame)
        }
        return parseAnyLine(bytes, into: output)
    }

    /// Every line the fast lane declines: headers, unusual spellings, mistakes.
    /// Kept out of line so that the fast lane's caller stays small enough for
    /// the optimizer to inline the lane's number reading into it.
    @inline(never)
    private mutating func parseAnyLine(_ bytes: UnsafeBufferPointer<UInt8>, into output: DecoderOutput) -> LineResult {
        take(NDJSONLineParser.parse(bytes), into: output)
    }

    /// One line's record, read from text or made by a program (a phone's page).
    public mutating func take(_ record: NDJSONRecord, into output: DecoderOutput) -> LineResult {
        switch record {
        case .blank:
            return .ok
        case .invalid(let message):
            return .malformed(message)
        case .device(let info):
            device = info
            if let name = info.name { output.deviceNamed(deviceIndex, name) }
            converter = UnitConverter(device: info, override: resolutionOverride, hints: sizeHints, transform: transform)
            framer.surface = converter.surface
            return .ok
        case let .event(kind, time, id, x, y):
            return accept(kind, time: time, id: id, x: x, y: y, emit: output.frame)
        case let .mouse(time, line):
            eventCount += 1
            readsMouse = true
            for event in line.events(at: time) { output.mouse(deviceIndex, event) }
            return .ok
        case let .palm(time, id):
            eventCount += 1
            lastUnits[id] = nil
            return report(framer.palm(time: time, id: id, emit: output.frame))
        }
    }

    @_transparent
    private mutating func accept(_ kind: TouchEventKind, time: Double, id: Int, x: Double?, y: Double?, emit: (TouchFrame) -> Void) -> LineResult {
        eventCount &+= 1
        var mx: Double?
        var my: Double?
        // Kept per contact only while it is down, so ids that come and go cannot grow it.
        if (kind == .up || kind == .cancel), !lastUnits.isEmpty { lastUnits[id] = nil }
        // The contract ignores positions on up and cancel: a contact ends where it last was.
        if kind != .up && kind != .cancel && (x != nil || y != nil) {
            if plainUnits {
                // What `converter.millimetres` works out without a transform.
                if let x { mx = (x - converter.xOrigin) * converter.xScale }
                if let y { my = (y - converter.yOrigin) * converter.yScale }
            } else {
                let last = lastUnits[id]
                let units = (x: x ?? last?.x ?? converter.xOrigin, y: y ?? last?.y ?? converter.yOrigin)
                lastUnits[id] = units
                let p = converter.millimetres(x: units.x, y: units.y)
                mx = p.x
                my = p.y
            }
        }
        if !warnedTransform, let problem = converter.transformProblem {
            warnedTransform = true
            _ = framer.apply(kind, time: time, id: id, x: mx, y: my, emit: emit)
            return .repaired(problem)
        }
        guard let anomaly = framer.apply(kind, time: time, id: id, x: mx, y: my, emit: emit) else { return .ok }
        return report(anomaly)
    }

    /// A repair, the first time of its kind.
    @inline(never)
    private mutating func report(_ anomaly: FramingAnomaly?) -> LineResult {
        guard let anomaly, anomalies.note(anomaly) else { return .ok }
        _ = anomalies.take()
        return .repaired(anomaly.message)
    }

    public mutating func flush(into output: DecoderOutput) { framer.flush(emit: output.frame) }
    public mutating func finish(into output: DecoderOutput) { framer.finish(emit: output.frame) }
}
