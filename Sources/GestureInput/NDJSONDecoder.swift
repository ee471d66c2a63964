#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore

/// The native NDJSON format (see ARCHITECTURE.md), fed in chunks of any size,
/// turned into frames in millimetres. Malformed lines become diagnostics and are
/// skipped; everything around them is still read.
public struct NDJSONDecoder: Sendable {
    public let source: String
    /// Lines longer than this are reported and skipped rather than buffered without end.
    public static let maxLineLength = 1 << 20

    public private(set) var lineNumber = 0
    public private(set) var device: DeviceInfo?
    public private(set) var converter: UnitConverter
    public private(set) var eventCount = 0
    public var diagnostics: [Diagnostic] = []
    /// Malformed lines seen so far (for `--strict`).
    public private(set) var errorCount = 0
    /// Under `--strict` the first malformed line stops the input: nothing after it is read.
    public var stopsAtFirstError = false
    public var halted: Bool { stopsAtFirstError && errorCount > 0 }

    private let resolutionOverride: (x: Double, y: Double)?
    private var framer: TouchFramer
    private var partial: [UInt8] = []
    private var skippingLongLine = false
    private var reportedAnomalies: UInt32 = 0

    public init(source: String, resolution: (x: Double, y: Double)? = nil, device: Int = 0) {
        self.source = source
        resolutionOverride = resolution
        converter = UnitConverter(device: nil, override: resolution)
        framer = TouchFramer(surface: converter.surface, device: device)
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (TouchFrame) -> Void) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var start = 0
        let count = chunk.count
        while start < count && !halted {
            guard let hit = memchr(base + start, 0x0A, count - start) else { break }
            let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if partial.isEmpty && !skippingLongLine {
                line(UnsafeBufferPointer(start: base + start, count: end - start), emit: emit)
            } else {
                appendPartial(UnsafeBufferPointer(start: base + start, count: end - start))
                finishPartialLine(emit: emit)
            }
            start = end + 1
        }
        if start < count && !halted { appendPartial(UnsafeBufferPointer(start: base + start, count: count - start)) }
    }

    /// Input is not available right now (a live pipe went quiet): close the open frame.
    public mutating func flush(emit: (TouchFrame) -> Void) {
        framer.flush(emit: emit)
    }

    /// End of input: reads a last line without a newline, closes the last frame
    /// and ends touches still down as cancelled.
    public mutating func finish(emit: (TouchFrame) -> Void) {
        if halted { return }
        if !partial.isEmpty || skippingLongLine { finishPartialLine(emit: emit) }
        framer.finish(emit: emit)
    }

    private mutating func appendPartial(_ bytes: UnsafeBufferPointer<UInt8>) {
        if skippingLongLine { return }
        if partial.count + bytes.count > NDJSONDecoder.maxLineLength {
            skippingLongLine = true
            partial.removeAll()
            return
        }
        partial.append(contentsOf: bytes)
    }

    private mutating func finishPartialLine(emit: (TouchFrame) -> Void) {
        if skippingLongLine {
            lineNumber += 1
            skippingLongLine = false
            report("line longer than \(NDJSONDecoder.maxLineLength) bytes; skipped", isError: true)
            return
        }
        let bytes = partial
        partial.removeAll(keepingCapacity: true)
        bytes.withUnsafeBufferPointer { line($0, emit: emit) }
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>, emit: (TouchFrame) -> Void) {
        lineNumber += 1
        guard raw.count <= NDJSONDecoder.maxLineLength else {
            report("line longer than \(NDJSONDecoder.maxLineLength) bytes; skipped", isError: true)
            return
        }
        var bytes = raw
        if lineNumber == 1, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        switch NDJSONLineParser.parse(bytes) {
        case .blank:
            return
        case .invalid(let message):
            report(message, isError: true)
        case .device(let info):
            device = info
            converter = UnitConverter(device: info, override: resolutionOverride)
            framer.surface = converter.surface
        case let .event(kind, time, id, x, y):
            eventCount += 1
            var mx: Double?
            var my: Double?
            // The contract ignores positions on up and cancel: a contact ends where it last was.
            if kind != .up && kind != .cancel && (x != nil || y != nil) {
                let p = converter.millimetres(x: x ?? converter.xOrigin, y: y ?? converter.yOrigin)
                if x != nil { mx = p.x }
                if y != nil { my = p.y }
            }
            if let anomaly = framer.apply(kind, time: time, id: id, x: mx, y: my, emit: emit) {
                let bit = UInt32(1) << UInt32(anomaly.rawValue)
                if reportedAnomalies & bit == 0 {
                    reportedAnomalies |= bit
                    report(anomaly.message, isError: false)
                }
            }
        }
    }

    private mutating func report(_ message: String, isError: Bool) {
        if isError { errorCount += 1 }
        diagnostics.append(Diagnostic(source: source, line: lineNumber, message: message))
    }
}
