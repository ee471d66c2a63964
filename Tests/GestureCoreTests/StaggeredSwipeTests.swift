import GestureCore
import Testing

/// Swipes whose fingers land and lift up to 60 ms apart, and their near misses
/// (`StaggeredSwipes`), through the arena with every swipe bound: the finger
/// count and direction must be exact, and the swipe decided early.
@Suite("Staggered swipes")
struct StaggeredSwipeTests {
    static let rules = VariedSwipeTests.rules

    /// What a run of gestures gave, against what each had to be.
    struct Figures {
        var total = 0
        var exact = 0
        var swipes = 0
        var latencies: [Double] = []
        var shares: [Double] = []
        var beforeLastLift = 0
        var confusions: [String] = []

        func quantile(_ values: [Double], _ q: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((q * Double(sorted.count - 1)).rounded()))]
        }
        var medianMs: Double { 1000 * quantile(latencies, 0.5) }
        var p90Ms: Double { 1000 * quantile(latencies, 0.9) }
        var medianShare: Double { quantile(shares, 0.5) }
        var exactShare: Double { total == 0 ? 0 : Double(exact) / Double(total) }
        var earlyShare: Double { swipes == 0 ? 0 : Double(beforeLastLift) / Double(swipes) }

        var line: String {
            func f(_ v: Double, _ digits: Int) -> String {
                let scale = Double([1, 10, 100, 1000][digits])
                let r = (v * scale).rounded() / scale
                return "\(r)"
            }
            return "median \(f(medianMs, 1)) ms, p90 \(f(p90Ms, 1)) ms, median share \(f(medianShare, 2)), "
                + "\(f(100 * earlyShare, 1))% before the last lift, \(exact)/\(total) exact (\(f(100 * exactShare, 2))%)"
        }
    }

    static func measure(_ gestures: [StaggeredSwipes.Gesture], thresholds: Thresholds = Thresholds()) -> Figures {
        var figures = Figures()
        for g in gestures {
            let out = TouchScript.recognize(g.frames, rules: rules, thresholds: thresholds)
            let got: StaggeredSwipes.Expectation = out.count == 1 && out[0].event.direction != nil
                ? .swipe(fingers: out[0].event.fingers, direction: out[0].event.direction ?? .left) : .nothing
            figures.total += 1
            if got == g.expected && out.count <= 1 {
                figures.exact += 1
            } else {
                figures.confusions.append("\(g.family.rawValue) \(g.expected) on a \(g.device) at \(Int(g.rate)) Hz -> \(out.map { "\($0.event.fingers)-finger \($0.event.direction?.rawValue ?? "?")" })")
            }
            guard case .swipe = g.expected, let fired = out.first?.event.time else { continue }
            figures.swipes += 1
            let latency = fired - g.firstLanding
            figures.latencies.append(latency)
            figures.shares.append(latency / max(g.lastLift - g.firstLanding, 1e-9))
            if fired < g.lastLift { figures.beforeLastLift += 1 }
        }
        return figures
    }

    static let gestures: [StaggeredSwipes.Gesture] = {
        var generator = StaggeredSwipes(seed: 22)
        return generator.make(count: 3000)
    }()

    /// The swipes a hand makes on purpose, its fingers staggered: what the
    /// latency goals are for. Near-diagonal strokes are reported apart: their
    /// direction is not certain until more of them is drawn.
    static let ordinary: Set<StaggeredSwipes.Family> = [.swipe, .lateSecondFinger]

    @Test("every finger count and direction is exact on 3,000 staggered swipes and near misses")
    func exact() {
        let figures = Self.measure(Self.gestures)
        print("staggered: all 3,000 gestures: \(figures.line)")
        for family in StaggeredSwipes.Family.allCases {
            print("staggered: \(family.rawValue): \(Self.measure(Self.gestures.filter { $0.family == family }).line)")
        }
        for c in figures.confusions.prefix(20) { print("  confusion: \(c)") }
        #expect(figures.exact == figures.total)
        #expect(figures.swipes > 2000)
    }

    @Test("ordinary swipes are decided a median 70 ms or less after the first touch, p90 110 ms, 99% before the last lift")
    func early() {
        let figures = Self.measure(Self.gestures.filter { Self.ordinary.contains($0.family) })
        print("staggered: ordinary swipes: \(figures.line)")
        #expect(figures.medianMs <= 70)
        #expect(figures.p90Ms <= 110)
        #expect(figures.earlyShare >= 0.99)
    }

    @Test("a second finger landing 40–60 ms late on a hand already moving fast is counted", arguments: [0.04, 0.05, 0.06])
    func lateSecondFinger(late: Double) {
        for rate in [60.0, 120, 240] {
            let plan = TouchScript.stroke(fingers: 2, angle: 180, length: 40, duration: 0.1, stagger: [0, late])
            let out = TouchScript.recognize(TouchScript.frames(plan, rate: rate), rules: Self.rules)
            #expect(out.map { "\($0.event.fingers)-finger \($0.event.direction?.rawValue ?? "?")" } == ["2-finger left"], "\(late) s late at \(rate) Hz")
        }
    }

    @Test("with pan (waiting for the swipe to fail), pinch and rotate bound beside the swipes, each keeps its own")
    func arbitration() {
        var rules = Self.rules.enumerated().map { i, rule -> GestureRule in
            var named = rule
            named.name = "swipe\(i)"
            return named
        }
        let swipeNames = rules.compactMap(\.name)
        rules += [TouchScript.rule("pan", requiresFailureOf: swipeNames), TouchScript.rule("pinch"), TouchScript.rule("rotate")]
        var wrong: [String] = []
        for g in Self.gestures.prefix(600) where Self.ordinary.contains(g.family) {
            let kinds = TouchScript.recognize(g.frames, rules: rules).map { "\($0.event.kind.rawValue) \($0.event.fingers)" }
            guard case .swipe(let fingers, _) = g.expected, kinds == ["swipe \(fingers)"] else {
                wrong.append("\(g.expected) -> \(kinds)")
                continue
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        // Staggered pinches and turns, the second finger landing up to 60 ms late: never a swipe.
        var random = XorShift(seed: 5)
        for i in 0..<200 {
            let fingers = 2
            var plan = i % 4 < 2
                ? TouchScript.orbit(fingers: fingers, radius: (15, random.range(26, 40)), turn: random.range(-5, 5), duration: random.range(0.3, 0.6))
                : TouchScript.orbit(fingers: fingers, radius: (20, 20), turn: random.range(40, 90), duration: random.range(0.3, 0.6))
            for k in plan.indices.dropFirst() { plan[k].lands = random.range(0, StaggeredSwipes.maxStagger) }
            let out = TouchScript.recognize(TouchScript.frames(plan, rate: random.range(60, 240), noise: 0.2, seed: UInt64(i)), rules: rules)
            #expect(!out.contains { $0.event.kind == .swipe }, "\(out.map(TouchScript.summary))")
            #expect(out.contains { $0.event.kind == (i % 4 < 2 ? .pinch : .rotate) }, "\(i): \(out.map(TouchScript.summary))")
        }
    }

    /// The trade-off: a shorter `swipe_settle` decides sooner, until it is
    /// shorter than a hand's landings and counts fingers short.
    @Test("the latency against exactness curve over swipe_settle")
    func curve() {
        var rows: [(Double, Figures)] = []
        for settle in [0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1] {
            var thresholds = Thresholds()
            thresholds[.swipeSettle] = settle
            let figures = Self.measure(Self.gestures, thresholds: thresholds)
            let ordinary = Self.measure(Self.gestures.filter { Self.ordinary.contains($0.family) }, thresholds: thresholds)
            print("latency curve: swipe_settle \(settle) s: all: \(figures.line); ordinary: \(ordinary.line)")
            rows.append((settle, figures))
        }
        // Shorter than the hands' landings, counts come out short; from there
        // on, exact, and every step longer costs latency.
        #expect(rows.first?.1.exactShare ?? 1 < 0.99)
        for (settle, figures) in rows where settle >= StaggeredSwipes.maxStagger { #expect(figures.exact == figures.total, "\(settle)") }
        for (a, b) in zip(rows, rows.dropFirst()) { #expect(a.1.medianMs <= b.1.medianMs) }
    }
}
