import GestureCore
import GestureInput
import GestureSynth
import Testing

/// Pans over synthesized swipes: quick strokes whose fingers land up to 40 ms
/// apart, the kind three-finger drag must never miss.
@Suite("Pans over synthesized swipes")
struct SynthPanTests {
    static let seeds: ClosedRange<UInt64> = 1...40

    static func deliveries(_ phrase: String, seed: UInt64, rules: [String]) -> [Delivery] {
        let (frames, _) = SynthesizerTests.frames(SynthesizerTests.stream([phrase], seed: seed))
        let bound = rules.map { phrase -> GestureRule in
            guard case .success(let spec) = PhraseParser.parse(phrase) else { preconditionFailure("test phrase does not parse: \(phrase)") }
            return GestureRule(spec: spec, allPhases: true)
        }
        var arena = GestureArena(rules: bound)
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        return out
    }

    @Test("every swipe of N fingers, seeds 1-40, is a pan of N fingers to the N-finger pan rule: began, changed, ended",
          arguments: [1, 2, 3, 4, 5], Direction.cardinals)
    func everySwipePans(fingers: Int, direction: Direction) {
        var missed: [String] = []
        for seed in Self.seeds {
            let out = Self.deliveries("\(fingers)-finger swipe \(direction.rawValue)", seed: seed, rules: ["\(fingers)-finger pan"])
            let phases = out.map(\.event.phase)
            let whole = phases.first == .began && phases.last == .ended && phases.contains(.changed)
                && phases.dropFirst().dropLast().allSatisfy { $0 == .changed }
            if !whole || out.contains(where: { $0.event.fingers != fingers }) { missed.append("seed \(seed): \(phases.map(\.rawValue))") }
        }
        #expect(missed.isEmpty, "\(missed)")
    }

    @Test("a swipe of N+1 fingers never begins the N-finger pan, the most fingers any pan rule binds: the hand lands first",
          arguments: [1, 2, 3, 4])
    func moreFingersBeatFewer(fingers: Int) {
        var stolen: [String] = []
        for seed in Self.seeds {
            for direction in Direction.cardinals {
                let swipe = "\(fingers + 1)-finger swipe \(direction.rawValue)"
                let out = Self.deliveries(swipe, seed: seed, rules: ["\(fingers)-finger pan", swipe])
                if out.contains(where: { $0.event.kind == .pan }) { stolen.append("seed \(seed) \(direction.rawValue)") }
                #expect(out.filter { $0.event.kind == .swipe }.count == 1, "seed \(seed) \(swipe)")
            }
        }
        #expect(stolen.isEmpty, "\(stolen)")
    }
}
