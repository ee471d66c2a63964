import Foundation
import GestureCore
import Testing

/// A touchpad's physical click as a gesture: by the fingers down at the click,
/// and where they are (a half of the surface, an edge's zone).
@Suite("Clicks by finger count and place")
struct ClickRecognizerTests {
    /// `fingers` still fingers around `centre` for 0.3 s, the button going down at the 10th frame.
    static func click(_ fingers: Int, at centre: Vector, clickedAt index: Int = 10, drift: Vector = .zero) -> [TouchFrame] {
        var frames = TouchScript.frames(TouchScript.press(fingers: fingers, duration: 0.3, at: centre, drift: drift))
        frames[index].clicked = true
        return frames
    }

    static func rule(_ spec: GestureSpec) -> GestureRule { GestureRule(spec: spec) }

    static let halves = [Edge.left, .right].map { rule(GestureSpec(kind: .click, fingers: .exactly(2), side: $0)) }

    @Test("two fingers clicking on the left half and on the right half: each its own rule, once, at the click")
    func halves() {
        let left = TouchScript.recognize(Self.click(2, at: Vector(60, 75)), rules: Self.halves)
        #expect(left.map(TouchScript.summary) == ["click 2 ended"])
        #expect(left.first.map { Self.halves[0].spec.matches($0.event) && !Self.halves[1].spec.matches($0.event) } == true)
        #expect(left.first?.event.time == Self.click(2, at: Vector(60, 75))[10].time)
        let right = TouchScript.recognize(Self.click(2, at: Vector(190, 75)), rules: Self.halves)
        #expect(right.first.map { Self.halves[1].spec.matches($0.event) && !Self.halves[0].spec.matches($0.event) } == true)
    }

    @Test("the fingers are counted at the click: three fingers are no two-finger click, and no click at all is none")
    func fingerCount() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(2)))]
        #expect(TouchScript.recognize(Self.click(3, at: Vector(120, 75)), rules: rules).isEmpty)
        #expect(TouchScript.recognize(TouchScript.frames(TouchScript.press(fingers: 2, duration: 0.3)), rules: rules).isEmpty)
        #expect(TouchScript.recognize(Self.click(2, at: Vector(120, 75)), rules: rules).map(TouchScript.summary) == ["click 2 ended"])
    }

    @Test("one finger in the bottom edge's zone: the click says so, and a rule for that edge takes it; higher up it does not")
    func edge() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(1), edge: .bottom))]
        let low = TouchScript.recognize(Self.click(1, at: Vector(120, 148)), rules: rules)
        #expect(low.map(TouchScript.summary) == ["click 1 from bottom ended"])
        #expect(TouchScript.recognize(Self.click(1, at: Vector(120, 100)), rules: rules).isEmpty)
    }

    @Test("fingers that moved past tap_max_movement before clicking are a pointer's: no click, and the trace says why")
    func movedFirst() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(1)))]
        let dragged = Self.click(1, at: Vector(120, 75), clickedAt: 25, drift: Vector(20, 0))
        #expect(TouchScript.recognize(dragged, rules: rules).isEmpty)
        var arena = GestureArena(rules: rules)
        arena.tracing = true
        var out: [Delivery] = []
        for f in dragged { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        #expect(arena.traceLines.contains { $0.contains("click: possible → moved") && $0.hasSuffix("→ failed") }, "\(arena.traceLines)")
    }

    @Test("a click wins the sequence: a tap or long press bound beside it gets nothing, and a click rule does not stop a tap")
    func besideTaps() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(2))), TouchScript.rule("2-finger tap"), TouchScript.rule("2-finger long press")]
        #expect(TouchScript.recognize(Self.click(2, at: Vector(120, 75), clickedAt: 5), rules: rules).map(TouchScript.summary) == ["click 2 ended"])
        let tap = TouchScript.frames(TouchScript.press(fingers: 2, duration: 0.1))
        #expect(TouchScript.recognize(tap, rules: rules).map(TouchScript.summary) == ["tap 2 x1 ended"])
    }

    @Test("a claimed click rule keeps a shared device's touches only while they may still click: until they move or lift")
    func claims() {
        var rule = Self.rule(GestureSpec(kind: .click, fingers: .exactly(2)))
        rule.claims = true
        let moving = TouchScript.frames(TouchScript.press(fingers: 2, duration: 0.3, drift: Vector(30, 0)))
        var arena = GestureArena(rules: [rule])
        var out: [Delivery] = []
        var open: [Bool] = []
        for f in moving {
            arena.handle(f, into: &out)
            open.append(arena.claimMayStillFire)
        }
        #expect(open.first == true)
        #expect(open.last == false)
        #expect(open.firstIndex(of: false).map { $0 < moving.count - 1 } == true, "the claim must fail while the fingers are still down")
    }

    @Test("phrases and specs: \"2-finger click\" reads, where belongs to clicks, edge to edge swipes and clicks")
    func specs() throws {
        guard case .success(let spec) = PhraseParser.parse("2-finger click") else { Issue.record("no parse"); return }
        #expect(spec == GestureSpec(kind: .click, fingers: .exactly(2)))
        #expect(GestureSpec(kind: .click, fingers: .exactly(2), side: .left).phrase == "2-finger click on the left half")
        #expect(GestureSpec(kind: .click, edge: .bottom).phrase == "click on the bottom edge")
        for text in ["2-finger click on the left half", "click on the bottom edge", "3-finger click on top"] {
            guard case .success(let read) = PhraseParser.parse(text) else { Issue.record("\(text) does not parse"); continue }
            #expect(PhraseParser.parse(read.phrase) == .success(read), "\(text) → \(read.phrase)")
        }
        #expect(PhraseParser.parse("click on the bottom edge") == .success(GestureSpec(kind: .click, edge: .bottom)))
        guard case .failure(let misplaced) = PhraseParser.parse("swipe left on the left half") else { Issue.record("a swipe on a half parsed"); return }
        #expect(misplaced.reason == "\"on\" a half belongs to a click, as in \"2-finger click on the left half\"")
    }

    @Test("phrases keep an edge's two words apart: \"from\" is an edge swipe's, \"on the ... edge\" a click's (the fuzzer's reproducer, kept as a seed)", arguments: [
        ("from left---click", "\"from\" an edge belongs to an edge swipe"),
        ("swipe up on the bottom edge", "\"on\" an edge belongs to a click, as in \"click on the bottom edge\""),
    ])
    func edgeWords(phrase: String, reason: String) throws {
        let reproducer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz/phrase/click-from-an-edge")
        #expect(try String(contentsOf: reproducer, encoding: .utf8) == "from left---click")
        guard case .failure(let error) = PhraseParser.parse(phrase) else { Issue.record("\(phrase) parsed"); return }
        #expect(error.reason == reason)
        #expect(error.message.contains(phrase))
        #expect(PhraseParser.parse("edge swipe from left") == .success(GestureSpec(kind: .edgeSwipe, edge: .left)))
        #expect(throws: SpecValidationError.sideNotOf(.tap)) { try GestureSpec(kind: .tap, side: .left).validate() }
        #expect(throws: SpecValidationError.edgeNotOf(.swipe)) { try GestureSpec(kind: .swipe, edge: .left).validate() }
        #expect(SpecValidationError.sideNotOf(.tap).description == #""where" belongs to kind "click", not "tap""#)
        try GestureSpec(kind: .click, fingers: .exactly(1), edge: .bottom).validate()
    }

    /// A finger still at `first` from the start, a second landing at `second`
    /// 0.5 s later, the button going down 0.2 s after that.
    static func oneThenAnother(first: Vector, second: Vector) -> [TouchFrame] {
        let plans = [FingerPlan(lands: 0, lifts: 0.9, at: { _ in first }), FingerPlan(lands: 0.5, lifts: 0.9, at: { _ in second })]
        var frames = TouchScript.frames(plans)
        if let i = frames.firstIndex(where: { $0.time >= 1.7 }) { frames[i].clicked = true }
        return frames
    }

    @Test("two fingers put down one after the other, then pressed, are a 2-finger click, as libinput's clickfinger counts them, though the first came to rest as the second landed")
    func fingersPutDownInTurn() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(2))), Self.rule(GestureSpec(kind: .click, fingers: .exactly(1)))]
        let got = TouchScript.recognize(Self.oneThenAnother(first: Vector(100, 60), second: Vector(130, 60)), rules: rules)
        #expect(got.map(TouchScript.summary) == ["click 2 ended"])
        #expect(got.first?.rule == RuleID(0))
    }

    @Test("a thumb resting in the pad's bottom 15% is no finger of the click: one finger pressing beside it is a 1-finger click, with 1 resting")
    func restingThumb() {
        let rules = [Self.rule(GestureSpec(kind: .click, fingers: .exactly(2))), Self.rule(GestureSpec(kind: .click, fingers: .exactly(1)))]
        let got = TouchScript.recognize(Self.oneThenAnother(first: Vector(80, 142), second: Vector(130, 60)), rules: rules)
        #expect(got.map(TouchScript.summary) == ["click 1 ended"])
        #expect(got.first?.event.resting == 1)
    }
}
