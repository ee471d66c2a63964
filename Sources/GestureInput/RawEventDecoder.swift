import CEvdev
import GestureCore

/// Raw `struct input_event` records, as read from /dev/input/event* (or a file
/// or pipe of them): 24 bytes each on 64-bit Linux, seconds and microseconds,
/// then type, code and value. They carry no description of the device: units
/// need `--resolution`, a device's ioctls, or `describe`.
public struct RawEventDecoder: TouchDecoder {
    public let source: String
    public var diagnostics: [Diagnostic] = []
    public private(set) var errorCount = 0
    public var stopsAtFirstError = false
    public private(set) var stream: EvdevStream
    private var partial: [UInt8] = []
    /// The last valid stamp and its time: the kernel stamps every event of a
    /// packet alike, and working the time out again for each was half the
    /// cost of reading a record.
    private var lastStamp: (seconds: Int64, micros: Int64, time: Double)?
    /// Records read so far, for messages: raw input has no lines.
    public private(set) var recordNumber = 0
    public static let recordSize = Int(gm_input_event_size())

    public init(source: String, resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity,
                device: Int = 0) {
        self.source = source
        stream = EvdevStream(resolution: resolution, size: size, transform: transform, device: device)
    }

    public var eventCount: Int { stream.eventCount }
    public var deviceName: String? { stream.description.name }
    public var unitsExplanation: String { stream.converter.explanation(source: source) }
    public var converter: UnitConverter { stream.converter }
    public var readsMouse: Bool { stream.isMouse }

    /// The device's axes and name, from its ioctls, and what the system knows
    /// of its size (udev, the display's EDID) for when it gives no resolution.
    public mutating func describe(_ description: EvdevDescription, sizeHints: [SizeHint] = []) {
        stream.useSystemHints(sizeHints)
        stream.describe { $0 = description }
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, into output: DecoderOutput) {
        // A description comes from the device's ioctls, before any record.
        stream.sendName(to: output)
        let emit = output.frame
        let mouse = output.mouse
        let size = RawEventDecoder.recordSize
        var start = 0
        if !partial.isEmpty {
            let need = size - partial.count
            let take = min(need, chunk.count)
            partial.append(contentsOf: chunk[0..<take])
            start = take
            guard partial.count == size else { return }
            let record = partial
            partial.removeAll(keepingCapacity: true)
            _ = record.withUnsafeBytes { decodeRecord($0, at: 0, emit: emit, mouse: mouse) }
        }
        while start + size <= chunk.count {
            let ok = decodeRecord(chunk, at: start, emit: emit, mouse: mouse)
            start += size
            if !ok && stopsAtFirstError { break }
        }
        if start < chunk.count && !halted { partial.append(contentsOf: chunk[start...]) }
        report(stream.takeNotes())
    }

    /// False when the record is no event (and was reported).
    @inline(__always)
    private mutating func decodeRecord(_ bytes: UnsafeRawBufferPointer, at offset: Int, emit: (TouchFrame) -> Void,
                                       mouse: (_ device: Int, _ event: EvdevEvent) -> Void) -> Bool {
        recordNumber &+= 1
        let seconds = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        let micros = bytes.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)
        let type = bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self)
        let code = bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self)
        let value = bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self)
        let time: Double
        if let last = lastStamp, last.seconds == seconds, last.micros == micros {
            time = last.time
        } else {
            time = Double(seconds) + Double(micros) / 1e6
            // The kernel stamps events with a timeval: microseconds below a million.
            guard UInt64(bitPattern: micros) < 1_000_000, abs(time) <= InputLimits.maxTime else {
                badTime(seconds: seconds, micros: micros)
                return false
            }
            lastStamp = (seconds, micros, time)
        }
        stream.handle(EvdevEvent(time: time, type: type, code: code, value: value), emit: emit, mouse: mouse)
        return true
    }

    /// A record whose time is none the kernel gives: reported with its number
    /// and byte offset. Kept out of line, off the path every record takes.
    @inline(never)
    private mutating func badTime(seconds: Int64, micros: Int64) {
        errorCount += 1
        let offset = (recordNumber - 1) * RawEventDecoder.recordSize
        diagnostics.append(Diagnostic(source: source, line: 0,
            message: "record \(recordNumber) (byte \(offset)): its time (\(seconds) s, \(micros) µs) is not a time the kernel gives; the record is skipped"))
    }

    public mutating func flush(into output: DecoderOutput) { stream.flush(emit: output.frame) }

    public mutating func finish(into output: DecoderOutput) {
        if halted { return }
        if !partial.isEmpty {
            errorCount += 1
            diagnostics.append(Diagnostic(source: source, line: 0, message: "the input ended inside an event record (\(partial.count) of \(RawEventDecoder.recordSize) bytes); the rest is ignored"))
            partial.removeAll()
        }
        stream.finish(emit: output.frame)
        report(stream.takeNotes())
    }

    private mutating func report(_ notes: [String]) {
        for note in notes { diagnostics.append(Diagnostic(source: source, line: 0, message: note)) }
    }

    /// What follows a SYN_DROPPED: `.kernelState` for a device read through libevdev.
    public var dropRecovery: DropRecovery {
        get { stream.dropRecovery }
        set { stream.dropRecovery = newValue }
    }
}
