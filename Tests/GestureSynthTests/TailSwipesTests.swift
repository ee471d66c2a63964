import GestureCore
import GestureInput
import GestureSynth
import Testing

/// Issue 40: `synth --tail`'s classes are what they say, and the same seed
/// gives the same bytes.
@Suite("Tail swipes")
struct TailSwipesTests {
    static func stream(_ kind: TailSwipes.Kind, _ profile: TailSwipes.Profile, seed: UInt64 = 5, count: Int = 40) -> String {
        var tail = TailSwipes(kind: kind, profile: profile, seed: seed)
        var lines = JSONLines()
        lines.line(tail.header())
        for _ in 0..<count { tail.append(to: &lines) }
        return lines.text
    }

    static func frames(_ text: String) -> (frames: [TouchFrame], diagnostics: [Diagnostic]) {
        var decoder = NDJSONDecoder(source: "tail")
        var frames: [TouchFrame] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            decoder.feed(UnsafeRawBufferPointer(raw)) { frames.append($0) }
        }
        decoder.finish { frames.append($0) }
        return (frames, decoder.diagnostics)
    }

    /// Each sequence's landing times, in order.
    static func landings(_ frames: [TouchFrame]) -> [[Double]] {
        var result: [[Double]] = []
        var down = 0
        for frame in frames {
            for touch in frame.touches {
                if touch.phase == .began {
                    if down == 0 { result.append([]) }
                    down += 1
                    result[result.count - 1].append(frame.time)
                } else if touch.phase == .ended || touch.phase == .cancelled {
                    down -= 1
                }
            }
        }
        return result
    }

    @Test("the same seed gives the same bytes; another seed other bytes")
    func deterministic() {
        #expect(Self.stream(.lateLanding, .touchpad) == Self.stream(.lateLanding, .touchpad))
        #expect(Self.stream(.lateLanding, .touchpad) != Self.stream(.lateLanding, .touchpad, seed: 6))
    }

    @Test("every class reads back cleanly: one sequence per swipe, its finger count where its place puts it, nearly all with an evidence point",
          arguments: TailSwipes.Kind.allCases, TailSwipes.Profile.allCases)
    func readsBack(kind: TailSwipes.Kind, profile: TailSwipes.Profile) {
        let (frames, diagnostics) = Self.frames(Self.stream(kind, profile))
        #expect(diagnostics.isEmpty)
        let swipes = SwipeEvidence.measure(frames)
        #expect(swipes.count == 40)
        let counts = kind.fingerCounts
        #expect(swipes.enumerated().allSatisfy { k, s in s.fingers == counts[(k / 4) % counts.count] })
        #expect(swipes.filter { $0.evidence != nil }.count >= 36)
        // Apart: no multi-tap or continuation joins one to the next.
        #expect(zip(swipes, swipes.dropFirst()).allSatisfy { $1.firstLanding - $0.lastLift >= 0.6 })
    }

    @Test("late landing: the last finger lands 20-60 ms after the first (to the next frame)")
    func lateLanding() {
        for profile in TailSwipes.Profile.allCases {
            for landed in Self.landings(Self.frames(Self.stream(.lateLanding, profile)).frames) {
                let late = (landed.max() ?? 0) - (landed.min() ?? 0)
                #expect(late >= 0.02 && late <= 0.06 + 1.0 / 50, "\(profile): \(landed)")
            }
        }
    }

    @Test("third finger: it lands after the other two, a frame or more later")
    func thirdFinger() {
        for landed in Self.landings(Self.frames(Self.stream(.thirdFinger, .touchscreen)).frames) {
            #expect(landed.count == 3)
            #expect(landed[2] > landed[1], "\(landed)")
        }
    }

    @Test("a touchpad reports at 60-90 Hz, a fifth of a period early or late")
    func touchpadRate() {
        let frames = Self.frames(Self.stream(.ordinary, .touchpad, count: 8)).frames
        let gaps = zip(frames, frames.dropFirst()).map { $1.time - $0.time }.filter { $0 < 0.3 }
        #expect(!gaps.isEmpty)
        // A contact left out of a report can leave a frame empty: two periods at most, usually one.
        #expect(gaps.allSatisfy { $0 >= 0.6 / 90 - 1e-4 })
        let sorted = gaps.sorted()
        let median = sorted[sorted.count / 2]
        #expect(median >= 1.0 / 90 * 0.75 && median <= 1.0 / 60 * 1.25)
    }
}
