import Foundation
import GestureActions
import GestureCore
@testable import GestureEngine
import GestureInput
import GestureSynth
import Testing

/// A replay of a file decoded on a second thread must do exactly what one
/// thread doing both does: the same lines, the same messages, in the same
/// order, across many chunks, with bad lines, device names and --strict.
@Suite("A file decoded ahead on a second thread")
struct DecodeAheadTests {
    static let rules = """
        local n = 0
        local function seen(g)
          n = n + 1
          emit(g.kind, { n = n, device = g.device, fingers = g.fingers })
          if n % 7 == 0 then log("seen " .. n) end
        end
        for _, p in ipairs({ "tap", "double tap", "two-finger tap", "swipe left", "swipe right",
                             "long press", "pinch in", "2-finger swipe up" }) do on(p, seen) end
        """

    static let phrases = ["tap", "double tap", "two-finger tap", "swipe left", "swipe right", "long press",
                          "pinch in", "2-finger swipe up", "tap", "swipe left"]

    /// Synthesized gestures, several hundred kilobytes: many 64 KiB chunks.
    static func ndjson(seed: UInt64, count: Int) -> String {
        var random = SeededRandom(seed: seed &+ 5)
        var synth = Synthesizer(seed: seed)
        var lines = JSONLines()
        lines.line(synth.header())
        for _ in 0..<count {
            let phrase = phrases[Int(random.next() % UInt64(phrases.count))]
            guard case .success(let spec) = PhraseParser.parse(phrase) else { continue }
            synth.append(SynthGesture(spec: spec, gap: random.uniform(0.02...0.9)), to: &lines)
        }
        return lines.text
    }

    /// Every `every`th line after the first `after` is followed by one that is no event.
    static func spoiled(_ text: String, every: Int, after: Int, with bad: String) -> String {
        var out: [Substring] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            out.append(line)
            if i >= after, i % every == 0 { out.append(Substring(bad)) }
        }
        return out.joined(separator: "\n")
    }

    /// The same gestures as evemu text, from a device with a name of its own.
    static func evemu(_ ndjson: String, name: String) -> String {
        var decoder = NDJSONDecoder(source: "synth")
        var frames: [TouchFrame] = []
        Array(ndjson.utf8).withUnsafeBytes { decoder.feed($0) { frames.append($0) } }
        decoder.finish { frames.append($0) }
        var writer = RecordWriter(format: .evemu, deviceName: name, converter: decoder.converter)
        var out: [UInt8] = []
        for frame in frames { writer.write(frame, to: &out) }
        writer.finish(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func run(_ path: String, rules: String, ahead: Bool, strict: Bool) throws -> EngineRun {
        var options = RunOptions()
        options.inputs = [path]
        options.rulesPath = rules
        options.verbose = true
        options.strict = strict
        options.decodesAhead = ahead
        // Lines and messages in one transcript, as `2>&1` would show them.
        let transcript = Transcript()
        let console = Console()
        console.capture = { transcript.entries.append("message: " + $0) }
        let status = try #require(Engine(options: options, console: console, output: transcript)).run()
        // The peak memory of two runs differs by what malloc kept.
        let entries = transcript.entries.filter { !$0.contains("peak memory") }
        return EngineRun(status: status, lines: entries.filter { $0.hasPrefix("line: ") }.map { String($0.dropFirst(6)) },
                         messages: entries)
    }

    final class Transcript: LineSink {
        var entries: [String] = []
        func write(line: String) { entries.append("line: " + line) }
    }

    @Test("the same lines and messages, in the same order, with one thread or two", arguments: [
        ("ndjson", false), ("ndjson", true), ("evemu", false), ("evemu", true),
    ])
    func sameRun(format: String, strict: Bool) throws {
        let gestures = Self.ndjson(seed: 23, count: 500)
        let text = format == "ndjson"
            ? Self.spoiled(gestures, every: 97, after: strict ? 9000 : 1, with: #"{"t":"soon","ev":"down"}"#)
            : Self.spoiled(Self.evemu(gestures, name: "pad of the test"), every: 211, after: strict ? 30000 : 40, with: "E: 1.5 0003 zz 17")
        #expect(text.utf8.count > 4 << 16, "several chunks")
        let path = try temporaryFile("input.\(format)", text)
        let rules = try temporaryFile("rules.lua", Self.rules)
        let one = try Self.run(path, rules: rules, ahead: false, strict: strict)
        let two = try Self.run(path, rules: rules, ahead: true, strict: strict)
        #expect(one.status == (strict ? .dataError : .ok))
        #expect(two.status == one.status)
        #expect(two.lines.count == one.lines.count)
        #expect(two.lines == one.lines)
        // Lines and messages both, interleaved.
        #expect(two.messages == one.messages)
        #expect(one.lines.count > (strict ? 100 : 400))
        #expect(one.messages.contains { $0.hasSuffix("seen 7") })
        #expect(one.messages.contains { $0.hasPrefix("message: " + path + ":") }, "a bad line is reported")
        if format == "evemu" {
            #expect(two.lines.allSatisfy { $0.contains(#""device":"pad of the test""#) }, "\(two.lines.prefix(2))")
        }
    }

    /// 64 contacts down, one moving per frame: every frame holds 64 touches,
    /// so one 64 KiB read makes more frames than a chunk may store, and
    /// chunks are handed on in the middle of reads.
    static func crowd(frames: Int, badEvery: Int) -> String {
        var lines = ["N: crowded pad", "P: 02 00 00 00 00 00 00 00", "A: 2f 0 63 0 0 0", "A: 35 0 4095 0 0 16", "A: 36 0 4095 0 0 16", "A: 39 0 65535 0 0 0"]
        func event(_ t: Double, _ type: Int, _ code: Int, _ value: Int) -> String {
            let micros = Int((t * 1_000_000).rounded())  // ok: t is at most a few seconds
            let fraction = String(micros % 1_000_000)
            return "E: \(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) 000\(type) 00\(String(code, radix: 16)) \(value)"
        }
        for slot in 0..<64 {
            lines += [event(0, 3, 0x2f, slot), event(0, 3, 0x39, slot + 1), event(0, 3, 0x35, 100 + slot * 50), event(0, 3, 0x36, 100 + slot * 50)]
        }
        lines.append(event(0, 0, 0, 0))
        for k in 0..<frames {
            let t = Double(k + 1) * 0.001
            let slot = k % 64
            lines += [event(t, 3, 0x2f, slot), event(t, 3, 0x35, 100 + slot * 50 + (k / 64) % 200), event(t, 0, 0, 0)]
            if k % badEvery == badEvery - 1 { lines.append("E: 1.5 0003 zz 17") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("frames of 64 contacts, chunks handed on in the middle of reads: the same lines and messages as one thread")
    func crowdedFrames() throws {
        let text = Self.crowd(frames: 6000, badEvery: 997)
        #expect(text.utf8.count > 4 << 16, "several reads")
        let path = try temporaryFile("crowd.evemu", text)
        let rules = try temporaryFile("rules.lua", Self.rules + "\non(\"pan\", function(g) emit(\"pan\", { x = g.x }) end)\n")
        let one = try Self.run(path, rules: rules, ahead: false, strict: false)
        let two = try Self.run(path, rules: rules, ahead: true, strict: false)
        #expect(one.status == .ok && two.status == .ok)
        #expect(two.messages == one.messages)
        #expect(one.messages.filter { $0.hasPrefix("message: " + path + ":") }.count >= 6, "the bad lines are reported")
    }

    @Test("a chunk stores at most its budget and one frame")
    func chunkBudget() {
        let chunk = DecodedChunk()
        let touches = (0..<64).map { Touch(id: $0, position: Vector(Double($0), 0), phase: .moved) }
        var appended = 0
        while !chunk.isFull {
            chunk.append(TouchFrame(time: Double(appended), touches: touches))
            appended += 1
        }
        #expect(appended > 10)
        let frameBytes = MemoryLayout<DecodedChunk.Entry>.stride + 64 * MemoryLayout<Touch>.stride
        #expect(chunk.storedBytes < DecodedChunk.storageBudget + frameBytes)
        var frame = TouchFrame(time: 0)
        chunk.load(appended - 1, into: &frame)
        #expect(frame.time == Double(appended - 1) && frame.touches == touches)
    }
}
