/// SplitMix64: small, fast, and the same sequence on every machine for a seed,
/// which is what `synth --seed` promises.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// Roughly normal (sum of uniforms), cheap and bounded: for jitter.
    public mutating func jitter(_ sigma: Double) -> Double {
        (uniform(0...1) + uniform(0...1) + uniform(0...1) - 1.5) * 2 * sigma
    }

    public mutating func chance(_ p: Double) -> Bool { uniform(0...1) < p }
}
