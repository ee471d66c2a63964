import GestureCore
@testable import GestureInput
import Testing

// MARK: - Helpers

/// Decodes `text` as one NDJSON source named "in.ndjson", fed in chunks of
/// `chunk` bytes (or all at once), then finished.
private func decode(
    _ text: String, chunk: Int? = nil, resolution: (x: Double, y: Double)? = nil
) -> (frames: [TouchFrame], diagnostics: [String], errors: Int) {
    decode(bytes: Array(text.utf8), chunk: chunk, resolution: resolution)
}

private func decode(
    bytes: [UInt8], chunk: Int? = nil, resolution: (x: Double, y: Double)? = nil
) -> (frames: [TouchFrame], diagnostics: [String], errors: Int) {
    var decoder = NDJSONDecoder(source: "in.ndjson", resolution: resolution)
    let frames = drive(&decoder, bytes, chunk: chunk)
    return (frames, decoder.diagnostics.map(\.description), decoder.errorCount)
}

/// Joins lines with "\n" and ends with a newline.
private func lines(_ l: String...) -> String {
    l.joined(separator: "\n") + "\n"
}

/// CSS pixels per millimetre, the fallback resolution.
private let px = 96.0 / 25.4

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

/// Phases of the touch with `id` in each frame (nil when the frame lacks it).
private func phases(_ frames: [TouchFrame], id: Int) -> [TouchPhase?] {
    frames.map { frame in frame.touches.first { $0.id == id }?.phase }
}

/// Checks that `bad`, as line 2 between valid events, is reported as
/// `in.ndjson:2: message`, counted as one error and skipped, and that the
/// events on lines 1, 3 and 4 still make their frames.
private func expectSkipped(
    _ bad: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let r = decode(lines(
        #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
        bad,
        #"{"t": 0.1, "ev": "move", "id": 1, "x": 96, "y": 192}"#,
        #"{"t": 0.2, "ev": "up", "id": 1}"#
    ))
    #expect(r.diagnostics == ["in.ndjson:2: \(message)"], sourceLocation: sourceLocation)
    #expect(r.errors == 1, sourceLocation: sourceLocation)
    #expect(r.frames.map(\.time) == [0.0, 0.1, 0.2], sourceLocation: sourceLocation)
    #expect(phases(r.frames, id: 1) == [.began, .moved, .ended], sourceLocation: sourceLocation)
    if r.frames.count == 3 {
        #expect(r.frames[0].touches == [Touch(id: 1, position: Vector(0, 0), phase: .began)], sourceLocation: sourceLocation)
        let p = r.frames[1].touches.first?.position ?? Vector(-1, -1)
        #expect(close(p.x, 25.4) && close(p.y, 50.8), "moved to \(p)", sourceLocation: sourceLocation)
    }
}

private let notAnObject =
    #"not a JSON object; each line must be one object such as {"t": 0.0, "ev": "down", "id": 1, "x": 10, "y": 20}"#

// MARK: - Malformed lines

/// Filter with `--filter GestureInputTests.NDJSONDecoderTests`.
@Suite("NDJSONDecoder")
struct NDJSONDecoderTests {}

extension NDJSONDecoderTests {
    @Suite("NDJSONDecoder: malformed lines")
    struct MalformedLines {
        @Test func plainTextIsNotAnObject() {
            expectSkipped("hello", notAnObject)
        }

        @Test func arrayIsNotAnObject() {
            expectSkipped("[1,2]", notAnObject)
        }

        @Test func bareNumberIsNotAnObject() {
            expectSkipped("42", notAnObject)
        }

        @Test func truncatedObject() {
            expectSkipped(#"{"t": 0.1, "ev": "down""#, "invalid JSON: expected ',' or '}' at column 24")
        }

        @Test func truncatedInsideString() {
            expectSkipped(#"{"t": 0.1, "ev": "do"#, "invalid JSON: unterminated string at column 21")
        }

        @Test func trailingGarbageAfterObject() {
            expectSkipped(#"{"t": 0.1, "ev": "sync"} x"#, "invalid JSON: unexpected text after the object at column 26")
        }

        @Test func secondObjectOnTheSameLine() {
            expectSkipped(#"{"t": 0.1, "ev": "sync"}{}"#, "invalid JSON: unexpected text after the object at column 25")
        }

        @Test func missingTime() {
            expectSkipped(#"{"ev": "move", "id": 1, "x": 5}"#, #"missing "t" (seconds); every event needs a time"#)
        }

        @Test func timeIsAString() {
            expectSkipped(#"{"t": "0.05", "ev": "move", "id": 1, "x": 5}"#, #""t" must be a number"#)
        }

        @Test func timeIsNull() {
            expectSkipped(#"{"t": null, "ev": "move", "id": 1, "x": 5}"#, #""t" must be a number"#)
        }

        @Test func timeOverflowsToInfinity() {
            expectSkipped(#"{"t": 1e999, "ev": "sync"}"#, #""t" must be a finite number of seconds"#)
        }

        @Test func missingEv() {
            expectSkipped(#"{"t": 0.05, "id": 1, "x": 5}"#, #"missing "ev"; use one of down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel"#)
        }

        @Test func unknownEvValue() {
            expectSkipped(
                #"{"t": 0.05, "ev": "jump", "id": 1}"#,
                #"unknown "ev" value "jump"; use one of down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel"#
            )
        }

        @Test func evIsCaseSensitive() {
            expectSkipped(
                #"{"t": 0.05, "ev": "Move", "id": 1, "x": 5}"#,
                #"unknown "ev" value "Move"; use one of down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel"#
            )
        }

        @Test func evIsNotAString() {
            expectSkipped(#"{"t": 0.05, "ev": 3, "id": 1}"#, #""ev" must be a string: down, move, up, cancel, sync or click"#)
        }

        @Test func evIsAnObject() {
            expectSkipped(#"{"t": 0.05, "ev": {"kind": "move"}, "id": 1}"#, #""ev" must be a string: down, move, up, cancel, sync or click"#)
        }

        @Test func missingIdOnDown() {
            expectSkipped(
                #"{"t": 0.05, "ev": "down", "x": 1, "y": 2}"#,
                #"missing "id" on a "down" event; every touch event needs the touch's integer id"#
            )
        }

        @Test func missingIdOnUp() {
            expectSkipped(
                #"{"t": 0.05, "ev": "up"}"#,
                #"missing "id" on a "up" event; every touch event needs the touch's integer id"#
            )
        }

        @Test func nonIntegerId() {
            expectSkipped(#"{"t": 0.05, "ev": "move", "id": 1.5, "x": 3}"#, #""id" must be an integer, not 1.5"#)
        }

        @Test func idIsAString() {
            expectSkipped(#"{"t": 0.05, "ev": "move", "id": "1", "x": 3}"#, #""id" must be a number"#)
        }

        @Test func downWithoutY() {
            expectSkipped(#"{"t": 0.05, "ev": "down", "id": 2, "x": 1}"#, #""down" needs both "x" and "y""#)
        }

        @Test func downWithoutX() {
            expectSkipped(#"{"t": 0.05, "ev": "down", "id": 2, "y": 1}"#, #""down" needs both "x" and "y""#)
        }

        @Test func downWithNullX() {
            expectSkipped(#"{"t": 0.05, "ev": "down", "id": 2, "x": null, "y": 1}"#, #""down" needs both "x" and "y""#)
        }

        @Test func xIsAString() {
            expectSkipped(#"{"t": 0.05, "ev": "move", "id": 1, "x": "5"}"#, #""x" must be a number"#)
        }

        @Test func yIsABoolean() {
            expectSkipped(#"{"t": 0.05, "ev": "move", "id": 1, "y": true}"#, #""y" must be a number"#)
        }

        @Test func xOverflowsToInfinity() {
            expectSkipped(#"{"t": 0.05, "ev": "move", "id": 1, "x": -1e400}"#, #""x" must be a finite number"#)
        }

        @Test func numberWithLeadingZero() {
            expectSkipped(#"{"t": 01, "ev": "sync"}"#, "invalid JSON: leading zero in number at column 8")
        }

        @Test func numberEndingInDecimalPoint() {
            expectSkipped(#"{"t": 1., "ev": "sync"}"#, "invalid JSON: expected a digit after the decimal point at column 9")
        }

        @Test func loneMinusSign() {
            expectSkipped(#"{"t": -, "ev": "sync"}"#, "invalid JSON: expected a number at column 8")
        }

        @Test func exponentWithoutDigits() {
            expectSkipped(#"{"t": 1e, "ev": "sync"}"#, "invalid JSON: expected exponent digits at column 9")
        }

        @Test func numberWithLeadingPlus() {
            expectSkipped(#"{"t": +1, "ev": "sync"}"#, "invalid JSON: expected a number at column 7")
        }

        @Test func invalidNumberInAnUnknownKey() {
            expectSkipped(#"{"t": 0.05, "ev": "sync", "p": 01}"#, "invalid JSON: leading zero in number at column 33")
        }

        @Test func badStringEscape() {
            expectSkipped(#"{"t": 0.05, "ev": "sync", "note": "a\qb"}"#, "invalid JSON: bad escape in string at column 38")
        }

        @Test func badUnicodeEscape() {
            expectSkipped(#"{"t": 0.05, "ev": "sync", "note": "\u12G4"}"#, #"invalid JSON: bad \u escape at column 40"#)
        }

        @Test func rawControlCharacterInString() {
            expectSkipped("{\"t\": 0.05, \"ev\": \"sync\", \"note\": \"a\u{01}b\"}", "invalid JSON: control character in string at column 37")
        }

        @Test func missingColon() {
            expectSkipped(#"{"t" 0.05, "ev": "sync"}"#, "invalid JSON: expected ':' after a key at column 6")
        }

        @Test func unquotedKey() {
            expectSkipped(#"{t: 0.05, "ev": "sync"}"#, "invalid JSON: expected a string at column 2")
        }

        @Test func unknownLiteral() {
            expectSkipped(#"{"t": 0.05, "ev": "sync", "ok": tru}"#, "invalid JSON: unknown literal at column 33")
        }

        @Test func lineOverOneMebibyteIsReportedAndSkipped() {
            let long = #"{"t": 0.05, "ev": "sync", "pad": ""# + String(repeating: "a", count: NDJSONDecoder.maxLineLength) + #""}"#
            let text = lines(
                #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                long,
                #"{"t": 0.1, "ev": "move", "id": 1, "x": 96, "y": 192}"#,
                "hello"
            )
            // As a reader fed from a file or pipe sees it: in 4 KiB reads.
            let r = decode(text, chunk: 4096)
            #expect(r.diagnostics == [
                "in.ndjson:2: line longer than 1048576 bytes; skipped",
                "in.ndjson:4: \(notAnObject)",
            ])
            #expect(r.errors == 2)
            #expect(r.frames.map(\.time) == [0.0, 0.1, 0.1])
            #expect(phases(r.frames, id: 1) == [.began, .moved, .cancelled])
        }

        @Test func overlongLastLineWithoutNewlineIsReported() {
            let text = #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n"
                + String(repeating: " ", count: NDJSONDecoder.maxLineLength + 1)
            let r = decode(text, chunk: 4096)
            #expect(r.diagnostics == ["in.ndjson:2: line longer than 1048576 bytes; skipped"])
            #expect(r.errors == 1)
            #expect(phases(r.frames, id: 1) == [.began, .cancelled])
        }

        @Test func lineOfExactlyTheMaximumLengthIsRead() {
            let head = #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0, "pad": ""#
            let line = head + String(repeating: "a", count: NDJSONDecoder.maxLineLength - head.utf8.count - 2) + #""}"#
            #expect(line.utf8.count == NDJSONDecoder.maxLineLength)
            let r = decode(line + "\n", chunk: 4096)
            #expect(r.diagnostics == [])
            #expect(phases(r.frames, id: 1) == [.began, .cancelled])
        }

        /// BUG: a line over the limit that arrives whole inside one `feed` call is
        /// parsed like any other line instead of being reported and skipped, so the
        /// result depends on how the input was chunked.
        @Test func lineOverOneMebibyteInASingleFeedIsReportedAndSkipped() {
            let long = #"{"t": 0.05, "ev": "sync", "pad": ""# + String(repeating: "a", count: NDJSONDecoder.maxLineLength) + #""}"#
            let text = lines(#"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#, long)
            let r = decode(text)
            #expect(r.diagnostics == ["in.ndjson:2: line longer than 1048576 bytes; skipped"])
            #expect(r.errors == 1)
        }

        @Test func blankLinesAreSkippedSilently() {
            let r = decode(
                "\n" + "   \n" + "\t\r\n" + #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n\n"
                    + #"{"t": 0.1, "ev": "up", "id": 1}"# + "\n\n" + "oops\n"
            )
            #expect(r.diagnostics == ["in.ndjson:8: \(notAnObject)"])
            #expect(r.errors == 1)
            #expect(r.frames.map(\.time) == [0.0, 0.1])
            #expect(phases(r.frames, id: 1) == [.began, .ended])
        }

        @Test func everyBadLineIsReportedWithItsOwnLineNumber() {
            let r = decode(lines(
                "x",
                #"{"t": 0.0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                "y",
                #"{"t": 0.1}"#
            ))
            #expect(r.diagnostics == [
                "in.ndjson:1: \(notAnObject)",
                "in.ndjson:3: \(notAnObject)",
                #"in.ndjson:4: missing "ev"; use one of down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel"#,
            ])
            #expect(r.errors == 3)
            #expect(phases(r.frames, id: 1) == [.began, .cancelled])
        }
    }

}

// MARK: - Units

extension NDJSONDecoderTests {
    @Suite("NDJSONDecoder: units and the device header")
    struct Units {
        private let header =
            #"{"device": {"name": "P", "x": {"min": 0, "max": 4095, "resolution": 16}, "y": {"min": 0, "max": 2303, "resolution": 16}}}"#

        @Test func deviceHeaderResolutionConvertsToMillimetres() throws {
            let r = decode(lines(header, #"{"t": 0, "ev": "down", "id": 1, "x": 160, "y": 320}"#))
            #expect(r.diagnostics == [])
            #expect(r.errors == 0)
            let frame = try #require(r.frames.first)
            #expect(frame.touches == [Touch(id: 1, position: Vector(10, 20), phase: .began)])
            #expect(frame.surface == Surface(width: 255.9375, height: 143.9375))
        }

        @Test func deviceHeaderIsRecorded() {
            var decoder = NDJSONDecoder(source: "in.ndjson")
            let text = Array((header + "\n").utf8)
            text.withUnsafeBytes { decoder.feed($0) { _ in } }
            #expect(decoder.device == DeviceInfo(
                name: "P",
                x: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
                y: AxisInfo(minimum: 0, maximum: 2303, resolution: 16)
            ))
            #expect(decoder.converter.origin == .device)
            #expect(decoder.diagnostics == [])
        }

        @Test func withoutHeaderCoordinatesAreCSSPixels() throws {
            let r = decode(lines(#"{"t": 0, "ev": "down", "id": 1, "x": 96, "y": 48}"#))
            let frame = try #require(r.frames.first)
            #expect(frame.surface == nil)
            let p = try #require(frame.touches.first).position
            #expect(close(p.x, 25.4))
            #expect(close(p.y, 12.7))
            #expect(close(p.x, 96 / px))
        }

        @Test func resolutionOverrideWinsOverTheHeader() throws {
            let r = decode(
                lines(header, #"{"t": 0, "ev": "down", "id": 1, "x": 160, "y": 320}"#),
                resolution: (x: 10, y: 20)
            )
            let frame = try #require(r.frames.first)
            let p = try #require(frame.touches.first).position
            #expect(close(p.x, 16))
            #expect(close(p.y, 16))
            let surface = try #require(frame.surface)
            #expect(close(surface.width, 409.5))
            #expect(close(surface.height, 115.15))
        }

        @Test func resolutionOverrideWithoutHeader() throws {
            let r = decode(lines(#"{"t": 0, "ev": "down", "id": 1, "x": 30, "y": 30}"#), resolution: (x: 10, y: 5))
            let frame = try #require(r.frames.first)
            #expect(frame.touches.first?.position == Vector(3, 6))
            #expect(frame.surface == nil)
        }

        @Test func axisMinimumIsSubtracted() throws {
            let r = decode(lines(
                #"{"device": {"x": {"min": 100, "max": 1100, "resolution": 10}, "y": {"min": -200, "max": 300, "resolution": 5}}}"#,
                #"{"t": 0, "ev": "down", "id": 1, "x": 150, "y": -100}"#
            ))
            #expect(r.diagnostics == [])
            let frame = try #require(r.frames.first)
            #expect(frame.touches.first?.position == Vector(5, 20))
            #expect(frame.surface == Surface(width: 100, height: 100))
        }

        @Test func headerWithoutResolutionFallsBackToCSSPixelsButKeepsMinimum() throws {
            let r = decode(lines(
                #"{"device": {"x": {"min": 96, "max": 1056}, "y": {"min": 0, "max": 960, "resolution": 0}}}"#,
                #"{"t": 0, "ev": "down", "id": 1, "x": 192, "y": 96}"#
            ))
            let frame = try #require(r.frames.first)
            let p = try #require(frame.touches.first).position
            #expect(close(p.x, 25.4))
            #expect(close(p.y, 25.4))
            let surface = try #require(frame.surface)
            #expect(close(surface.width, 254))
            #expect(close(surface.height, 254))
        }

        @Test func moveWithOnlyXKeepsThePreviousY() throws {
            let r = decode(lines(
                header,
                #"{"t": 0, "ev": "down", "id": 1, "x": 160, "y": 320}"#,
                #"{"t": 0.1, "ev": "move", "id": 1, "x": 320}"#,
                #"{"t": 0.2, "ev": "move", "id": 1, "y": 480}"#,
                #"{"t": 0.3, "ev": "move", "id": 1, "x": null, "y": 160}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.count == 5)
            #expect(r.frames.map { $0.touches.first?.position } == [
                Vector(10, 20), Vector(20, 20), Vector(20, 30), Vector(20, 10), Vector(20, 10),
            ])
        }

        @Test func unknownKeysAreIgnored() throws {
            let r = decode(lines(
                #"{"pressure": 0.5, "t": 0, "meta": {"a": [1, {"b": null}, "c\"\\\/\b\f\n\r\t\u00e9"], "d": {}}, "ev": "down", "#
                    + #""tags": [], "id": 7, "x": 96, "major": -1.5e3, "y": 96, "ok": true, "no": false, "note": "日本 😀"}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.errors == 0)
            let frame = try #require(r.frames.first)
            #expect(frame.touches.count == 1)
            #expect(frame.touches.first?.id == 7)
            #expect(frame.touches.first?.phase == .began)
            #expect(close(frame.touches.first?.position.x ?? 0, 25.4))
        }

        @Test func numbersInEveryJSONForm() throws {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 1.5e-1, "ev": "move", "id": 1, "x": 9.6E1, "y": -0.0}"#,
                #"{"t": 2E+0, "ev": "move", "id": 1, "x": 1920e-1, "y": 0.96e2}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.map(\.time) == [0, 0.15, 2, 2])
            let p1 = try #require(r.frames.dropFirst().first?.touches.first).position
            #expect(close(p1.x, 25.4) && p1.y == 0)
            let p2 = try #require(r.frames.dropFirst(2).first?.touches.first).position
            #expect(close(p2.x, 50.8) && close(p2.y, 25.4))
        }

        @Test func longNumbersAreRoundedCorrectly() {
            let r = decode(lines(
                #"{"t": 0.12345678901234567890123, "ev": "down", "id": 1, "x": 12345.0123456789012345678901234567890, "y": 1.00000000000000000000001}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.first?.time == 0.12345678901234568)
            #expect(r.frames.first?.touches.first?.position == Vector(12345.012345678901 * (1 / px), 1 * (1 / px)))
        }

        /// BUG: JSONScanner.readNumber counts zeros after the decimal point towards
        /// its 19 significant digits, then drops the digits that follow.
        @Test func numbersWithManyLeadingFractionZerosAreReadExactly() {
            let r = decode(lines(
                #"{"t": 0.0001234567890123456789, "ev": "down", "id": 1, "x": 0.0000000000000000000000001e25, "y": 0}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.first?.time == 0.00012345678901234567)
            #expect(r.frames.first?.touches.first?.position.x == 1 / px)
        }

        @Test func negativeIdsAndLargeIntegerIdsAreAccepted() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": -3, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "down", "id": 4e3, "x": 0, "y": 0}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.first?.touches.map(\.id) == [-3, 4000])
        }
    }

}

// MARK: - Framing

extension NDJSONDecoderTests {
    @Suite("NDJSONDecoder: framing")
    struct Framing {
        @Test func eventsWithTheSameTimeFormOneFrame() throws {
            let r = decode(lines(
                #"{"t": 0.5, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.5, "ev": "down", "id": 2, "x": 96, "y": 0}"#,
                #"{"t": 0.5, "ev": "down", "id": 3, "x": 192, "y": 0}"#
            ))
            #expect(r.frames.count == 2)
            let first = try #require(r.frames.first)
            #expect(first.time == 0.5)
            #expect(first.touches.map(\.id) == [1, 2, 3])
            #expect(first.touches.allSatisfy { $0.phase == .began })
            #expect(first.activeCount == 3)
        }

        @Test func syncClosesAFrame() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "sync"}"#,
                #"{"t": 0, "ev": "down", "id": 2, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "sync"}"#,
                #"{"t": 0, "ev": "sync"}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.map(\.time) == [0, 0, 0])
            #expect(r.frames.map { $0.touches.map(\.id) } == [[1], [1, 2], [1, 2]])
            #expect(phases(r.frames, id: 1) == [.began, .stationary, .cancelled])
            #expect(phases(r.frames, id: 2) == [nil, .began, .cancelled])
        }

        @Test func aChangeOfTimeClosesAFrame() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.01, "ev": "move", "id": 1, "x": 1, "y": 0}"#,
                #"{"t": 0.02, "ev": "move", "id": 1, "x": 2, "y": 0}"#,
                #"{"t": 0.02, "ev": "up", "id": 1}"#
            ))
            #expect(r.frames.map(\.time) == [0, 0.01, 0.02])
            #expect(phases(r.frames, id: 1) == [.began, .moved, .ended])
        }

        @Test func untouchedContactsAreStationary() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "down", "id": 2, "x": 96, "y": 96}"#,
                #"{"t": 0.1, "ev": "move", "id": 2, "x": 192}"#,
                #"{"t": 0.2, "ev": "move", "id": 1, "x": 96}"#
            ))
            #expect(phases(r.frames, id: 1) == [.began, .stationary, .moved, .cancelled])
            #expect(phases(r.frames, id: 2) == [.began, .moved, .stationary, .cancelled])
            // A stationary touch keeps its position.
            #expect(r.frames[1].touches.first { $0.id == 1 }?.position == Vector(0, 0))
        }

        @Test func upEndsATouchWhichIsGoneFromTheNextFrame() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "down", "id": 2, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "up", "id": 1}"#,
                #"{"t": 0.2, "ev": "move", "id": 2, "x": 96}"#,
                #"{"t": 0.3, "ev": "cancel", "id": 2}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.map { $0.touches.map(\.id) } == [[1, 2], [1, 2], [2], [2]])
            #expect(phases(r.frames, id: 1) == [.began, .ended, nil, nil])
            #expect(phases(r.frames, id: 2) == [.began, .stationary, .moved, .cancelled])
            #expect(r.frames.map(\.activeCount) == [2, 1, 1, 0])
        }

        @Test func downAndUpAtTheSameTimeShowTheTouchDownFirst() {
            let r = decode(lines(
                #"{"t": 0.25, "ev": "down", "id": 1, "x": 96, "y": 96}"#,
                #"{"t": 0.25, "ev": "up", "id": 1}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.map(\.time) == [0.25, 0.25])
            #expect(phases(r.frames, id: 1) == [.began, .ended])
        }

        @Test func anIdCanBeReusedAfterUp() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "up", "id": 1}"#,
                #"{"t": 0.2, "ev": "down", "id": 1, "x": 96, "y": 0}"#,
                #"{"t": 0.3, "ev": "up", "id": 1}"#
            ))
            #expect(r.diagnostics == [])
            #expect(phases(r.frames, id: 1) == [.began, .ended, .began, .ended])
        }

        @Test func touchStillDownAtEndOfInputIsCancelled() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "down", "id": 2, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "up", "id": 2}"#
            ))
            #expect(r.diagnostics == [])
            #expect(r.frames.map(\.time) == [0, 0.1, 0.1])
            #expect(phases(r.frames, id: 1) == [.began, .stationary, .cancelled])
            #expect(r.frames.last?.touches.map(\.id) == [1])
            #expect(r.frames.last?.activeCount == 0)
        }

        @Test func nothingDownAtEndOfInputAddsNoFrame() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "up", "id": 1}"#
            ))
            #expect(r.frames.count == 2)
        }

        @Test func emptyInputGivesNothing() {
            let r = decode("")
            #expect(r.frames.isEmpty)
            #expect(r.diagnostics.isEmpty)
            #expect(r.errors == 0)
        }

        @Test func lastLineWithoutNewlineIsRead() {
            let r = decode(#"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n" + #"{"t": 0.1, "ev": "up", "id": 1}"#)
            #expect(r.diagnostics == [])
            #expect(phases(r.frames, id: 1) == [.began, .ended])
        }

        @Test func badLastLineWithoutNewlineIsReported() {
            let r = decode(#"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\n" + #"{"t": 0.1"#)
            #expect(r.diagnostics == ["in.ndjson:2: invalid JSON: expected ',' or '}' at column 10"])
            #expect(r.errors == 1)
            #expect(phases(r.frames, id: 1) == [.began, .cancelled])
        }

        @Test func crlfLineEndingsAndBOMAreAccepted() {
            let text = "\u{FEFF}" + #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"# + "\r\n"
                + #"{"t": 0.1, "ev": "move", "id": 1, "x": 96, "y": 0}"# + "\r\n"
                + "\r\n"
                + #"{"t": 0.2, "ev": "up", "id": 1}"# + "\r\n"
            let r = decode(text)
            #expect(r.diagnostics == [])
            #expect(r.errors == 0)
            #expect(r.frames.map(\.time) == [0, 0.1, 0.2])
            #expect(phases(r.frames, id: 1) == [.began, .moved, .ended])
        }

        @Test func bomOnTheDeviceHeaderIsAccepted() throws {
            let text = "\u{FEFF}" + #"{"device": {"x": {"resolution": 16}, "y": {"resolution": 16}}}"# + "\r\n"
                + #"{"t": 0, "ev": "down", "id": 1, "x": 160, "y": 320}"# + "\r\n"
            let r = decode(text, chunk: 1)
            #expect(r.diagnostics == [])
            #expect(try #require(r.frames.first).touches.first?.position == Vector(10, 20))
        }

        /// `cat a.ndjson b.ndjson` where b begins with a BOM: the BOM starts a
        /// line in the middle, and is dropped there as at the start.
        @Test func bomAtTheStartOfALaterLineIsAccepted() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                "\u{FEFF}" + #"{"t": 0.1, "ev": "up", "id": 1}"#))
            #expect(r.diagnostics == [])
            #expect(phases(r.frames, id: 1) == [.began, .ended])
        }

        @Test func bomInsideALineIsAnError() {
            let r = decode(lines(#"{"t": 0, "ev": "sync"}"#, #"{"t": 0,"# + "\u{FEFF}" + #" "ev": "sync"}"#))
            #expect(r.diagnostics == ["in.ndjson:2: invalid JSON: expected a string at column 9"])
        }

        @Test func chunkSizeDoesNotChangeTheFrames() {
            let text = "\u{FEFF}"
                + #"{"device": {"name": "Pänel ☃", "x": {"min": 0, "max": 4095, "resolution": 16}, "y": {"min": 0, "max": 2303, "resolution": 16}}}"# + "\r\n"
                + #"{"t": 0.000, "ev": "down", "id": 3, "x": 812.5, "y": 400, "note": "日本 😀"}"# + "\n"
                + #"{"t": 0.000, "ev": "down", "id": 4, "x": 100, "y": 100}"# + "\n"
                + "\n"
                + #"{"t": 0.008, "ev": "move", "id": 3, "x": 790, "y": 401}"# + "\n"
                + "garbage line\n"
                + #"{"t": 0.008, "ev": "sync"}"# + "\n"
                + #"{"t": 0.010, "ev": "move", "id": 4, "y": 150}"# + "\n"
                + #"{"t": 0.120, "ev": "up", "id": 3}"# + "\n"
                + #"{"t": 0.125, "ev": "down", "id": 5, "x": 2000, "y": 2000}"# + "\n"
                + #"{"t": 0.125, "ev": "up", "id": 5}"# + "\n"
                + #"{"t": 0.130, "ev": "cancel", "id": 4}"# + "\n"
                + #"{"t": 0.140, "ev": "down", "id": 6, "x": 0, "y": 0}"#
            let whole = decode(text)
            #expect(whole.frames.count == 9)
            #expect(whole.diagnostics == ["in.ndjson:6: \(notAnObject)"])
            for size in [1, 7, 4096] {
                let chunked = decode(text, chunk: size)
                #expect(chunked.frames == whole.frames, "chunk size \(size)")
                #expect(chunked.diagnostics == whole.diagnostics, "chunk size \(size)")
                #expect(chunked.errors == whole.errors, "chunk size \(size)")
            }
        }
    }

}

// MARK: - Anomalies

extension NDJSONDecoderTests {
    @Suite("NDJSONDecoder: repaired anomalies")
    struct Anomalies {
        @Test func upForUnknownIdIsReportedOnceAndIgnored() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "up", "id": 9}"#,
                #"{"t": 0.2, "ev": "cancel", "id": 8}"#,
                #"{"t": 0.3, "ev": "up", "id": 1}"#
            ))
            #expect(r.diagnostics == ["in.ndjson:2: \(FramingAnomaly.upForUnknownTouch.message)"])
            #expect(r.diagnostics == [#"in.ndjson:2: "up" or "cancel" for a touch id that is not down; ignored (reported once)"#])
            #expect(r.errors == 0)
            #expect(r.frames.map(\.time) == [0, 0.3])
            #expect(r.frames.map { $0.touches.map(\.id) } == [[1], [1]])
            #expect(phases(r.frames, id: 1) == [.began, .ended])
        }

        @Test func downForAnIdAlreadyDownIsReportedOnceAndTreatedAsMove() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.1, "ev": "down", "id": 1, "x": 96, "y": 0}"#,
                #"{"t": 0.2, "ev": "down", "id": 1, "x": 192, "y": 0}"#
            ))
            #expect(r.diagnostics == [#"in.ndjson:2: "down" for a touch id that is already down; treated as "move" (reported once)"#])
            #expect(r.diagnostics == ["in.ndjson:2: \(FramingAnomaly.downForTouchAlreadyDown.message)"])
            #expect(r.errors == 0)
            #expect(r.frames.map { $0.touches.count } == [1, 1, 1, 1])
            #expect(phases(r.frames, id: 1) == [.began, .moved, .moved, .cancelled])
            #expect(close(r.frames[2].touches[0].position.x, 50.8))
        }

        @Test func timeGoingBackwardsIsReportedOnceAndClamped() {
            let r = decode(lines(
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0.2, "ev": "move", "id": 1, "x": 96, "y": 0}"#,
                #"{"t": 0.1, "ev": "down", "id": 2, "x": 0, "y": 0}"#,
                #"{"t": 0.3, "ev": "move", "id": 1, "x": 192, "y": 0}"#,
                #"{"t": 0.05, "ev": "up", "id": 2}"#
            ))
            #expect(r.diagnostics == [#"in.ndjson:3: "t" went backwards; using the previous time instead (reported once)"#])
            #expect(r.diagnostics == ["in.ndjson:3: \(FramingAnomaly.timeWentBackwards.message)"])
            #expect(r.errors == 0)
            // Line 3 joins the frame at 0.2; line 5 is clamped to 0.3.
            #expect(r.frames.map(\.time) == [0, 0.2, 0.3, 0.3])
            #expect(phases(r.frames, id: 2) == [nil, .began, .ended, nil])
            #expect(phases(r.frames, id: 1) == [.began, .moved, .moved, .cancelled])
        }

        @Test func moveForUnknownIdIsReportedOnceAndTreatedAsDown() {
            let r = decode(lines(
                #"{"t": 0, "ev": "move", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 0, "ev": "move", "id": 2, "x": 0, "y": 0}"#
            ))
            #expect(r.diagnostics == ["in.ndjson:1: \(FramingAnomaly.moveForUnknownTouch.message)"])
            #expect(r.errors == 0)
            #expect(phases(r.frames, id: 1) == [.began, .cancelled])
            #expect(phases(r.frames, id: 2) == [.began, .cancelled])
        }

        @Test func moveForUnknownIdWithoutPositionIsIgnored() {
            let r = decode(lines(
                #"{"t": 0, "ev": "move", "id": 1, "x": 5}"#,
                #"{"t": 0.1, "ev": "down", "id": 2, "x": 0, "y": 0}"#
            ))
            #expect(r.diagnostics == ["in.ndjson:1: \(FramingAnomaly.downWithoutPosition.message)"])
            #expect(r.errors == 0)
            #expect(r.frames.map { $0.touches.map(\.id) } == [[2], [2]])
        }

        @Test func eachKindIsReportedOnceInOrderOfFirstOccurrence() {
            let r = decode(lines(
                #"{"t": 1, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 1, "ev": "down", "id": 1, "x": 0, "y": 0}"#,
                #"{"t": 1, "ev": "up", "id": 5}"#,
                "bad",
                #"{"t": 0, "ev": "move", "id": 1, "x": 1}"#,
                #"{"t": 1, "ev": "up", "id": 6}"#,
                #"{"t": 0, "ev": "down", "id": 1, "x": 0, "y": 0}"#
            ))
            #expect(r.diagnostics == [
                "in.ndjson:2: \(FramingAnomaly.downForTouchAlreadyDown.message)",
                "in.ndjson:3: \(FramingAnomaly.upForUnknownTouch.message)",
                "in.ndjson:4: \(notAnObject)",
                "in.ndjson:5: \(FramingAnomaly.timeWentBackwards.message)",
            ])
            #expect(r.errors == 1)
        }

        @Test func anomaliesAreCountedPerDecoder() {
            let text = lines(
                #"{"t": 0, "ev": "up", "id": 1}"#,
                #"{"t": 0, "ev": "up", "id": 1}"#
            )
            #expect(decode(text).diagnostics == ["in.ndjson:1: \(FramingAnomaly.upForUnknownTouch.message)"])
            #expect(decode(text).diagnostics == ["in.ndjson:1: \(FramingAnomaly.upForUnknownTouch.message)"])
        }
    }

}

// MARK: - Diagnostic

@Suite("Diagnostic")
struct DiagnosticTests {
    @Test func rendersSourceLineAndMessage() {
        #expect(Diagnostic(source: "a.ndjson", line: 12, message: "bad").description == "a.ndjson:12: bad")
    }

    @Test func lineZeroIsLeftOut() {
        #expect(Diagnostic(source: "a.ndjson", line: 0, message: "bad").description == "a.ndjson: bad")
    }
}

@Suite("NDJSON contract details")
struct NDJSONContractDetailTests {
    static func decode(_ text: String) -> [TouchFrame] {
        var d = NDJSONDecoder(source: "in.ndjson", resolution: (x: 1, y: 1))
        var frames: [TouchFrame] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in d.feed(UnsafeRawBufferPointer(raw)) { frames.append($0) } }
        d.finish { frames.append($0) }
        return frames
    }

    @Test("x and y are ignored on up: the touch ends where it last was")
    func positionIgnoredOnUp() {
        let frames = Self.decode("""
        {"t":0,"ev":"down","id":1,"x":10,"y":20}
        {"t":0.1,"ev":"up","id":1,"x":96,"y":96}

        """)
        #expect(frames.last?.touches == [Touch(id: 1, position: Vector(10, 20), phase: .ended)])
    }

    @Test("an id that lifts and lands again at one instant never appears twice in a frame")
    func liftAndLandAgain() {
        let frames = Self.decode("""
        {"t":0,"ev":"down","id":1,"x":10,"y":20}
        {"t":0.1,"ev":"up","id":1}
        {"t":0.1,"ev":"down","id":1,"x":30,"y":40}
        {"t":0.2,"ev":"up","id":1}

        """)
        #expect(frames.map { $0.touches.map(\.phase) } == [[.began], [.ended], [.began], [.ended]])
        #expect(frames.allSatisfy { Set($0.touches.map(\.id)).count == $0.touches.count })
    }
}

extension NDJSONContractDetailTests {
    @Test("keys and values written with JSON escapes mean the same as plain ones")
    func escapedKeys() {
        let frames = Self.decode(#"{"\u0074":0,"e\u0076":"d\u006fwn","id":1,"x":10,"y":20}"# + "\n")
        #expect(frames.first?.touches == [Touch(id: 1, position: Vector(10, 20), phase: .began)])
    }
}
