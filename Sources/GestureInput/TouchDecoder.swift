import GestureCore

/// Where a decoder's output goes, in the order it was read: frames, the
/// name a header or device line gives a device, before the frames after it,
/// and a recorded mouse's events (`MouseEvents`), which make no frames.
public struct DecoderOutput {
    public let frame: (TouchFrame) -> Void
    public let deviceNamed: (_ device: Int, _ name: String) -> Void
    public let mouse: (_ device: Int, _ event: EvdevEvent) -> Void

    public init(frame: @escaping (TouchFrame) -> Void, deviceNamed: @escaping (_ device: Int, _ name: String) -> Void,
                mouse: @escaping (_ device: Int, _ event: EvdevEvent) -> Void = { _, _ in }) {
        self.frame = frame
        self.deviceNamed = deviceNamed
        self.mouse = mouse
    }
}

/// A source format turned into frames: what the engine reads every input through.
public protocol TouchDecoder {
    var source: String { get }
    var diagnostics: [Diagnostic] { get set }
    /// Malformed records so far (for `--strict`); repaired input does not count.
    var errorCount: Int { get }
    /// Under `--strict` the first malformed record stops the input.
    var stopsAtFirstError: Bool { get set }
    var eventCount: Int { get }
    /// The device's name when the source gives one.
    var deviceName: String? { get }
    /// One line for `-v`: how device units become millimetres.
    var unitsExplanation: String { get }
    /// How device units became millimetres (run backwards by `record`).
    var converter: UnitConverter { get }
    /// The input is a mouse's: its events went to `DecoderOutput.mouse`, in counts, and no unit applies.
    var readsMouse: Bool { get }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, into output: DecoderOutput)
    /// Input is not available right now (a live pipe went quiet): close the open frame.
    mutating func flush(into output: DecoderOutput)
    /// End of input: close the last frame and cancel touches still down.
    mutating func finish(into output: DecoderOutput)
}

extension TouchDecoder {
    public var halted: Bool { stopsAtFirstError && errorCount > 0 }
    public var readsMouse: Bool { false }

    // For a reader that wants the frames alone: names go by (`deviceName` has the last).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, frames: (TouchFrame) -> Void) {
        withoutActuallyEscaping(frames) { feed(chunk, into: .framesOnly($0)) }
    }

    public mutating func flush(frames: (TouchFrame) -> Void) {
        withoutActuallyEscaping(frames) { flush(into: .framesOnly($0)) }
    }

    public mutating func finish(frames: (TouchFrame) -> Void) {
        withoutActuallyEscaping(frames) { finish(into: .framesOnly($0)) }
    }
}

extension DecoderOutput {
    /// Frames to `frame`; the devices' names are not wanted.
    public static func framesOnly(_ frame: @escaping (TouchFrame) -> Void) -> DecoderOutput {
        DecoderOutput(frame: frame, deviceNamed: { _, _ in })
    }
}

/// What one line of a text format amounted to.
public enum LineResult: Equatable, Sendable {
    case ok
    /// Not a line of the format: reported with its number and skipped.
    case malformed(String)
    /// Understood, but repaired; reported (once per kind is the parser's business).
    case repaired(String)
}

/// One text format, a line at a time.
public protocol LineParser {
    var eventCount: Int { get }
    var deviceName: String? { get }
    var converter: UnitConverter { get }
    var readsMouse: Bool { get }
    func unitsExplanation(source: String) -> String
    mutating func parse(line: UnsafeBufferPointer<UInt8>, number: Int, into output: DecoderOutput) -> LineResult
    mutating func flush(into output: DecoderOutput)
    mutating func finish(into output: DecoderOutput)
    /// Repairs made since the last call, reported without counting as errors.
    mutating func takeNotes() -> [String]
}

extension LineParser {
    public mutating func takeNotes() -> [String] { [] }
    public var readsMouse: Bool { false }
}

/// Splits chunks of any size into lines for a `LineParser`: partial lines are
/// kept across chunks, CR before LF and a UTF-8 BOM are dropped, and a line longer
/// than `maxLineLength` is reported and skipped rather than buffered without end.
public struct LineDecoder<Parser: LineParser>: TouchDecoder {
    public let source: String
    public var parser: Parser
    public static var maxLineLength: Int { 1 << 20 }

    public private(set) var lineNumber = 0
    public var diagnostics: [Diagnostic] = []
    public private(set) var errorCount = 0
    public var stopsAtFirstError = false

    private var partial: [UInt8] = []
    private var skippingLongLine = false

    public init(source: String, parser: Parser) {
        self.source = source
        self.parser = parser
    }

    /// The first line fed is line `lines + 1`: lines before it were read (and
    /// reported) by format detection.
    public mutating func skipNumbering(_ lines: Int) {
        lineNumber += lines
    }

    public var eventCount: Int { parser.eventCount }
    public var deviceName: String? { parser.deviceName }
    public var unitsExplanation: String { parser.unitsExplanation(source: source) }
    public var converter: UnitConverter { parser.converter }
    public var readsMouse: Bool { parser.readsMouse }

    // Decoders are reached through `any TouchDecoder`, whose witness is this
    // generic body: without a specialization every line would call its parser
    // through the protocol. NDJSON is the format replays read by the million.
    @_specialize(where Parser == NDJSONParser)
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, into output: DecoderOutput) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var start = 0
        let count = chunk.count
        while start < count && !halted {
            guard let hit = memchrNewline(base + start, count - start) else { break }
            let end = start + hit
            if partial.isEmpty && !skippingLongLine {
                line(UnsafeBufferPointer(start: base + start, count: end - start), into: output)
            } else {
                appendPartial(UnsafeBufferPointer(start: base + start, count: end - start))
                finishPartialLine(into: output)
            }
            start = end + 1
        }
        if start < count && !halted { appendPartial(UnsafeBufferPointer(start: base + start, count: count - start)) }
    }

    public mutating func flush(into output: DecoderOutput) {
        parser.flush(into: output)
    }

    public mutating func finish(into output: DecoderOutput) {
        if halted { return }
        if !partial.isEmpty || skippingLongLine { finishPartialLine(into: output) }
        parser.finish(into: output)
        for note in parser.takeNotes() { report(note, isError: false) }
    }

    private mutating func appendPartial(_ bytes: UnsafeBufferPointer<UInt8>) {
        if skippingLongLine { return }
        if partial.count + bytes.count > Self.maxLineLength {
            skippingLongLine = true
            partial.removeAll()
            return
        }
        partial.append(contentsOf: bytes)
    }

    private mutating func finishPartialLine(into output: DecoderOutput) {
        if skippingLongLine {
            lineNumber += 1
            skippingLongLine = false
            report("line longer than \(Self.maxLineLength) bytes; skipped", isError: true)
            return
        }
        let bytes = partial
        partial.removeAll(keepingCapacity: true)
        bytes.withUnsafeBufferPointer { line($0, into: output) }
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>, into output: DecoderOutput) {
        lineNumber += 1
        guard raw.count <= Self.maxLineLength else {
            report("line longer than \(Self.maxLineLength) bytes; skipped", isError: true)
            return
        }
        var bytes = raw
        // A BOM begins a file, and so the middle of files joined with cat.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        if let last = bytes.last, last == 0x0D {
            bytes = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
        }
        settle(parser.parse(line: bytes, number: lineNumber, into: output))
    }

    /// A line that came already parsed (`parse` gives what the parser made of
    /// it): numbered and reported as a line of text would be.
    mutating func line(parsed parse: (inout Parser) -> LineResult) {
        lineNumber += 1
        settle(parse(&parser))
    }

    // Inlined into the per-line path: out of line, the result was copied through
    // an outlined copy for every line (callgrind, 300,000 NDJSON lines: 8 M).
    @inline(__always)
    private mutating func settle(_ result: LineResult) {
        switch result {
        case .ok: break
        case .malformed(let message): report(message, isError: true)
        case .repaired(let message): report(message, isError: false)
        }
        for note in parser.takeNotes() { report(note, isError: false) }
    }

    private mutating func report(_ message: String, isError: Bool) {
        if isError { errorCount += 1 }
        diagnostics.append(Diagnostic(source: source, line: lineNumber, message: message))
    }
}

import Glibc

/// Offset of the first newline, found with the C library's vectorized memchr.
@inline(__always)
func memchrNewline(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    guard let hit = memchr(p, 0x0A, count) else { return nil }
    return p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
}
