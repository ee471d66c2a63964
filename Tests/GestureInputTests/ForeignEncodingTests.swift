import GestureInput
import Testing

@Suite("Text in another encoding, and compressed input")
struct ForeignEncodingTests {
    static func guess(_ bytes: [UInt8]) -> FormatDetector.Guess {
        bytes.withUnsafeBytes { FormatDetector.detect($0, complete: true) }
    }

    static let line = Array(#"{"t":0,"ev":"down","id":1,"x":1,"y":2}"#.utf8) + [0x0A]

    @Test("each byte order mark is named, with the iconv command", arguments: [
        ([0xFF, 0xFE, 0, 0], ForeignEncoding.Unicode.utf32LE, "UTF-32LE", "FF FE 00 00"),
        ([0, 0, 0xFE, 0xFF], .utf32BE, "UTF-32BE", "00 00 FE FF"),
        ([0xFF, 0xFE], .utf16LE, "UTF-16LE", "FF FE"),
        ([0xFE, 0xFF], .utf16BE, "UTF-16BE", "FE FF"),
    ] as [([UInt8], ForeignEncoding.Unicode, String, String)])
    func marks(mark: [UInt8], encoding: ForeignEncoding.Unicode, name: String, shown: String) {
        #expect(Self.guess(mark + Self.line) == .notText(.text(encoding, byteOrderMark: true)))
        #expect(ForeignEncoding.text(encoding, byteOrderMark: true).description
            == "the input is \(name) text (byte order mark \(shown)); gesturemap reads UTF-8: convert it first, as in iconv -f \(name) -t UTF-8 FILE | gesturemap run -")
    }

    @Test("each compression is named, with the command that undoes it", arguments: [
        ([0x1F, 0x8B, 0x08, 0x00], ForeignEncoding.Compression.gzip, "zcat"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04], .xz, "xzcat"),
        ([0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00], .zstd, "zstdcat"),
        ([0x42, 0x5A, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26], .bzip2, "bzcat"),
    ] as [([UInt8], ForeignEncoding.Compression, String)])
    func compressed(bytes: [UInt8], format: ForeignEncoding.Compression, tool: String) {
        // Long enough that no one could take it for raw event records (whose microseconds are never negative).
        #expect(Self.guess(bytes + [UInt8](repeating: 0xFF, count: 40)) == .notText(.compressed(format)))
        #expect(ForeignEncoding.compressed(format).description
            == "the input is \(format.rawValue)-compressed; decompress it first, as in \(tool) FILE | gesturemap run -")
    }

    @Test("\"BZh\" at the start of a text line is no bzip2 stream")
    func bzhText() {
        #expect(Self.guess(Array("BZh is a word\n".utf8)) != .notText(.compressed(.bzip2)))
    }
}
