/// Decides an input's format from its first bytes, reading as many lines as it
/// takes: leading garbage, `#` comments and blank lines are passed over (the
/// garbage reported), raw event records are told from text by their structure,
/// and text that is not UTF-8 (UTF-16, UTF-32, a compressed file) is named.
public enum FormatDetector {
    /// Where the stream of the chosen format begins.
    public struct Start: Equatable, Sendable {
        /// Byte offset of the first line to read.
        public var offset: Int
        /// Lines before it (blank, comments, garbage), so line numbers stay true.
        public var linesBefore: Int
        /// Lines before it that are in no format gesturemap reads.
        public var garbageLines: Int
        /// Lines end in CR alone (classic Mac OS), not LF.
        public var carriageReturnLines: Bool

        public init(offset: Int = 0, linesBefore: Int = 0, garbageLines: Int = 0, carriageReturnLines: Bool = false) {
            self.offset = offset
            self.linesBefore = linesBefore
            self.garbageLines = garbageLines
            self.carriageReturnLines = carriageReturnLines
        }
    }

    public enum Guess: Equatable, Sendable {
        /// Not enough bytes yet to tell.
        case needMore
        case format(InputFormat, Start)
        /// Bytes that are not UTF-8 text nor event records: what they are.
        case notText(ForeignEncoding)
        /// Text, but no line of any format within the window (or before the end).
        case noFormat
        /// Only blank lines and comments, and the input ended.
        case nothing
    }

    /// How far detection reads before it gives up: a screenful of a terminal
    /// session's chatter is fine, an endless stream of garbage is not.
    public static let window = 64 * 1024
    public static let maxLines = 1000

    public static func detect(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> Guess {
        var scan = TextScan()
        return detect(bytes, complete: complete, resuming: &scan)
    }

    /// The same, for bytes that grow between calls (a pipe read in small
    /// pieces): `scan` remembers the lines already judged, so each byte is read
    /// once however it arrives, not once per piece.
    public static func detect(_ bytes: UnsafeRawBufferPointer, complete: Bool, resuming scan: inout TextScan) -> Guess {
        if bytes.isEmpty { return complete ? .nothing : .needMore }
        if bytes.prefix(64).contains(0) {
            switch rawRecords(bytes, complete: complete) {
            case .some(true): return .format(.raw, Start())
            case .none: return .needMore
            case .some(false): break
            }
        }
        if let encoding = ForeignEncoding.detect(bytes) { return .notText(encoding) }
        return text(bytes, complete: complete, scan: &scan)
    }

    // MARK: Raw records

    /// True when the bytes are `struct input_event` records: microseconds below
    /// a million and event types and codes the kernel defines. Text fails this
    /// at once (its "microseconds" hold letters), and so does a run of NUL bytes.
    /// Nil while not even one record has arrived.
    static func rawRecords(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> Bool? {
        let size = RawEventDecoder.recordSize
        let count = min(bytes.count / size, 16)
        // One record is too little to go on (NUL bytes and a newline can pass
        // for one); four, or all there is at the end, will do.
        if count < 4 && !complete { return nil }
        guard count > 0 else {
            // Too short for one record: text when it has a line, else a cut record.
            return !bytes.contains(0x0A)
        }
        // A run of NUL bytes is no stream of events (a stream may begin with one
        // SYN_REPORT at time 0, but not only with them).
        if bytes.prefix(count * size).allSatisfy({ $0 == 0 }) { return false }
        for r in 0..<count {
            let o = r * size
            let micros = bytes.loadUnaligned(fromByteOffset: o + 8, as: Int64.self)
            let type = bytes.loadUnaligned(fromByteOffset: o + 16, as: UInt16.self)
            let code = bytes.loadUnaligned(fromByteOffset: o + 18, as: UInt16.self)
            // EV_MAX is 0x1f; KEY_MAX, the largest code of any type, 0x2ff.
            guard micros >= 0, micros < 1_000_000, type <= 0x1F, code <= 0x2FF else { return false }
        }
        return true
    }

    // MARK: Text

    /// How far the text scan got: the lines judged so far and where the next
    /// begins, and what was seen of line ends.
    public struct TextScan: Sendable {
        /// Offset of the first line not yet judged.
        var start = 0
        var lines = 0
        var garbage = 0
        /// Where the search for the current line's end goes on.
        var lineSearch = 0
        /// Bytes already searched for LF and CR.
        var searched = 0
        var sawLF = false
        var firstCR: Int?
        /// The lines judged so far were split at CR (no LF anywhere).
        var crLines = false

        public init() {}
    }

    static func text(_ bytes: UnsafeRawBufferPointer, complete: Bool, scan: inout TextScan) -> Guess {
        let scanned = min(bytes.count, window)
        let windowFull = bytes.count >= window
        // Lines end in CR alone when there is no LF at all and a CR before the end.
        while scan.searched < scanned {
            let b = bytes[scan.searched]
            if b == 0x0A { scan.sawLF = true } else if b == 0x0D, scan.firstCR == nil { scan.firstCR = scan.searched }
            scan.searched += 1
        }
        let crLines = !scan.sawLF && (scan.firstCR.map { $0 < scanned - 1 } ?? false)
        if crLines != scan.crLines {
            // The line ends were misread until now: judge the lines again, once.
            scan.start = 0
            scan.lines = 0
            scan.garbage = 0
            scan.lineSearch = 0
            scan.crLines = crLines
        }
        let newline: UInt8 = crLines ? 0x0D : 0x0A
        while scan.start < scanned && scan.lines < maxLines {
            var end = max(scan.lineSearch, scan.start)
            while end < scanned && bytes[end] != newline { end += 1 }
            let isLast = end >= scanned
            // A line still arriving is judged only at the end of input, or when it
            // alone fills the window.
            if isLast && !complete && !windowFull {
                scan.lineSearch = end
                return .needMore
            }
            let line = UnsafeRawBufferPointer(rebasing: bytes[scan.start..<end])
            switch classify(line) {
            case .blank, .comment: break
            case .garbage: scan.garbage += 1
            case .format(let format):
                return .format(format, Start(offset: scan.start, linesBefore: scan.lines, garbageLines: scan.garbage, carriageReturnLines: crLines))
            }
            scan.lines += 1
            scan.start = end + 1
            scan.lineSearch = scan.start
        }
        let gaveUp = windowFull || scan.lines >= maxLines
        if gaveUp { return .noFormat }
        if complete { return scan.garbage == 0 ? .nothing : .noFormat }
        return .needMore
    }

    enum LineKind: Equatable {
        case blank, comment, garbage
        case format(InputFormat)
    }

    static let evtestPrefixes = ["Input driver version", "Input device ID", "Input device name", "Supported events", "Event: time", "Properties:", "Testing ..."]

    /// What one line says about the format, read as a person would.
    static func classify(_ raw: UnsafeRawBufferPointer) -> LineKind {
        var bytes = raw[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        if bytes.contains(0) { return .garbage }
        guard let i = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return .blank }
        let trimmed = bytes[i...]
        switch trimmed.first {
        case UInt8(ascii: "{"): return .format(.ndjson)
        case UInt8(ascii: "#"): return .comment
        default: break
        }
        let text = String(decoding: trimmed, as: UTF8.self)
        for prefix in evtestPrefixes where text.hasPrefix(prefix) { return .format(.evtest) }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        // "event4   TOUCH_DOWN ...": a device column, then an event name in capitals.
        if fields.count >= 2, fields[0].trimmingPrefix("-").hasPrefix("event"),
           fields[1].utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x5F }) {
            return .format(.libinput)
        }
        if trimmed.startIndex == bytes.startIndex, isEvemu(text) { return .format(.evemu) }
        return .garbage
    }

    /// `E:` lines that read as events, and description lines whose fields are numbers.
    private static func isEvemu(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[1] == UInt8(ascii: ":") else { return false }
        let body = text.dropFirst(2).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let fields = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch utf8[0] {
        case UInt8(ascii: "N"):
            return !fields.isEmpty
        case UInt8(ascii: "E"):
            return utf8.withUnsafeBufferPointer { line in
                var s = EventScanner(line, from: 2)
                return s.decimal() != nil && s.hex() != nil && s.hex() != nil && s.integer() != nil && s.atEndOrComment()
            }
        case UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"), UInt8(ascii: "L"), UInt8(ascii: "S"):
            return !fields.isEmpty && fields.allSatisfy { UInt64($0, radix: 16) != nil }
        case UInt8(ascii: "A"):
            return fields.count >= 5 && UInt16(fields[0], radix: 16) != nil && fields.dropFirst().allSatisfy { Int64($0) != nil }
        default:
            return false
        }
    }
}
