import GestureCore
import GestureSynth

/// `gesturemap synth`: NDJSON for named gestures.
public enum SynthStream {
    /// The whole stream for `phrases`, or the first phrase that cannot be read.
    public static func generate(phrases: [String], seed: UInt64, rate: Double? = nil,
                                shapes: [ShapeTemplate] = BuiltinShapes.templates) -> Result<String, PhraseError> {
        let specs: [GestureSpec]
        switch parse(phrases, shapes: shapes) {
        case .success(let s): specs = s
        case .failure(let error): return .failure(error)
        }
        var synth = Synthesizer(seed: seed, rate: rate)
        synth.shapes = shapes
        var lines = JSONLines()
        lines.line(synth.header())
        for spec in specs { synth.append(spec, to: &lines) }
        return .success(lines.text)
    }

    /// `count` gestures cycling through `phrases`, handed out in blocks as they
    /// are made, so a long stream never sits in memory whole. `output` returns
    /// false when the blocks can no longer be written: making more stops there.
    public static func write(phrases: [String], seed: UInt64, rate: Double?, count: Int, shapes: [ShapeTemplate] = BuiltinShapes.templates,
                             output: ([UInt8]) -> Bool) -> Result<Void, PhraseError> {
        let specs: [GestureSpec]
        switch parse(phrases, shapes: shapes) {
        case .success(let s): specs = s
        case .failure(let error): return .failure(error)
        }
        guard !specs.isEmpty else { return .success(()) }
        var synth = Synthesizer(seed: seed, rate: rate)
        synth.shapes = shapes
        var lines = JSONLines()
        lines.line(synth.header())
        for i in 0..<count {
            synth.append(specs[i % specs.count], to: &lines)
            if lines.bytes.count >= 1 << 16 {
                guard output(lines.bytes) else { return .success(()) }
                lines.removeAll()
            }
        }
        if !lines.bytes.isEmpty { _ = output(lines.bytes) }
        return .success(())
    }

    /// The phrases as specs; a shape must be one `shapes` has.
    static func parse(_ phrases: [String], shapes: [ShapeTemplate]) -> Result<[GestureSpec], PhraseError> {
        var specs: [GestureSpec] = []
        for phrase in phrases {
            switch PhraseParser.parse(phrase) {
            case .success(let spec):
                if spec.kind == .shape, let name = spec.name, !shapes.contains(where: { $0.name == name }) {
                    let known = ShapeFile.names(shapes).sorted().joined(separator: ", ")
                    return .failure(PhraseError(phrase: phrase, reason: "no shape is named \"\(name)\" (known shapes: \(known); --shapes FILE adds taught ones)"))
                }
                specs.append(spec)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(specs)
    }
}
