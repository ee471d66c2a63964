import GestureEngine
import GestureCore
import GestureSynth

/// `gesturemap synth`: NDJSON for named gestures.
public enum SynthStream {
    /// The whole stream for `phrases`, or the first phrase that cannot be read.
    public static func generate(phrases: [String], seed: UInt64, rate: Double? = nil,
                                shapes: [ShapeTemplate] = BuiltinShapes.templates) -> Result<String, PhraseError> {
        let gestures: [SynthGesture]
        switch parse(phrases, shapes: shapes) {
        case .success(let g): gestures = g
        case .failure(let error): return .failure(error)
        }
        var synth = Synthesizer(seed: seed, rate: rate)
        synth.shapes = shapes
        var lines = JSONLines()
        // A mouse's lines need no touch panel: a stream of them alone has no header.
        if gestures.contains(where: { !$0.spec.isMouse }) { lines.line(synth.header()) }
        for gesture in gestures { synth.append(gesture, to: &lines) }
        return .success(lines.text)
    }

    /// `count` gestures cycling through `phrases` (each repeat counts; nil:
    /// each phrase once, with its repeats), handed out in blocks as they are
    /// made, so a long stream never sits in memory whole. `output` returns
    /// false when the blocks can no longer be written: making more stops there.
    public static func write(phrases: [String], seed: UInt64, rate: Double?, count: Int?, shapes: [ShapeTemplate] = BuiltinShapes.templates,
                             output: ([UInt8]) -> Bool) -> Result<Void, PhraseError> {
        var gestures: [SynthGesture] = []
        switch parse(phrases, shapes: shapes) {
        case .success(let placed):
            for g in placed {
                var once = g
                once.repeats = 1
                gestures += Array(repeating: once, count: g.repeats)
            }
        case .failure(let error): return .failure(error)
        }
        guard !gestures.isEmpty else { return .success(()) }
        var synth = Synthesizer(seed: seed, rate: rate)
        synth.shapes = shapes
        var lines = JSONLines()
        if gestures.contains(where: { !$0.spec.isMouse }) { lines.line(synth.header()) }
        for i in 0..<(count ?? gestures.count) {
            synth.append(gestures[i % gestures.count], to: &lines)
            if lines.bytes.count >= 1 << 16 {
                guard output(lines.bytes) else { return .success(()) }
                lines.removeAll()
            }
        }
        if !lines.bytes.isEmpty { _ = output(lines.bytes) }
        return .success(())
    }

    /// `count` single swipes of one class of `TailSwipes`, handed out in
    /// blocks as `write` does.
    public static func writeTail(_ kind: TailSwipes.Kind, profile: TailSwipes.Profile, seed: UInt64, count: Int,
                                 output: ([UInt8]) -> Bool) {
        var tail = TailSwipes(kind: kind, profile: profile, seed: seed)
        var lines = JSONLines()
        lines.line(tail.header())
        for _ in 0..<count {
            tail.append(to: &lines)
            if lines.bytes.count >= 1 << 16 {
                guard output(lines.bytes) else { return }
                lines.removeAll()
            }
        }
        if !lines.bytes.isEmpty { _ = output(lines.bytes) }
    }

    /// The phrases as gestures; a shape must be one `shapes` has. A phrase may
    /// place its gesture: `at X,Y` (mm, where its fingers land), `after S` (a
    /// pause of S seconds from the last lift), `xN` (N times in a row).
    static func parse(_ phrases: [String], shapes: [ShapeTemplate]) -> Result<[SynthGesture], PhraseError> {
        var gestures: [SynthGesture] = []
        for phrase in phrases {
            let placement: SynthPlacement
            switch SynthPlacement.read(phrase) {
            case .success(let p): placement = p
            case .failure(let error): return .failure(error)
            }
            switch PhraseParser.parse(placement.phrase) {
            case .success(let spec):
                if spec.kind == .shape, let name = spec.name, !shapes.contains(where: { $0.name == name }) {
                    let known = ShapeFile.names(shapes).sorted().joined(separator: ", ")
                    return .failure(PhraseError(phrase: phrase, reason: "no shape is named \"\(name)\" (known shapes: \(known); --shapes FILE adds taught ones)"))
                }
                gestures.append(SynthGesture(spec: spec, at: placement.at, gap: placement.gap, repeats: placement.repeats))
            case .failure(let error): return .failure(PhraseError(phrase: phrase, reason: error.reason))
            }
        }
        return .success(gestures)
    }
}
