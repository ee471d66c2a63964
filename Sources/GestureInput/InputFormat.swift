import GestureCore

/// The formats gesturemap reads; `--format` names them.
public enum InputFormat: String, CaseIterable, Sendable {
    case ndjson
    case evemu
    case evtest
    case libinput
    case raw

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Reads any supported format, deciding which from the first lines unless told
/// (see `FormatDetector`).
public struct AutoDecoder: TouchDecoder {
    public let source: String
    private let resolution: (x: Double, y: Double)?
    private let size: Surface?
    private let device: Int
    private let transform: Transform
    private var inner: (any TouchDecoder)?
    private var pending: [UInt8] = []
    public private(set) var format: InputFormat?
    /// How the format was chosen, for `-v`: nil when it was given.
    public private(set) var formatExplanation: String?
    private var undetectable = false
    /// How far detection got, so that a pipe read in small pieces is judged line by line, once.
    private var scan = FormatDetector.TextScan()
    private var ownErrors = 0
    private var ownDiagnostics: [Diagnostic] = []
    private var wantsStop = false
    /// Lines end in CR alone: CR is turned into LF before the inner decoder sees it.
    private var carriageReturnLines = false
    private var translated: [UInt8] = []

    public init(source: String, format: InputFormat? = nil, resolution: (x: Double, y: Double)? = nil, size: Surface? = nil,
                transform: Transform = .identity, device: Int = 0) {
        self.source = source
        self.transform = transform
        self.resolution = resolution
        self.size = size
        self.device = device
        if let format { choose(format, linesBefore: 0) }
    }

    public var diagnostics: [Diagnostic] {
        get { ownDiagnostics + (inner?.diagnostics ?? []) }
        set {
            ownDiagnostics = []
            inner?.diagnostics = newValue
        }
    }

    public var errorCount: Int { (inner?.errorCount ?? 0) + ownErrors }
    public var stopsAtFirstError: Bool {
        get { wantsStop }
        set {
            wantsStop = newValue
            inner?.stopsAtFirstError = newValue
        }
    }
    public var eventCount: Int { inner?.eventCount ?? 0 }
    public var deviceName: String? { inner?.deviceName }
    public var readsMouse: Bool { inner?.readsMouse ?? false }
    public var unitsExplanation: String { inner?.unitsExplanation ?? "\(source): no touch events" }
    public var converter: UnitConverter { inner?.converter ?? UnitConverter(device: nil, override: resolution, transform: transform) }

    private mutating func choose(_ format: InputFormat, linesBefore: Int) {
        self.format = format
        var decoder: any TouchDecoder
        switch format {
        case .ndjson:
            decoder = Self.starting(NDJSONDecoder(source: source, resolution: resolution, size: size, transform: transform, device: device), after: linesBefore)
        case .libinput:
            decoder = Self.starting(LibinputDecoder(source: source, transform: transform, device: device), after: linesBefore)
        case .evemu:
            decoder = Self.starting(EvemuDecoder(source: source, resolution: resolution, size: size, transform: transform, device: device), after: linesBefore)
        case .evtest:
            decoder = Self.starting(EvtestDecoder(source: source, resolution: resolution, size: size, transform: transform, device: device), after: linesBefore)
        case .raw:
            decoder = RawEventDecoder(source: source, resolution: resolution, size: size, transform: transform, device: device)
        }
        decoder.stopsAtFirstError = wantsStop
        inner = decoder
    }

    private static func starting<P>(_ decoder: LineDecoder<P>, after lines: Int) -> LineDecoder<P> {
        var d = decoder
        d.skipNumbering(lines)
        return d
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, into output: DecoderOutput) {
        if undetectable { return }
        if inner != nil {
            forward(chunk, into: output)
            return
        }
        pending.append(contentsOf: chunk)
        decide(complete: false, into: output)
    }

    public mutating func flush(into output: DecoderOutput) {
        inner?.flush(into: output)
    }

    public mutating func finish(into output: DecoderOutput) {
        if inner == nil && !undetectable { decide(complete: true, into: output) }
        if halted { return }
        inner?.finish(into: output)
    }

    private mutating func forward(_ chunk: UnsafeRawBufferPointer, into output: DecoderOutput) {
        guard carriageReturnLines else {
            inner?.feed(chunk, into: output)
            return
        }
        translated.removeAll(keepingCapacity: true)
        translated.append(contentsOf: chunk)
        for i in translated.indices where translated[i] == 0x0D { translated[i] = 0x0A }
        let bytes = translated
        bytes.withUnsafeBytes { inner?.feed($0, into: output) }
    }

    private mutating func decide(complete: Bool, into output: DecoderOutput) {
        let guess = pending.withUnsafeBytes { FormatDetector.detect($0, complete: complete, resuming: &scan) }
        switch guess {
        case .needMore, .nothing:
            return
        case .noFormat:
            give(up: Diagnostic(source: source, line: 1, message: "cannot tell the input format: no line among the first ones is ndjson, evemu, evtest or libinput text, nor is it raw event records; give --format \(InputFormat.names)"))
        case .notText(let encoding):
            give(up: Diagnostic(source: source, line: 0, message: encoding.description))
        case .format(let format, let start):
            choose(format, linesBefore: start.linesBefore)
            carriageReturnLines = start.carriageReturnLines
            let line = start.linesBefore + 1
            formatExplanation = format == .raw
                ? "\(source): reading raw input_event records (detected from their structure)"
                : "\(source): reading \(format.rawValue) (detected at line \(line))"
            if start.carriageReturnLines {
                ownDiagnostics.append(Diagnostic(source: source, line: 0, message: "lines end in CR alone (classic Mac OS); reading CR as the end of a line"))
            }
            if start.garbageLines > 0 {
                ownErrors += 1
                let lines = start.garbageLines == 1 ? "1 line" : "\(start.garbageLines) lines"
                ownDiagnostics.append(Diagnostic(source: source, line: 1, message: "\(lines) before line \(line) \(start.garbageLines == 1 ? "is" : "are") in no format gesturemap reads; skipped (the \(format.rawValue) input begins at line \(line))"))
                // --strict: the first malformed line stops the input.
                if wantsStop {
                    pending = []
                    return
                }
            }
            let bytes = pending
            pending = []
            bytes.withUnsafeBytes { all in forward(UnsafeRawBufferPointer(rebasing: all[start.offset...]), into: output) }
        }
    }

    private mutating func give(up diagnostic: Diagnostic) {
        undetectable = true
        ownErrors += 1
        ownDiagnostics.append(diagnostic)
        pending = []
    }
}
