/// What bytes are when they are text in another encoding than UTF-8, or
/// compressed: named in the message, with the command that converts them.
public enum ForeignEncoding: Equatable, Sendable, CustomStringConvertible {
    public enum Unicode: String, Sendable {
        case utf16LE = "UTF-16LE", utf16BE = "UTF-16BE", utf32LE = "UTF-32LE", utf32BE = "UTF-32BE"

        var byteOrderMark: [UInt8] {
            switch self {
            case .utf16LE: return [0xFF, 0xFE]
            case .utf16BE: return [0xFE, 0xFF]
            case .utf32LE: return [0xFF, 0xFE, 0, 0]
            case .utf32BE: return [0, 0, 0xFE, 0xFF]
            }
        }
    }

    public enum Compression: String, Sendable {
        case gzip, xz, zstd, bzip2

        var magic: [UInt8] {
            switch self {
            case .gzip: return [0x1F, 0x8B]
            case .xz: return [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
            case .zstd: return [0x28, 0xB5, 0x2F, 0xFD]
            case .bzip2: return [0x42, 0x5A, 0x68]
            }
        }

        /// The command that decompresses it to stdout.
        var tool: String {
            switch self {
            case .gzip: return "zcat"
            case .xz: return "xzcat"
            case .zstd: return "zstdcat"
            case .bzip2: return "bzcat"
            }
        }
    }

    /// `byteOrderMark`: told by its mark, else by where its NUL bytes fall.
    case text(Unicode, byteOrderMark: Bool)
    case compressed(Compression)

    public var description: String {
        switch self {
        case let .text(encoding, marked):
            let name = encoding.rawValue
            let how = marked ? "byte order mark " + encoding.byteOrderMark.map(Self.hex).joined(separator: " ") : "no byte order mark"
            return "the input is \(name) text (\(how)); gesturemap reads UTF-8: convert it first, as in iconv -f \(name) -t UTF-8 FILE | gesturemap run -"
        case .compressed(let format):
            return "the input is \(format.rawValue)-compressed; decompress it first, as in \(format.tool) FILE | gesturemap run -"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// The encoding of `b`'s first bytes when it is one of these; nil for
    /// UTF-8 (and ASCII) text, raw records and anything else.
    static func detect(_ b: UnsafeRawBufferPointer) -> ForeignEncoding? {
        func starts(_ magic: [UInt8]) -> Bool { b.count >= magic.count && zip(b, magic).allSatisfy { $0 == $1 } }
        // UTF-32LE's mark begins with UTF-16LE's: the longer mark is tried first.
        for encoding in [Unicode.utf32LE, .utf32BE, .utf16LE, .utf16BE] where starts(encoding.byteOrderMark) {
            return .text(encoding, byteOrderMark: true)
        }
        for format in [Compression.gzip, .xz, .zstd, .bzip2] where starts(format.magic) {
            // "BZh" alone could begin a line of text; bzip2 follows it with a digit and a binary block.
            if format == .bzip2, !(b.count > 4 && b[3] >= 0x31 && b[3] <= 0x39 && b[4] == 0x31) { continue }
            return .compressed(format)
        }
        // Without a byte order mark, ASCII in UTF-16 or UTF-32 shows as NUL bytes in fixed places.
        let n = min(b.count, 64) & ~3
        guard n >= 8 else { return nil }
        var zeroAt = [Int](repeating: 0, count: 4)
        for i in 0..<n where b[i] == 0 { zeroAt[i % 4] += 1 }
        let quarter = n / 4
        if zeroAt[1] == quarter && zeroAt[2] == quarter && zeroAt[3] == quarter && zeroAt[0] < quarter {
            return .text(.utf32LE, byteOrderMark: false)
        }
        if zeroAt[0] == quarter && zeroAt[1] == quarter && zeroAt[2] == quarter && zeroAt[3] < quarter {
            return .text(.utf32BE, byteOrderMark: false)
        }
        if zeroAt[1] == quarter && zeroAt[3] == quarter && zeroAt[0] + zeroAt[2] < quarter {
            return .text(.utf16LE, byteOrderMark: false)
        }
        if zeroAt[0] == quarter && zeroAt[2] == quarter && zeroAt[1] + zeroAt[3] < quarter {
            return .text(.utf16BE, byteOrderMark: false)
        }
        return nil
    }
}
