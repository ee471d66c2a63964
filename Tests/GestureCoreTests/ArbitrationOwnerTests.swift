@testable import GestureCore
import Testing

/// `Arbitration` on its own: transitions in, deliveries out, and the
/// recognizers that lost failed, with no frames and no arena around it.
@Suite("Arbitration, the owner: transitions in, deliveries out")
struct ArbitrationOwnerTests {
    static func rule(_ phrase: String, name: String? = nil, requiresFailureOf: [String] = []) -> GestureRule {
        guard case .success(let spec) = PhraseParser.parse(phrase) else { preconditionFailure(phrase) }
        return GestureRule(spec: spec, name: name, requiresFailureOf: requiresFailureOf)
    }

    /// A tap and a long-press recognizer, both `possible`, and arbitration for `rules`.
    static func setUp(_ rules: [GestureRule]) -> (Arbitration, ArenaStage) {
        var stage = ArenaStage()
        stage.trace.isOn = true
        let specs = rules.map(\.spec)
        stage.recognizers.add(longPress: LongPressRecognizer(config: .init(rules: specs, thresholds: Thresholds())))
        stage.recognizers.add(tap: TapRecognizer(config: .init(rules: specs, thresholds: Thresholds())))
        var arbitration = Arbitration(rules: rules)
        arbitration.rebuilt(stage.recognizers.slots.map { Arbitration.Slot(kind: stage.recognizers.kind($0), name: nil) })
        return (arbitration, stage)
    }

    static func ended(_ kind: GestureKind, at time: Double, start: Double) -> Transition {
        let event = GestureEvent(kind: kind, phase: .ended, fingers: 1, time: time, taps: kind == .tap ? 1 : 0, start: start)
        return Transition(kind: kind, from: .possible, to: .ended, cause: .lift, event: event)
    }

    /// A continuous gesture's first event.
    static func began(_ kind: GestureKind, at time: Double, start: Double) -> Transition {
        let event = GestureEvent(kind: kind, phase: .began, fingers: 1, time: time, start: start)
        return Transition(kind: kind, from: .possible, to: .began, cause: .timeout, event: event)
    }

    @Test("a recognized gesture goes to its rule, and the recognizer that could still recognize fails, its failure resolved in the same pass")
    func winnerTakesAll() {
        var (arbitration, stage) = Self.setUp([Self.rule("tap"), Self.rule("long press")])
        var transitions = [Self.ended(.tap, at: 1.05, start: 1)]
        var out: [Delivery] = []
        arbitration.resolve(&transitions, in: &stage, at: 1.05, into: &out)
        #expect(out.map(\.rule) == [RuleID(0)])
        #expect(stage.recognizers.state(SlotID(index: 0)) == .failed)
        #expect(transitions.isEmpty)
        #expect(stage.trace.records.map(\.text).contains { $0.contains("long_press: possible → lost to rule \"tap\" → failed") },
                "\(stage.trace.records.map(\.text))")
    }

    @Test("a gesture whose rule requires another to fail waits while it may succeed, and goes out, dated then, when it fails")
    func heldUntilFailure() {
        var (arbitration, stage) = Self.setUp([Self.rule("long press", name: "hold"), Self.rule("tap", requiresFailureOf: ["hold"])])
        var transitions = [Self.ended(.tap, at: 1.05, start: 1)]
        var out: [Delivery] = []
        arbitration.resolve(&transitions, in: &stage, at: 1.05, into: &out)
        #expect(out.isEmpty)
        #expect(!arbitration.holdsNothing)
        stage.recognizers.forceFail(SlotID(index: 0), at: 1.4, cause: .sequenceEnded, tracker: stage.tracker, into: &transitions)
        arbitration.resolve(&transitions, in: &stage, at: 1.4, into: &out)
        #expect(out.map(\.rule) == [RuleID(1)])
        #expect(out.first?.event.time == 1.4)
        #expect(arbitration.holdsNothing)
    }

    @Test("a gesture whose rule requires another to fail is dropped when that one is recognized")
    func droppedWhenRecognized() {
        var (arbitration, stage) = Self.setUp([Self.rule("long press", name: "hold"), Self.rule("tap", requiresFailureOf: ["hold"])])
        var transitions = [Self.ended(.tap, at: 1.05, start: 1)]
        var out: [Delivery] = []
        arbitration.resolve(&transitions, in: &stage, at: 1.05, into: &out)
        transitions = [Self.began(.longPress, at: 1.5, start: 1)]
        arbitration.resolve(&transitions, in: &stage, at: 1.5, into: &out)
        #expect(out.map(\.rule) == [RuleID(0)])
        #expect(stage.trace.records.map(\.text).contains { $0.contains("dropped") }, "\(stage.trace.records.map(\.text))")
    }

    @Test("two recognized in one pass: the gesture that began first wins the tie")
    func tie() {
        var (arbitration, stage) = Self.setUp([Self.rule("tap"), Self.rule("long press")])
        var transitions = [Self.ended(.tap, at: 2, start: 1.9), Self.began(.longPress, at: 2, start: 1.2)]
        var out: [Delivery] = []
        arbitration.resolve(&transitions, in: &stage, at: 2, into: &out)
        #expect(out.map(\.rule) == [RuleID(1)])
    }

    @Test("a delivery is dated no earlier than the latest time the arena acted at")
    func timeOrder() {
        var (arbitration, stage) = Self.setUp([Self.rule("tap")])
        arbitration.now = 3
        var transitions = [Self.ended(.tap, at: 2.5, start: 2.4)]
        var out: [Delivery] = []
        arbitration.resolve(&transitions, in: &stage, at: 3, into: &out)
        #expect(out.first?.event.time == 3)
        #expect(arbitration.rules[0].lastFired == 3)
    }

    @Test("rules turned off and on: said only when something changed")
    func activity() {
        var (arbitration, _) = Self.setUp([Self.rule("tap"), Self.rule("long press")])
        let unchanged = arbitration.setActive([true, true])
        let changed = arbitration.setActive([true, false])
        #expect(!unchanged && changed)
        #expect(arbitration.rules.map(\.isActive) == [true, false])
    }
}
