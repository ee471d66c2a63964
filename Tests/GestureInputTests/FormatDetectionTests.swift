import Foundation
import GestureCore
@testable import GestureInput
import Testing

// Detection decides on more than the first line, and never loses a valid
// stream to what comes before it.

private let ndjson = [
    #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
    #"{"t": 0.1, "ev": "move", "id": 1, "x": 96, "y": 0}"#,
    #"{"t": 0.2, "ev": "up", "id": 1}"#,
].joined(separator: "\n") + "\n"

private let evemu = [
    "N: panel", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10",
    "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0000 0000",
    "E: 0.100000 0003 0039 -1", "E: 0.100000 0000 0000 0000",
].joined(separator: "\n") + "\n"

private func auto(_ bytes: [UInt8], chunk: Int? = nil, strict: Bool = false) -> (decoder: AutoDecoder, frames: [TouchFrame], diagnostics: [String]) {
    var d = AutoDecoder(source: "in")
    d.stopsAtFirstError = strict
    let frames = drive(&d, bytes, chunk: chunk)
    return (d, frames, d.diagnostics.map(\.description))
}

private func auto(_ text: String, chunk: Int? = nil, strict: Bool = false) -> (decoder: AutoDecoder, frames: [TouchFrame], diagnostics: [String]) {
    auto(Array(text.utf8), chunk: chunk, strict: strict)
}

private func phases(_ frames: [TouchFrame]) -> [[String]] {
    frames.map { $0.touches.map { "\($0.id):\($0.phase)" } }
}

@Suite("Format detection")
struct FormatDetectionTests {
    @Test("leading garbage is skipped with one message counted as an error; the stream after it is read with its own line numbers",
          arguments: [nil, 1, 7] as [Int?])
    func leadingGarbage(chunk: Int?) {
        let r = auto("$ cat touches.ndjson\nhello\n" + ndjson + "oops\n", chunk: chunk)
        #expect(r.decoder.format == .ndjson)
        #expect(r.diagnostics == [
            "in:1: 2 lines before line 3 are in no format gesturemap reads; skipped (the ndjson input begins at line 3)",
            "in:6: not a JSON object; each line must be one object such as {\"t\": 0.0, \"ev\": \"down\", \"id\": 1, \"x\": 10, \"y\": 20}",
        ])
        #expect(r.decoder.errorCount == 2)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
        #expect(r.decoder.formatExplanation == "in: reading ndjson (detected at line 3)")
    }

    @Test("--strict: leading garbage stops the input before anything is read")
    func leadingGarbageStrict() {
        let r = auto("hello\n" + ndjson, strict: true)
        #expect(r.decoder.errorCount == 1)
        #expect(r.frames.isEmpty)
    }

    @Test("# comments and blank lines before a stream are passed over silently, in any format",
          arguments: [ndjson, evemu])
    func comments(stream: String) {
        let r = auto("# recorded on the kiosk\n\n#another\n" + stream, chunk: 3)
        #expect(r.diagnostics == [])
        #expect(r.decoder.errorCount == 0)
        #expect(phases(r.frames).first == ["1:began"])
        #expect(phases(r.frames).last == ["1:ended"])
    }

    @Test("NUL bytes before a stream: a line of garbage, not raw input")
    func nulBytes() {
        for nuls in [1, 23, 24, 200] {
            let r = auto([UInt8](repeating: 0, count: nuls) + Array(("\n" + ndjson).utf8), chunk: 5)
            #expect(r.decoder.format == .ndjson, "\(nuls) NULs")
            #expect(r.diagnostics == ["in:1: 1 line before line 2 is in no format gesturemap reads; skipped (the ndjson input begins at line 2)"], "\(nuls) NULs")
            #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]], "\(nuls) NULs")
        }
    }

    @Test("a NUL in the middle of a line makes that line malformed, and only that line")
    func nulInALine() {
        let text = #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n" + #"{"t": 0.05,"# + "\u{0}" + #" "ev": "sync"}"# + "\n" + #"{"t": 0.2, "ev": "up", "id": 1}"# + "\n"
        let r = auto(text)
        #expect(r.diagnostics == ["in:2: invalid JSON: expected a string at column 12"])
        #expect(phases(r.frames) == [["1:began"], ["1:ended"]])
    }

    @Test("raw input_event records are still detected, from their structure, even after a SYN_REPORT at time 0")
    func raw() {
        let stroke = HostileLibinputAndRawTests.rawStroke()
        for prefix in [[UInt8](), HostileLibinputAndRawTests.record(0, 0, 0, 0, 0)] {
            let r = auto(prefix + stroke, chunk: 10)
            #expect(r.decoder.format == .raw)
            #expect(r.diagnostics == [])
            #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
            #expect(r.decoder.formatExplanation == "in: reading raw input_event records (detected from their structure)")
        }
    }

    @Test("UTF-16 and UTF-32, with or without a byte order mark, and compressed files are named, with how to convert them",
          arguments: [
              (String.Encoding.utf16LittleEndian, "the input is UTF-16LE text (no byte order mark); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-16LE -t UTF-8 FILE | gesturemap run -"),
              (.utf16BigEndian, "the input is UTF-16BE text (no byte order mark); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-16BE -t UTF-8 FILE | gesturemap run -"),
              (.utf16, "the input is UTF-16LE text (byte order mark FF FE); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-16LE -t UTF-8 FILE | gesturemap run -"),
              (.utf32LittleEndian, "the input is UTF-32LE text (no byte order mark); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-32LE -t UTF-8 FILE | gesturemap run -"),
              (.utf32BigEndian, "the input is UTF-32BE text (no byte order mark); gesturemap reads UTF-8: convert it first, as in iconv -f UTF-32BE -t UTF-8 FILE | gesturemap run -"),
          ])
    func encodings(encoding: String.Encoding, message: String) throws {
        let bytes = try #require(ndjson.data(using: encoding))
        for text in [evemu, ndjson] {
            let r = auto(Array(try #require(text.data(using: encoding))), chunk: 3)
            #expect(r.decoder.format == nil)
            #expect(r.frames.isEmpty)
            #expect(r.decoder.errorCount == 1)
        }
        let r = auto(Array(bytes))
        #expect(r.diagnostics == ["in: \(message)"])
    }

    /// The first 40 bytes of `gzip -c` of a recording (a name, then deflate data).
    @Test("a gzip-compressed file is named, not read as raw records")
    func gzip() {
        let r = auto([
            0x1F, 0x8B, 0x08, 0x08, 0xE7, 0x9A, 0x0D, 0x6B, 0x00, 0x03, 0x73, 0x2E, 0x6E, 0x64, 0x6A, 0x73,
            0x6F, 0x6E, 0x00, 0x7D, 0x91, 0xD9, 0x6A, 0xC3, 0x30, 0x10, 0x45, 0xDF, 0xF3, 0x15, 0x61, 0x9E,
            0x45, 0xD1, 0x68, 0x57, 0xFE, 0xC6, 0xD4, 0xA2,
        ])
        #expect(r.diagnostics == ["in: the input is gzip-compressed; decompress it first, as in zcat FILE | gesturemap run -"])
        #expect(r.frames.isEmpty)
    }

    @Test("lines that end in CR alone are read, with a note that is not an error", arguments: [nil, 4] as [Int?])
    func carriageReturns(chunk: Int?) {
        let r = auto(ndjson.replacingOccurrences(of: "\n", with: "\r"), chunk: chunk)
        #expect(r.decoder.format == .ndjson)
        #expect(r.diagnostics == ["in: lines end in CR alone (classic Mac OS); reading CR as the end of a line"])
        #expect(r.decoder.errorCount == 0)
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("evemu with E: lines before its description is evemu")
    func evemuEventsFirst() {
        let r = auto("E: 0.000000 0003 0039 1\n" + evemu)
        #expect(r.decoder.format == .evemu)
    }

    @Test("a lone \"{\" line is ndjson, and malformed: reported, and the stream goes on")
    func loneBrace() {
        let r = auto("{\n" + ndjson)
        #expect(r.decoder.format == .ndjson)
        #expect(r.diagnostics == ["in:1: invalid JSON: expected a string at column 2"])
        #expect(phases(r.frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }

    @Test("text in no format for the whole window gives up with one message, and reads nothing more")
    func endlessGarbage() {
        let garbage = String(repeating: "not a touch\n", count: 1200)
        let r = auto(garbage + ndjson, chunk: 4096)
        #expect(r.decoder.format == nil)
        #expect(r.diagnostics.count == 1)
        #expect(r.diagnostics.first?.hasPrefix("in:1: cannot tell the input format") == true)
        #expect(r.frames.isEmpty)
    }

    @Test("a live pipe that has sent only garbage so far waits for more instead of giving up")
    func waitsForMore() {
        var d = AutoDecoder(source: "in")
        Array("hello\n".utf8).withUnsafeBytes { d.feed($0) { _ in } }
        #expect(d.format == nil)
        #expect(d.diagnostics.isEmpty)
        var frames: [TouchFrame] = []
        Array(ndjson.utf8).withUnsafeBytes { d.feed($0) { frames.append($0) } }
        d.finish { frames.append($0) }
        #expect(d.format == .ndjson)
        #expect(phases(frames) == [["1:began"], ["1:moved"], ["1:ended"]])
    }
}
