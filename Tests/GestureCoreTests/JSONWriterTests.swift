import Foundation
import GestureCore
import Testing

// MARK: - Helpers

private func written(_ body: (inout JSONWriter) -> Void) -> String {
    var w = JSONWriter()
    body(&w)
    return w.text
}

private func stringJSON(_ s: String) -> String {
    written { $0.string(s) }
}

private func stringJSON(utf8 bytes: [UInt8]) -> (text: String, bytes: [UInt8]) {
    var w = JSONWriter()
    bytes.withUnsafeBufferPointer { w.string(utf8: $0) }
    return (w.text, w.bytes)
}

/// Parses `text` as one JSON value (fragments allowed), as another program would.
private func parsed(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

private let replacement = "\u{FFFD}"

/// Filter with `--filter GestureCoreTests.JSONWriterTests`.
@Suite("JSONWriter")
struct JSONWriterTests {}

// MARK: - Strings

extension JSONWriterTests {
    @Suite("JSONWriter.string")
    struct Strings {
        @Test func plainTextIsQuoted() {
            #expect(stringJSON("hello world") == #""hello world""#)
            #expect(stringJSON("") == #""""#)
        }

        @Test func quoteAndBackslashAreEscaped() {
            #expect(stringJSON(#"say "hi""#) == #""say \"hi\"""#)
            #expect(stringJSON(#"C:\dir\"#) == #""C:\\dir\\""#)
        }

        @Test func slashIsNotEscaped() {
            #expect(stringJSON("a/b") == #""a/b""#)
        }

        @Test func commonControlCharactersUseShortEscapes() {
            #expect(stringJSON("a\nb") == #""a\nb""#)
            #expect(stringJSON("a\tb") == #""a\tb""#)
            #expect(stringJSON("a\rb") == #""a\rb""#)
            #expect(stringJSON("a\u{08}b") == #""a\bb""#)
            #expect(stringJSON("a\u{0C}b") == #""a\fb""#)
        }

        @Test func otherControlCharactersUseUnicodeEscapes() {
            #expect(stringJSON("\u{01}") == #""\u0001""#)
            #expect(stringJSON("\u{00}") == #""\u0000""#)
            #expect(stringJSON("\u{0B}") == #""\u000b""#)
            #expect(stringJSON("\u{1B}[0m") == #""\u001b[0m""#)
            #expect(stringJSON("\u{1F}") == #""\u001f""#)
        }

        @Test func deleteIsEscaped() {
            #expect(stringJSON("a\u{7F}b") == #""a\u007fb""#)
        }

        @Test func printableASCIIPassesThrough() {
            let printable = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
                .replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: "")
            #expect(stringJSON(printable) == "\"" + printable + "\"")
        }

        @Test(arguments: ["é", "日本", "😀", "naïve café ☃ 𝄞", "\u{10FFFF}", "\u{0800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}"])
        func validMultibyteUTF8PassesThroughUnchanged(_ s: String) {
            let out = stringJSON(utf8: Array(s.utf8))
            #expect(out.bytes == [0x22] + Array(s.utf8) + [0x22])
            #expect(out.text == "\"\(s)\"")
        }

        @Test func loneInvalidByteBecomesReplacementCharacter() {
            #expect(stringJSON(utf8: [0xFF]).text == "\"\(replacement)\"")
            #expect(stringJSON(utf8: [0x61, 0xFF, 0x62]).text == "\"a\(replacement)b\"")
            #expect(stringJSON(utf8: [0xFE]).text == "\"\(replacement)\"")
            #expect(stringJSON(utf8: [0x80]).text == "\"\(replacement)\"")
        }

        @Test func replacementIsWrittenAsUTF8Bytes() {
            #expect(stringJSON(utf8: [0xFF]).bytes == [0x22, 0xEF, 0xBF, 0xBD, 0x22])
        }

        // Each maximal subpart of an invalid sequence (the longest prefix that
        // could still have become valid) gives one U+FFFD, as Unicode recommends
        // and Swift's own decoder does.

        @Test func truncatedSequenceBecomesOneReplacementCharacter() {
            #expect(stringJSON(utf8: [0xE2, 0x82]).text == "\"\(replacement)\"")
            #expect(stringJSON(utf8: [0xE2, 0x82, 0x41]).text == "\"\(replacement)A\"")
            #expect(stringJSON(utf8: [0xF0, 0x9F, 0x98]).text == "\"\(replacement)\"")
            #expect(stringJSON(utf8: [0xC3]).text == "\"\(replacement)\"")
        }

        @Test func replacementMatchesSwiftsDecoderOnRandomBytes() {
            var state: UInt64 = 0x1234_5678
            for _ in 0..<2000 {
                var bytes: [UInt8] = []
                for _ in 0..<12 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let b = UInt8(truncatingIfNeeded: state >> 56)
                    // Only bytes that need no escaping, so the JSON body is the text itself.
                    bytes.append(b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F ? 0x41 : b)
                }
                let json = stringJSON(utf8: bytes).text
                #expect(json == "\"" + String(decoding: bytes, as: UTF8.self) + "\"", "\(bytes)")
            }
        }

        @Test func overlongEncodingBecomesReplacementCharacters() {
            #expect(stringJSON(utf8: [0xC0, 0xAF]).text == "\"\(replacement)\(replacement)\"")
            #expect(stringJSON(utf8: [0xC1, 0xBF]).text == "\"\(replacement)\(replacement)\"")
            #expect(stringJSON(utf8: [0xE0, 0x80, 0xAF]).text == "\"\(replacement)\(replacement)\(replacement)\"")
            #expect(stringJSON(utf8: [0xF0, 0x80, 0x80, 0xAF]).text == "\"" + String(repeating: replacement, count: 4) + "\"")
        }

        @Test func surrogateBecomesReplacementCharacters() {
            #expect(stringJSON(utf8: [0xED, 0xA0, 0x80]).text == "\"\(replacement)\(replacement)\(replacement)\"")
            #expect(stringJSON(utf8: [0xED, 0xBF, 0xBF]).text == "\"\(replacement)\(replacement)\(replacement)\"")
        }

        @Test func codePointsBeyondUnicodeBecomeReplacementCharacters() {
            #expect(stringJSON(utf8: [0xF4, 0x90, 0x80, 0x80]).text == "\"" + String(repeating: replacement, count: 4) + "\"")
            #expect(stringJSON(utf8: [0xF5, 0x80, 0x80, 0x80]).text == "\"" + String(repeating: replacement, count: 4) + "\"")
        }

        @Test func validTextAroundInvalidBytesIsKept() {
            let bytes: [UInt8] = Array("日".utf8) + [0xFF] + Array("é\n".utf8) + [0xED, 0xA0, 0x80] + Array("😀".utf8)
            let out = stringJSON(utf8: bytes)
            #expect(out.text == "\"日\(replacement)é\\n\(replacement)\(replacement)\(replacement)😀\"")
        }

        @Test func invalidInputStillGivesValidJSON() throws {
            let inputs: [[UInt8]] = [[0xFF], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x22, 0xFF, 0x5C, 0x00]]
            for input in inputs {
                let text = stringJSON(utf8: input).text
                let value = try parsed(text) as? String
                #expect(value != nil, "\(input)")
                #expect(value?.contains(replacement) == true, "\(input)")
            }
        }

        @Test(arguments: [
            "", "hello", #"quote " and backslash \"#, "line\nbreak\ttab\rreturn", "\u{08}\u{0C}",
            "nul\u{00}soh\u{01}us\u{1F}del\u{7F}", "é 日本 😀 𝄞", "\u{2028}\u{2029}", "</script>",
        ])
        func outputDecodesBackToTheSameString(_ s: String) throws {
            let value = try parsed(stringJSON(s))
            #expect(value as? String == s)
        }

        @Test func byteOrderMarkPassesThrough() {
            // (Not checked with JSONSerialization, which drops U+FEFF while decoding.)
            #expect(stringJSON(utf8: [0xEF, 0xBB, 0xBF, 0x61]).bytes == [0x22, 0xEF, 0xBB, 0xBF, 0x61, 0x22])
        }

        @Test func everyASCIICharacterRoundTrips() throws {
            let all = String(String.UnicodeScalarView((0...0x7F).compactMap { Unicode.Scalar(UInt32($0)) }))
            let text = stringJSON(all)
            #expect(text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F })
            #expect(try parsed(text) as? String == all)
        }

        @Test func writerAppendsToWhatIsAlreadyThere() throws {
            let text = written { w in
                w.raw("{")
                w.string("name")
                w.byte(0x3A)
                w.string("a\"b")
                w.raw(",\"t\":")
                w.time(0.30000000000000004)
                w.raw(",\"n\":")
                w.number(.nan)
                w.byte(0x7D)
            }
            #expect(text == #"{"name":"a\"b","t":0.3,"n":null}"#)
            let object = try #require(try parsed(text) as? [String: Any])
            #expect(object["name"] as? String == "a\"b")
            #expect((object["t"] as? NSNumber)?.doubleValue == 0.3)
            #expect(object["n"] is NSNull)
        }
    }

}

// MARK: - Numbers

extension JSONWriterTests {
    @Suite("JSONWriter.number, time and integer")
    struct Numbers {
        private func number(_ v: Double) -> String { written { $0.number(v) } }
        private func time(_ t: Double) -> String { written { $0.time(t) } }
        private func integer(_ v: Int64) -> String { written { $0.integer(v) } }

        @Test func integralNumbersHaveNoFraction() {
            #expect(number(0) == "0")
            #expect(number(1) == "1")
            #expect(number(-3) == "-3")
            #expect(number(250) == "250")
            #expect(number(-0.0) == "0")
            #expect(number(1e14) == "100000000000000")
            #expect(number(999_999_999_999_999) == "999999999999999")
        }

        @Test func fractionsUseTheShortestForm() {
            #expect(number(0.5) == "0.5")
            #expect(number(-0.25) == "-0.25")
            #expect(number(123.456) == "123.456")
            #expect(number(0.1 + 0.2) == "0.30000000000000004")
        }

        @Test func nonFiniteNumbersAreNull() {
            #expect(number(.nan) == "null")
            #expect(number(.infinity) == "null")
            #expect(number(-.infinity) == "null")
        }

        @Test(arguments: [0.5, -0.25, 0.1 + 0.2, 1e-7, .leastNonzeroMagnitude, 1e15, 1e16, -1.5e300, .greatestFiniteMagnitude, 123.456, 2.5e-5])
        func numbersAreValidJSONThatReadsBackTheSame(_ v: Double) throws {
            let text = number(v)
            // Valid JSON (JSONSerialization's own rounding is not exact, so the
            // value is compared through Double's correctly rounded parser).
            #expect(try parsed(text) is NSNumber, "\(text)")
            #expect(Double(text) == v, "\(text)")
        }

        @Test func timeRoundsToTheMicrosecondWithoutTrailingZeros() {
            #expect(time(0.30000000000000004) == "0.3")
            #expect(time(2.0) == "2")
            #expect(time(0) == "0")
            #expect(time(0.1) == "0.1")
            #expect(time(12.05) == "12.05")
            #expect(time(0.00012) == "0.00012")
            #expect(time(0.000001) == "0.000001")
            #expect(time(3.141592653589793) == "3.141593")
        }

        @Test func timeRoundsToTheNearestMicrosecond() {
            // 1.2345675 * 1e6 is 1234567.5000000002 in binary floating point.
            #expect(time(1.2345675) == "1.234568")
            #expect(time(-1.2345675) == "-1.234568")
            #expect(time(1.2345674) == "1.234567")
        }

        @Test func timeRoundsExactHalvesAwayFromZero() {
            #expect(0.0000025 * 1_000_000 == 2.5)
            #expect(time(0.0000025) == "0.000003")
            #expect(time(2.0000025) == "2.000003")
            #expect(time(-0.0000015) == "-0.000002")
        }

        @Test func timeBelowHalfAMicrosecondIsZero() {
            #expect(time(0.0000004) == "0")
            #expect(time(1e-9) == "0")
        }

        @Test func timeCarriesIntoTheWholeSeconds() {
            #expect(time(0.9999996) == "1")
            #expect(time(41.9999999) == "42")
        }

        @Test func negativeTimes() {
            #expect(time(-0.5) == "-0.5")
            #expect(time(-1.25) == "-1.25")
            #expect(time(-3) == "-3")
            #expect(time(-0.000001) == "-0.000001")
        }

        @Test func tinyNegativeTimeIsZeroWithoutSign() {
            #expect(time(-0.0000001) == "0")
            #expect(time(-0.0) == "0")
        }

        @Test func nonFiniteTimeIsNull() {
            #expect(time(.nan) == "null")
            #expect(time(.infinity) == "null")
            #expect(time(-.infinity) == "null")
        }

        @Test func largeTimes() {
            #expect(time(1e10) == "10000000000")
            #expect(time(1_700_000_000.123456) == "1700000000.123456")
            // Past 9e15 microseconds the time is written as a plain number.
            #expect(time(1e10 + 0.5) == "10000000000.5")
        }

        @Test(arguments: [0.0, 0.3, 2.0, 1.2345675, -0.5, 1e10 + 0.5, 1_700_000_000.123456, 0.000001])
        func timesAreValidJSON(_ t: Double) throws {
            let value = try parsed(time(t)) as? NSNumber
            let v = try #require(value?.doubleValue)
            #expect(abs(v - t) <= 0.0000005 + abs(t) * 1e-15)
        }

        @Test func integers() {
            #expect(integer(0) == "0")
            #expect(integer(7) == "7")
            #expect(integer(-1) == "-1")
            #expect(integer(-4096) == "-4096")
            #expect(integer(1_000_000) == "1000000")
            #expect(integer(Int64.max) == "9223372036854775807")
            #expect(integer(Int64.min) == "-9223372036854775808")
        }
    }
}

@Suite("A JSON writer kept between lines")
struct JSONWriterReuseTests {
    @Test("reset and reused, it writes what a new writer writes, line after line")
    func reusedWriterWritesTheSame() {
        var kept = JSONWriter(capacity: 0)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<2000 {
            let bytes = (0..<Int(next() % 40)).map { _ in UInt8(truncatingIfNeeded: next()) }
            let number = Int64(bitPattern: next() << 31 ^ next()) >> Int64(next() % 64)
            var fresh = JSONWriter()
            for w in [0, 1] {
                var writer = w == 0 ? fresh : kept
                writer.raw("{\"a\":")
                bytes.withUnsafeBufferPointer { writer.string(utf8: $0) }
                writer.raw(",\"n\":")
                writer.integer(number)
                writer.byte(0x7D)
                if w == 0 { fresh = writer } else { kept = writer }
            }
            #expect(kept.bytes == fresh.bytes)
            #expect(fresh.text.hasSuffix(",\"n\":\(number)}"))
            kept.reset()
            #expect(kept.bytes.isEmpty)
        }
    }
}
