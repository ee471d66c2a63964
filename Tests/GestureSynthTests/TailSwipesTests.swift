import GestureCore
import GestureInput
import GestureSynth
import Testing

/// `synth --tail`'s classes are what they say, and the same seed
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

/// The flick class: short, fast strokes, and on a touchpad the landing reports
/// and lifts of a real pad.
@Suite("Tail swipes: flicks")
struct TailFlickTests {
    /// Each contact's reports: (time, position in mm), its landing first; and the time of its lift.
    struct Contact {
        var reports: [(t: Double, p: Vector)] = []
        var lift: Double?
    }

    static func contacts(_ frames: [TouchFrame]) -> [Int: Contact] {
        var result: [Int: Contact] = [:]
        for frame in frames {
            for touch in frame.touches {
                switch touch.phase {
                case .ended, .cancelled: result[touch.id, default: Contact()].lift = frame.time
                default: result[touch.id, default: Contact()].reports.append((frame.time, touch.position))
                }
            }
        }
        return result
    }

    @Test("a flick lasts 80-250 ms from its first landing to its last lift, and is fast: 10 mm in under 120 ms of its evidence",
          arguments: TailSwipes.Profile.allCases)
    func shortAndFast(profile: TailSwipes.Profile) {
        let swipes = SwipeEvidence.measure(TailSwipesTests.frames(TailSwipesTests.stream(.flick, profile, count: 80)).frames)
        #expect(swipes.count == 80)
        for s in swipes {
            let lasted = s.lastLift - s.firstLanding
            #expect(lasted >= 0.08 && lasted <= 0.25, "\(s)")
        }
        // Every one has its evidence in while the fingers are down.
        let evidenced = swipes.compactMap { s in s.evidence.map { $0 - s.firstLanding } }
        #expect(evidenced.count >= 78)
        #expect(evidenced.allSatisfy { $0 <= 0.15 }, "\(evidenced.sorted().suffix(4))")
    }

    @Test("on a touchpad a flick's landing report is off by up to 2.5 mm and settles at the next report; a touchscreen's is not")
    func landingJitter() {
        func firstSteps(_ profile: TailSwipes.Profile) -> [Double] {
            let frames = TailSwipesTests.frames(TailSwipesTests.stream(.flick, profile, count: 80)).frames
            return Self.contacts(frames).values.compactMap { c in
                c.reports.count >= 3 ? c.reports[1].p.distance(to: c.reports[0].p) - c.reports[2].p.distance(to: c.reports[1].p) : nil
            }
        }
        // The first step less the second: a landing off by more than the hand moves between reports.
        let pad = firstSteps(.touchpad)
        let screen = firstSteps(.touchscreen)
        // Jitter along the hand's way, or under 1 mm, hides in its movement: an eighth shows.
        #expect(pad.filter { $0 > 1 }.count >= pad.count / 8, "\(pad.sorted().suffix(10))")
        #expect(pad.allSatisfy { $0 < 4.5 })
        #expect(screen.filter { $0 > 1 }.isEmpty, "\(screen.sorted().suffix(10))")
    }

    @Test("on a touchpad a flick's contact may go unreported for up to 25 ms before its lift")
    func fadeBeforeLift() {
        let frames = TailSwipesTests.frames(TailSwipesTests.stream(.flick, .touchpad, count: 80)).frames
        let silences = Self.contacts(frames).values.compactMap { c in c.lift.flatMap { lift in c.reports.last.map { lift - $0.t } } }
        #expect(silences.contains { $0 > 0.02 })
        // The fade (25 ms) and a report left out (two periods of 60 Hz) at the most.
        #expect(silences.allSatisfy { $0 <= 0.025 + 2.0 / 60 + 0.01 }, "\(silences.max() ?? 0)")
    }

    @Test("flicks on a touchpad come at the rates of the recorded pads, 60-180 Hz; the other classes keep 60-90 Hz")
    func rates() {
        var medians: [Double] = []
        var tail = TailSwipes(kind: .flick, profile: .touchpad, seed: 9)
        for _ in 0..<30 {
            var lines = JSONLines()
            lines.line(tail.header())
            tail.append(to: &lines)
            let frames = TailSwipesTests.frames(lines.text).frames
            let gaps = zip(frames, frames.dropFirst()).map { $1.time - $0.time }.sorted()
            medians.append(gaps[gaps.count / 2])
        }
        #expect(medians.allSatisfy { $0 >= 1.0 / 180 * 0.75 && $0 <= 1.0 / 60 * 1.25 }, "\(medians)")
        #expect(medians.contains { $0 < 1.0 / 100 } && medians.contains { $0 > 1.0 / 80 }, "\(medians)")
    }
}
