import GestureCore
import GestureInput
import Testing

/// NDJSON → raw input_event bytes → frames, and evemu text → frames, give the
/// frames the NDJSON gives: one assembler, three formats, the same touches.
@Suite("Round trips between formats")
struct RoundTripTests {
    static let resolution = 16.0
    static let device = DeviceInfo(name: "round trip panel", x: AxisInfo(minimum: 0, maximum: 4095, resolution: resolution),
                                   y: AxisInfo(minimum: 0, maximum: 2303, resolution: resolution))

    /// Random touches on integer device units and a microsecond clock: up to four
    /// fingers landing, moving (one axis or both) and lifting, frame after frame.
    static func randomFrames(seed: UInt64, count: Int) -> [TouchFrame] {
        var state = seed | 1
        func next(_ n: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        let surface = Surface(width: 4095 / resolution, height: 2303 / resolution)
        var down: [Int: Vector] = [:]
        var nextID = 1
        var frames: [TouchFrame] = []
        var t = 1.0
        for _ in 0..<count {
            t += Double(4000 + next(12000)) / 1_000_000
            var touches: [Touch] = []
            for (id, p) in down.sorted(by: { $0.key < $1.key }) {
                switch next(10) {
                case 0:
                    touches.append(Touch(id: id, position: p, phase: .ended))
                    down[id] = nil
                case 1, 2, 3, 4, 5:
                    var q = p
                    if next(3) != 0 { q.x = Double(max(0, min(4095, Int(p.x * resolution) + next(41) - 20))) / resolution }
                    if next(3) != 0 { q.y = Double(max(0, min(2303, Int(p.y * resolution) + next(41) - 20))) / resolution }
                    touches.append(Touch(id: id, position: q, phase: q == p ? .stationary : .moved))
                    down[id] = q
                default:
                    touches.append(Touch(id: id, position: p, phase: .stationary))
                }
            }
            if down.count < 4 && next(4) == 0 {
                let p = Vector(Double(next(4096)) / resolution, Double(next(2304)) / resolution)
                touches.append(Touch(id: nextID, position: p, phase: .began))
                down[nextID] = p
                nextID += 1
            }
            guard touches.contains(where: { $0.phase != .stationary }) else { continue }
            frames.append(TouchFrame(time: t, touches: touches, surface: surface))
        }
        // Every finger lifts before the end, so no decoder has to cancel one.
        if !down.isEmpty {
            let lifts = down.sorted(by: { $0.key < $1.key }).map { Touch(id: $0.key, position: $0.value, phase: .ended) }
            frames.append(TouchFrame(time: t + 0.01, touches: lifts, surface: surface))
        }
        return frames
    }

    static func encode(_ frames: [TouchFrame], as format: RecordFormat) -> [UInt8] {
        var writer = RecordWriter(format: format, deviceName: device.name, converter: UnitConverter(device: device))
        var out: [UInt8] = []
        for f in frames { writer.write(f, to: &out) }
        writer.finish(to: &out)
        return out
    }

    static func decode(_ bytes: [UInt8], with decoder: inout some TouchDecoder) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        var copy = bytes
        copy.withUnsafeMutableBytes { raw in
            // In uneven chunks, as reads from a pipe come.
            var offset = 0
            var step = 1
            while offset < raw.count {
                let n = min(step, raw.count - offset)
                decoder.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)])) { frames.append($0) }
                offset += n
                step = step * 3 % 997 + 1
            }
        }
        decoder.finish { frames.append($0) }
        return frames
    }

    /// Frames with ids renamed in order of appearance, so decoders' own ids compare.
    static func canonical(_ frames: [TouchFrame]) -> [String] {
        var names: [Int: Int] = [:]
        return frames.map { f in
            let touches = f.touches.map { touch -> String in
                let n = names[touch.id] ?? names.count
                names[touch.id] = n
                return "\(n):\(touch.phase):\(touch.position.x),\(touch.position.y)"
            }.sorted()
            return "\(Int((f.time * 1e6).rounded())) " + touches.joined(separator: " ")
        }
    }

    /// The first frame where two lists differ, for a readable failure.
    static func firstDifference(_ a: [String], _ b: [String]) -> String? {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : "(none)"
            let y = i < b.count ? b[i] : "(none)"
            if x != y { return "frame \(i): \(x)  vs  \(y)" }
        }
        return nil
    }

    @Test("raw bytes and evemu text decode to the frames NDJSON does", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func sameFrames(seed: UInt64) throws {
        let original = Self.randomFrames(seed: seed, count: 400)
        var ndjson = NDJSONDecoder(source: "rt.ndjson")
        let fromNDJSON = Self.decode(Self.encode(original, as: .ndjson), with: &ndjson)
        var raw = RawEventDecoder(source: "rt.raw", resolution: (Self.resolution, Self.resolution))
        let fromRaw = Self.decode(Self.encode(original, as: .raw), with: &raw)
        var evemu = EvemuDecoder(source: "rt.evemu")
        let fromEvemu = Self.decode(Self.encode(original, as: .evemu), with: &evemu)
        #expect(ndjson.diagnostics.isEmpty && raw.diagnostics.isEmpty && evemu.diagnostics.isEmpty)
        #expect(Self.firstDifference(Self.canonical(fromNDJSON), Self.canonical(original)) == nil)
        #expect(Self.firstDifference(Self.canonical(fromRaw), Self.canonical(fromNDJSON)) == nil)
        #expect(Self.firstDifference(Self.canonical(fromEvemu), Self.canonical(fromNDJSON)) == nil)
        #expect(fromEvemu.first?.surface == fromNDJSON.first?.surface)
    }

    @Test("auto-detection picks each format from its first bytes")
    func detection() {
        let frames = Self.randomFrames(seed: 9, count: 50)
        for (format, expected) in [(RecordFormat.ndjson, InputFormat.ndjson), (.evemu, .evemu), (.raw, .raw)] {
            var auto = AutoDecoder(source: "auto")
            _ = Self.decode(Self.encode(frames, as: format), with: &auto)
            #expect(auto.format == expected)
        }
    }
}

/// Mixed gestures made here (not by synth), written as NDJSON, raw bytes and
/// evemu text: every format gives the same recognized gestures.
@Suite("Same answers from every format")
struct SameAnswersTests {
    static func gestureFrames(seed: UInt64) -> [TouchFrame] {
        var state = seed &* 0x9E37_79B9 | 1
        func rnd() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state % 10_000) / 10_000
        }
        let res = RoundTripTests.resolution
        func snap(_ v: Vector) -> Vector { Vector((v.x * res).rounded() / res, (v.y * res).rounded() / res) }
        let surface = Surface(width: 4095 / res, height: 2303 / res)
        var frames: [TouchFrame] = []
        var t = 1.0
        var id = 1
        for _ in 0..<30 {
            let kind = Int(rnd() * 5)
            let fingers = kind == 3 ? 2 : 1 + Int(rnd() * 2)
            let centre = Vector(60 + rnd() * 130, 40 + rnd() * 60)
            let angle = Double(Int(rnd() * 4)) * 90
            let spin = rnd() * 360
            // Each finger's path: t (from 0) → position, with its landing and lift.
            var paths: [(lands: Double, lifts: Double, at: (Double) -> Vector)] = []
            for f in 0..<fingers {
                let offset = Vector(Double(f) * 16 - Double(fingers - 1) * 8, 0)
                switch kind {
                case 0:  // swipe, one of four directions
                    let d = Vector(cosDegrees(angle), sinDegrees(angle)) * 40
                    paths.append((0.01 * Double(f), 0.22, { s in centre + offset + d * min(s / 0.2, 1) }))
                case 1, 2:  // tap (twice for kind 2)
                    paths.append((0, 0.08, { _ in centre + offset }))
                    if kind == 2 { paths.append((0.2, 0.28, { _ in centre + offset })) }
                case 3:  // pinch out
                    let a = spin + Double(f) * 180
                    paths.append((0, 0.6, { s in centre + Vector(cosDegrees(a), sinDegrees(a)) * (12 + 20 * min(max(s - 0.12, 0) / 0.4, 1)) }))
                default:  // long press
                    paths.append((0, 0.9, { _ in centre + offset }))
                }
            }
            var state = Array(repeating: 0, count: paths.count)
            var ids = Array(repeating: 0, count: paths.count)
            var s = 0.0
            while state.contains(where: { $0 < 2 }) {
                var touches: [Touch] = []
                for (i, p) in paths.enumerated() {
                    if state[i] == 0 && s >= p.lands {
                        state[i] = 1
                        ids[i] = id
                        id += 1
                        touches.append(Touch(id: ids[i], position: snap(p.at(s)), phase: .began))
                    } else if state[i] == 1 && s >= p.lifts {
                        state[i] = 2
                        touches.append(Touch(id: ids[i], position: snap(p.at(p.lifts)), phase: .ended))
                    } else if state[i] == 1 {
                        touches.append(Touch(id: ids[i], position: snap(p.at(s)), phase: .moved))
                    }
                }
                if !touches.isEmpty { frames.append(TouchFrame(time: ((t + s) * 1e6).rounded() / 1e6, touches: touches, surface: surface)) }
                s += 0.01
            }
            t += s + 0.8
        }
        return frames
    }

    static func recognized(_ frames: [TouchFrame]) -> [String] {
        let phrases = ["swipe left", "swipe right", "swipe up", "swipe down", "2-finger swipe left", "2-finger swipe right",
                       "2-finger swipe up", "2-finger swipe down", "tap", "2-finger tap", "double tap", "2-finger double tap",
                       "pinch out", "long press", "2-finger long press"]
        let rules = phrases.compactMap { p -> GestureRule? in
            if case .success(let spec) = PhraseParser.parse(p) { return GestureRule(spec: spec) }
            return nil
        }
        var arena = GestureArena(rules: rules)
        var out: [Delivery] = []
        for f in frames { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        return out.map { "\(phrases[$0.rule.index]) @\(Int(($0.event.time * 1e3).rounded()))" }
    }

    @Test("NDJSON, raw bytes and evemu text give the same gestures", arguments: [11, 12, 13] as [UInt64])
    func sameAnswers(seed: UInt64) {
        let frames = Self.gestureFrames(seed: seed)
        let direct = Self.recognized(frames)
        var ndjson = NDJSONDecoder(source: "m.ndjson")
        let viaNDJSON = Self.recognized(RoundTripTests.decode(RoundTripTests.encode(frames, as: .ndjson), with: &ndjson))
        var raw = RawEventDecoder(source: "m.raw", resolution: (RoundTripTests.resolution, RoundTripTests.resolution))
        let viaRaw = Self.recognized(RoundTripTests.decode(RoundTripTests.encode(frames, as: .raw), with: &raw))
        var evemu = EvemuDecoder(source: "m.evemu")
        let viaEvemu = Self.recognized(RoundTripTests.decode(RoundTripTests.encode(frames, as: .evemu), with: &evemu))
        #expect(direct.count == 30, "\(direct)")
        #expect(viaNDJSON == direct)
        #expect(viaRaw == direct)
        #expect(viaEvemu == direct)
    }
}
