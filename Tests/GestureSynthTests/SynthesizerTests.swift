import GestureCore
import GestureInput
import GestureSynth
import Testing

@Suite("Synthesized touch streams")
struct SynthesizerTests {
    static func stream(_ phrases: [String], seed: UInt64, rate: Double? = nil) -> String {
        var synth = Synthesizer(seed: seed, rate: rate)
        var lines = JSONLines()
        lines.line(synth.header())
        for phrase in phrases {
            guard case .success(let spec) = PhraseParser.parse(phrase) else { continue }
            synth.append(spec, to: &lines)
        }
        return lines.text
    }

    static func frames(_ text: String) -> (frames: [TouchFrame], diagnostics: [Diagnostic]) {
        var decoder = NDJSONDecoder(source: "synth")
        var frames: [TouchFrame] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            decoder.feed(UnsafeRawBufferPointer(raw)) { frames.append($0) }
        }
        decoder.finish { frames.append($0) }
        return (frames, decoder.diagnostics)
    }

    @Test("the same seed gives the same bytes; another seed other bytes")
    func deterministic() {
        let a = Self.stream(["two-finger swipe left", "double tap"], seed: 42)
        #expect(a == Self.stream(["two-finger swipe left", "double tap"], seed: 42))
        #expect(a != Self.stream(["two-finger swipe left", "double tap"], seed: 43))
    }

    @Test("the stream reads back cleanly with its header's resolution, time never going backwards")
    func readsBack() throws {
        let (frames, diagnostics) = Self.frames(Self.stream(["3 finger swipe up", "swipe left", "4-finger swipe down"], seed: 3))
        #expect(diagnostics.isEmpty)
        #expect(!frames.isEmpty)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time })
        let surface = try #require(frames.first?.surface)
        #expect(abs(surface.width - 255.9375) < 1e-9)
    }

    @Test("sampling rates lie between 60 and 240 Hz across seeds")
    func rates() {
        let rates = (1...200).map { Synthesizer(seed: UInt64($0)).rate }
        #expect(rates.allSatisfy { $0 >= 60 && $0 <= 240 })
        #expect(Set(rates).count > 50)
    }

    @Test("fingers of one gesture land within 40 ms of each other (plus one frame)", arguments: [2, 3, 4])
    func landingSpread(fingers: Int) {
        for seed in 1...20 {
            let synth = Synthesizer(seed: UInt64(seed))
            let (frames, _) = Self.frames(Self.stream(["\(fingers)-finger swipe right"], seed: UInt64(seed)))
            let landings = frames.flatMap { f in f.touches.filter { $0.phase == .began }.map { _ in f.time } }
            #expect(landings.count == fingers)
            let spread = (landings.max() ?? 0) - (landings.min() ?? 0)
            #expect(spread <= 0.04 + 1 / synth.rate + 1e-9)
        }
    }

    @Test("a swipe's fingers travel together 25 to 55 mm in the named direction", arguments: Direction.cardinals)
    func travel(direction: Direction) throws {
        let (frames, _) = Self.frames(Self.stream(["2-finger swipe \(direction.rawValue)"], seed: 11))
        var start: [Int: Vector] = [:]
        var end: [Int: Vector] = [:]
        for frame in frames {
            for touch in frame.touches {
                if start[touch.id] == nil { start[touch.id] = touch.position }
                end[touch.id] = touch.position
            }
        }
        let axis = try #require(direction.screenAngle)
        let unit = Vector(cosDegrees(axis), sinDegrees(axis))
        for (id, s) in start {
            let d = (end[id] ?? s) - s
            #expect(d.dot(unit) > 15 && d.length < 60, "finger \(id) moved \(d)")
        }
    }

    @Test("gestures are separated by pauses longer than a multi-tap interval")
    func pauses() {
        let (frames, _) = Self.frames(Self.stream(["tap", "tap", "tap"], seed: 5))
        var lastUp: Double?
        var gaps: [Double] = []
        for frame in frames {
            if frame.touches.contains(where: { $0.phase == .began }), frame.touches.count == 1, let up = lastUp { gaps.append(frame.time - up) }
            if frame.touches.contains(where: { $0.phase == .ended }) { lastUp = frame.time }
        }
        #expect(gaps.count == 2)
        #expect(gaps.allSatisfy { $0 > 0.5 })
    }
}

@Suite("Synthesized gestures through the recognizer core")
struct SynthRecognitionTests {
    static func deliveries(_ phrases: [String], rules: [String], seed: UInt64) -> (out: [Delivery], frames: [TouchFrame]) {
        let (frames, _) = SynthesizerTests.frames(SynthesizerTests.stream(phrases, seed: seed))
        let specs = rules.compactMap { phrase -> GestureRule? in
            guard case .success(let spec) = PhraseParser.parse(phrase) else { return nil }
            return GestureRule(spec: spec)
        }
        var arena = GestureArena(rules: specs)
        var out: [Delivery] = []
        for f in frames { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        return (out, frames)
    }

    @Test("every kind synth knows comes back as itself", arguments: 1...4)
    func everyKind(seed: Int) {
        let phrases = ["tap", "double tap", "triple tap", "2-finger tap", "3-finger tap", "long press", "2-finger long press",
                       "pinch in", "pinch out", "3-finger pinch out", "rotate clockwise", "rotate counterclockwise",
                       "edge swipe from left", "edge swipe from right", "edge swipe from top", "edge swipe from bottom",
                       "swipe up-left", "3-finger swipe down", "2-finger pan left"]
        let (out, _) = Self.deliveries(phrases, rules: phrases, seed: UInt64(seed))
        #expect(out.map(\.rule.index) == Array(0..<phrases.count))
    }

    /// Fingers taking turns are a one-finger tap each, so
    /// synth's multi-finger taps keep their fingers down together for most of
    /// their contact, and its one-finger taps are no rolls either.
    @Test("synthesized 2- and 3-finger taps and double taps, with a one-finger tap rule bound beside them, are never rolls", arguments: 1...40)
    func multiFingerTapsAreNoRolls(seed: Int) {
        let phrases = ["2-finger tap", "3-finger tap", "2-finger double tap", "tap", "2-finger tap"]
        let rules = ["tap", "2-finger tap", "3-finger tap", "2-finger double tap"]
        let (out, _) = Self.deliveries(phrases, rules: rules, seed: UInt64(seed))
        #expect(out.map { rules[$0.rule.index] } == ["2-finger tap", "3-finger tap", "2-finger double tap", "tap", "2-finger tap"])
    }

    @Test("at least 90% of synthesized swipes fire before their last finger lifts")
    func earlySwipes() {
        var fired = 0
        var early = 0
        var total = 0
        for seed in 1...20 {
            var phrases: [String] = []
            for fingers in 1...4 { for d in ["left", "right", "up", "down"] { phrases.append("\(fingers)-finger swipe \(d)") } }
            let (out, frames) = Self.deliveries(phrases, rules: phrases, seed: UInt64(seed))
            total += phrases.count
            fired += out.count
            // Each gesture's last lift: the last frame before the next gesture's first landing.
            var lastLifts: [Double] = []
            for (i, frame) in frames.enumerated() where frame.touches.contains(where: { $0.phase == .ended }) {
                let next = frames.indices.contains(i + 1) ? frames[i + 1] : nil
                if next == nil || next?.touches.allSatisfy({ $0.phase == .began }) == true { lastLifts.append(frame.time) }
            }
            for (delivery, lift) in zip(out, lastLifts) where delivery.event.time < lift { early += 1 }
        }
        print("synthesized swipes: \(fired)/\(total) recognized, \(early) before the last finger lifted")
        #expect(fired == total)
        #expect(Double(early) >= 0.9 * Double(total))
    }
}

@Suite("Synthesized resting contacts")
struct SynthRestingTests {
    @Test("'with N resting' adds N still contacts that land 0.3 s or more before the hand and lift after it", arguments: [1, 2])
    func restingContactsPlanned(count: Int) {
        for seed in 1...10 {
            let (frames, diagnostics) = SynthesizerTests.frames(SynthesizerTests.stream(["2-finger swipe left with \(count) resting"], seed: UInt64(seed)))
            #expect(diagnostics.isEmpty)
            var lands: [Int: Double] = [:]
            var lifts: [Int: Double] = [:]
            var first: [Int: Vector] = [:]
            var farthest: [Int: Double] = [:]
            for frame in frames {
                for touch in frame.touches {
                    if touch.phase == .began { lands[touch.id] = frame.time; first[touch.id] = touch.position }
                    if touch.phase == .ended { lifts[touch.id] = frame.time }
                    if let p = first[touch.id] { farthest[touch.id] = max(farthest[touch.id] ?? 0, p.distance(to: touch.position)) }
                }
            }
            #expect(lands.count == 2 + count)
            let order = lands.sorted { $0.value < $1.value }.map(\.key)
            let resting = Array(order.prefix(count))
            let hand = Array(order.dropFirst(count))
            let handLands = hand.compactMap { lands[$0] }.min() ?? 0
            let handLifts = hand.compactMap { lifts[$0] }.max() ?? 0
            for id in resting {
                #expect(handLands - (lands[id] ?? 0) >= 0.25, "seed \(seed): rests only \(handLands - (lands[id] ?? 0)) s before")
                #expect((lifts[id] ?? 0) > handLifts)
                #expect((farthest[id] ?? 99) < 1.5, "seed \(seed): a resting contact moved \(farthest[id] ?? 99) mm")
            }
        }
    }

    @Test("a synthesized resting thumb changes neither a 2-finger swipe nor a 3-finger tap; a resting = 1 rule gets hold-one-swipe-another", arguments: 1...6)
    func restingThumbThroughTheCore(seed: Int) {
        let phrases = ["2-finger swipe left with 1 resting", "3-finger tap with 1 resting", "swipe right with 1 resting", "2-finger swipe left"]
        let rules = ["tap", "2-finger tap", "3-finger tap", "4-finger tap", "2-finger swipe left", "3-finger swipe left", "swipe right with 1 resting",
                     "swipe right with no resting", "2-finger swipe right", "long press", "2-finger long press"]
        let (out, _) = SynthRecognitionTests.deliveries(phrases, rules: rules, seed: UInt64(seed))
        #expect(out.map { rules[$0.rule.index] } == ["2-finger swipe left", "3-finger tap", "swipe right with 1 resting", "2-finger swipe left"])
        #expect(out.map(\.event.resting) == [1, 1, 1, 0])
    }
}
