import GestureCore

/// The formats gesturemap reads; `--format` names them.
public enum InputFormat: String, CaseIterable, Sendable {
    case ndjson
    case evemu
    case evtest
    case libinput
    case raw

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Guesses the format from the first bytes of an input: nil while they are
    /// not enough to tell (no complete first line yet), `.some(nil)` when they
    /// match no format.
    public static func detect(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> InputFormat?? {
        var i = 0
        // Skip a BOM and blank lines.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        guard i < bytes.count else { return complete ? .some(nil) : nil }
        // Binary input_event records start with a timestamp whose high bytes are zero.
        if bytes.prefix(64).contains(0) { return .some(.raw) }
        if bytes[i] == UInt8(ascii: "{") { return .some(.ndjson) }
        var end = i
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        if end == bytes.count && !complete && end - i < 256 { return nil }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
        let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
        if first.trimmingPrefix("-").hasPrefix("event") { return .some(.libinput) }
        if line.hasPrefix("#") { return .some(.evemu) }
        if line.count >= 2, let tag = line.first, "NIPBAELS".contains(tag), line.dropFirst().first == ":" { return .some(.evemu) }
        for prefix in ["Input driver version", "Input device ID", "Input device name", "Supported events", "Event: time"] where line.hasPrefix(prefix) {
            return .some(.evtest)
        }
        return .some(nil)
    }
}

/// Reads any supported format, deciding which from the first line unless told.
public struct AutoDecoder: TouchDecoder {
    public let source: String
    private let resolution: (x: Double, y: Double)?
    private let device: Int
    private let transform: Transform
    private let directory: DeviceDirectory?
    private var inner: (any TouchDecoder)?
    private var pending: [UInt8] = []
    public private(set) var format: InputFormat?
    private var undetectable = false
    private var ownDiagnostics: [Diagnostic] = []
    private var wantsStop = false

    public init(source: String, format: InputFormat? = nil, resolution: (x: Double, y: Double)? = nil,
                transform: Transform = .identity, device: Int = 0, directory: DeviceDirectory? = nil) {
        self.source = source
        self.transform = transform
        self.resolution = resolution
        self.device = device
        self.directory = directory
        if let format { choose(format) }
    }

    public var diagnostics: [Diagnostic] {
        get { ownDiagnostics + (inner?.diagnostics ?? []) }
        set {
            ownDiagnostics = []
            inner?.diagnostics = newValue
        }
    }

    public var errorCount: Int { (inner?.errorCount ?? 0) + (undetectable ? 1 : 0) }
    public var stopsAtFirstError: Bool {
        get { wantsStop }
        set {
            wantsStop = newValue
            inner?.stopsAtFirstError = newValue
        }
    }
    public var eventCount: Int { inner?.eventCount ?? 0 }
    public var deviceName: String? { inner?.deviceName }
    public var unitsExplanation: String { inner?.unitsExplanation ?? "\(source): no touch events" }
    public var converter: UnitConverter { inner?.converter ?? UnitConverter(device: nil, override: resolution, transform: transform) }

    private mutating func choose(_ format: InputFormat) {
        self.format = format
        var decoder: any TouchDecoder
        switch format {
        case .ndjson: decoder = NDJSONDecoder(source: source, resolution: resolution, transform: transform, device: device, directory: directory)
        case .libinput: decoder = LibinputDecoder(source: source, transform: transform, device: device, directory: directory)
        case .evemu: decoder = EvemuDecoder(source: source, resolution: resolution, transform: transform, device: device, directory: directory)
        case .evtest: decoder = EvtestDecoder(source: source, resolution: resolution, transform: transform, device: device, directory: directory)
        case .raw: decoder = RawEventDecoder(source: source, resolution: resolution, transform: transform, device: device, directory: directory)
        }
        decoder.stopsAtFirstError = wantsStop
        inner = decoder
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (TouchFrame) -> Void) {
        if undetectable { return }
        if inner != nil {
            inner?.feed(chunk, emit: emit)
            return
        }
        pending.append(contentsOf: chunk)
        decide(complete: false, emit: emit)
    }

    public mutating func flush(emit: (TouchFrame) -> Void) {
        inner?.flush(emit: emit)
    }

    public mutating func finish(emit: (TouchFrame) -> Void) {
        if inner == nil && !undetectable { decide(complete: true, emit: emit) }
        inner?.finish(emit: emit)
    }

    private mutating func decide(complete: Bool, emit: (TouchFrame) -> Void) {
        let guess = pending.withUnsafeBytes { InputFormat.detect($0, complete: complete) }
        switch guess {
        case .none:
            return
        case .some(.none):
            if pending.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
            undetectable = true
            let blankLines = pending.prefix { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }.filter { $0 == 0x0A }.count
            ownDiagnostics.append(Diagnostic(source: source, line: blankLines + 1, message: "cannot tell the input format from the first line; give --format \(InputFormat.names)"))
        case .some(.some(let format)):
            choose(format)
            let bytes = pending
            pending = []
            bytes.withUnsafeBytes { inner?.feed($0, emit: emit) }
        }
    }
}
