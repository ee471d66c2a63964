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
}
