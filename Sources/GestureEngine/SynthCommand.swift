import GestureCore
import GestureSynth

/// `gesturemap synth`: NDJSON for named gestures.
public enum SynthStream {
    /// The whole stream for `phrases`, or the first phrase that cannot be read.
    public static func generate(phrases: [String], seed: UInt64, rate: Double? = nil) -> Result<String, PhraseError> {
        var specs: [GestureSpec] = []
        for phrase in phrases {
            switch PhraseParser.parse(phrase) {
            case .success(let spec): specs.append(spec)
            case .failure(let error): return .failure(error)
            }
        }
        var synth = Synthesizer(seed: seed, rate: rate)
        var lines = JSONLines()
        lines.line(synth.header())
        for spec in specs { synth.append(spec, to: &lines) }
        return .success(lines.text)
    }

    /// `count` gestures cycling through `phrases`, handed out in blocks as they
    /// are made, so a long stream never sits in memory whole. `output` returns
    /// false when the blocks can no longer be written: making more stops there.
    public static func write(phrases: [String], seed: UInt64, rate: Double?, count: Int,
                             output: ([UInt8]) -> Bool) -> Result<Void, PhraseError> {
        var specs: [GestureSpec] = []
        for phrase in phrases {
            switch PhraseParser.parse(phrase) {
            case .success(let spec): specs.append(spec)
            case .failure(let error): return .failure(error)
            }
        }
        guard !specs.isEmpty else { return .success(()) }
        var synth = Synthesizer(seed: seed, rate: rate)
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
}
