// Shared by every fuzz target (scripts/fuzz compiles it into each one).
import GestureCore
import GestureInput

/// A fuzz input read front to back; past the end it gives zeros, so every
/// input, however short, decodes to something.
struct FuzzBytes {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func double() -> Double {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[min(position, bytes.count)...]) }
}

/// One rule of every kind, so decoded frames reach every recognizer.
let everyKindRules: [GestureRule] = {
    let phrases = ["left", "two-finger swipe up", "3 finger swipe down-right", "tap", "double tap", "triple tap",
                   "two-finger tap", "long press", "pinch in", "pinch out", "rotate clockwise",
                   "rotate counterclockwise", "edge swipe from left", "edge swipe from top"]
    var rules: [GestureRule] = phrases.compactMap {
        if case .success(let spec) = PhraseParser.parse($0) { return GestureRule(spec: spec) }
        return nil
    }
    rules.append(GestureRule(spec: GestureSpec(kind: .pan, fingers: .any), allPhases: true))
    rules.append(GestureRule(spec: GestureSpec(kind: .pinch, fingers: .exactly(2)), allPhases: true))
    rules.append(GestureRule(spec: GestureSpec(kind: .longPress, fingers: .exactly(2)), allPhases: true))
    return rules
}()

/// The recognizer core behind a decoder, driven as the engine drives it, with
/// the decoder's side of the contract checked on every frame.
struct CoreUnderTest {
    var arena: GestureArena
    var deliveries: [Delivery] = []
    var lastTime = -Double.infinity

    init(thresholds: Thresholds = Thresholds()) {
        arena = GestureArena(rules: everyKindRules, thresholds: thresholds)
    }

    mutating func handle(_ frame: TouchFrame) {
        // docs/architecture.md: time is seconds that never go backwards (they are
        // clamped), and positions are millimetres: never NaN or infinite.
        if !frame.time.isFinite || frame.time < lastTime {
            fatalError("decoder contract: frame time \(frame.time) after \(lastTime)")
        }
        lastTime = frame.time
        for touch in frame.touches where !(touch.position.x.isFinite && touch.position.y.isFinite) {
            fatalError("decoder contract: touch \(touch.id) at \(touch.position.x), \(touch.position.y)")
        }
        if let due = arena.nextDeadline, due <= frame.time { arena.advance(to: frame.time, into: &deliveries) }
        arena.handle(frame, into: &deliveries)
        check()
    }

    mutating func finish() {
        arena.finish(into: &deliveries)
        check()
    }

    private mutating func check() {
        for d in deliveries where d.rule.index < 0 || d.rule.index >= everyKindRules.count || d.event.fingers < 0 {
            fatalError("core: delivery for rule \(d.rule) with \(d.event.fingers) fingers")
        }
        deliveries.removeAll(keepingCapacity: true)
    }
}

/// A recorded mouse's events through the shared mouse's gate, as the engine
/// runs them: each stroke's end answered at once (claimed, then let go, in
/// turn), its path read as the rules read it, the timeout on the events' clock.
struct MouseUnderTest {
    var gate = MouseShareGate(settings: MouseStrokeGate.Settings(
        strokeButtons: [BTN.right, BTN.middle], claimedChords: [MouseChord(held: BTN.left, then: .button(BTN.right)), MouseChord(held: BTN.right, then: .wheel(.up))]))
    var out: [EvdevEvent] = []
    var signals: [MouseShareGate.Signal] = []
    var claims = false

    mutating func handle(_ event: EvdevEvent) {
        if let due = gate.deadline, due <= event.time { gate.expire(at: due, into: &out, signals: &signals) }
        gate.handle(event, into: &out, signals: &signals)
        for signal in signals {
            guard case .strokeEnded(_, let path) = signal else { continue }
            for p in path where !(p.x.isFinite && p.y.isFinite && p.time.isFinite) { fatalError("mouse gate: a path point at \(p.x), \(p.y), t \(p.time)") }
            _ = MouseStrokeReading().read(path)
            claims.toggle()
            var more: [MouseShareGate.Signal] = []
            if claims { gate.claim(into: &out, signals: &more) } else { gate.release(into: &out) }
        }
        signals.removeAll(keepingCapacity: true)
        if out.count > 1 << 16 { out.removeAll(keepingCapacity: true) }
    }

    mutating func finish() {
        gate.end(into: &out)
    }
}

/// Feeds `input` to `decoder` as a reader would: the first byte chooses the
/// chunk size (1 to 127 bytes, 0 for one chunk) and, with its high bit, a
/// flush after every chunk (a live pipe that keeps going quiet).
func fuzzDecoder<D: TouchDecoder>(_ decoder: D, _ data: UnsafePointer<UInt8>?, _ size: Int) {
    var decoder = decoder
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let control = input.byte()
    let body = input.rest
    let chunk = control & 0x7F == 0 ? max(body.count, 1) : Int(control & 0x7F)
    var core = CoreUnderTest()
    var mouse = MouseUnderTest()
    var offset = 0
    withoutActuallyEscaping({ (frame: TouchFrame) in core.handle(frame) }) { frame in
        withoutActuallyEscaping({ (_: Int, event: EvdevEvent) in mouse.handle(event) }) { mouseEvent in
            let output = DecoderOutput(frame: frame, deviceNamed: { _, _ in }, mouse: mouseEvent)
            while offset < body.count {
                let end = min(offset + chunk, body.count)
                decoder.feed(UnsafeRawBufferPointer(rebasing: body[offset..<end]), into: output)
                if control & 0x80 != 0 { decoder.flush(into: output) }
                offset = end
            }
            decoder.finish(into: output)
        }
    }
    core.finish()
    mouse.finish()
    // Every message has a place and text (what the engine prints).
    for d in decoder.diagnostics where d.description.isEmpty {
        fatalError("empty diagnostic")
    }
}
