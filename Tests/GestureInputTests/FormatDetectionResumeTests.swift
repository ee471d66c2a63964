@testable import GestureInput
import Testing

/// Detection that resumes where it stopped (a pipe read in small pieces) must
/// decide exactly as detection over the same bytes read at once.
@Suite("Format detection, resumed")
struct FormatDetectionResumeTests {
    static let samples: [String] = [
        "garbage\nmore garbage\n# a comment\n\n{\"t\":1,\"ev\":\"down\",\"id\":1,\"x\":1,\"y\":2}\n",
        "Input driver version is 1.0.1\nInput device name: \"pad\"\n",
        "garbage\r{\"t\":1}\r",
        "a\rb\rc\n{\"t\":1}\n",
        "-event4   TOUCH_DOWN       +0.000s\n",
        "# only comments\n\n   \n",
        "no\nformat\nhere\n",
        "\u{FEFF}{\"t\":1}\n",
        "line without an end",
        String(repeating: "garbage line\n", count: 1_200),
    ]

    /// Feeds `text` in pieces of `piece` bytes, asking after each; then once complete.
    static func resumed(_ text: String, piece: Int) -> FormatDetector.Guess {
        let bytes = Array(text.utf8)
        var scan = FormatDetector.TextScan()
        var end = 0
        while end < bytes.count {
            end = min(end + piece, bytes.count)
            let guess = bytes[..<end].withUnsafeBytes { FormatDetector.detect($0, complete: false, resuming: &scan) }
            if guess != .needMore {
                let atOnce = bytes[..<end].withUnsafeBytes { FormatDetector.detect($0, complete: false) }
                #expect(guess == atOnce, "after \(end) bytes")
                return guess
            }
        }
        return bytes.withUnsafeBytes { FormatDetector.detect($0, complete: true, resuming: &scan) }
    }

    @Test("every sample, in pieces of 1 to 17 bytes, decides as the whole does", arguments: 1...17)
    func pieces(piece: Int) {
        for sample in Self.samples {
            let whole = Array(sample.utf8).withUnsafeBytes { FormatDetector.detect($0, complete: true) }
            #expect(Self.resumed(sample, piece: piece) == whole, "\(sample.prefix(40)) in pieces of \(piece)")
        }
    }
}
