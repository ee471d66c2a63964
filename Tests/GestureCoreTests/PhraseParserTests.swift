import GestureCore
import Testing

@Suite("Gesture phrases")
struct PhraseParserTests {
    static func spec(_ phrase: String) -> GestureSpec? {
        if case .success(let s) = PhraseParser.parse(phrase) { return s }
        return nil
    }

    static func error(_ phrase: String) -> String? {
        if case .failure(let e) = PhraseParser.parse(phrase) { return e.message }
        return nil
    }

    @Test("the contract's phrases", arguments: [
        ("left", GestureSpec(kind: .swipe, fingers: .exactly(1), direction: .left)),
        ("two-finger left", GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .left)),
        ("2-finger swipe left", GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .left)),
        ("3 finger swipe up", GestureSpec(kind: .swipe, fingers: .exactly(3), direction: .up)),
        ("2-finger swipe down-left", GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .downLeft)),
        ("swipe up-left", GestureSpec(kind: .swipe, direction: .upLeft)),
        ("tap", GestureSpec(kind: .tap)),
        ("double tap", GestureSpec(kind: .tap, taps: 2)),
        ("two-finger tap", GestureSpec(kind: .tap, fingers: .exactly(2))),
        ("long press", GestureSpec(kind: .longPress)),
        ("pinch in", GestureSpec(kind: .pinch, direction: .in)),
        ("rotate clockwise", GestureSpec(kind: .rotate, direction: .clockwise)),
        ("edge swipe from left", GestureSpec(kind: .edgeSwipe, edge: .left)),
    ])
    func contractPhrases(phrase: String, expected: GestureSpec) {
        #expect(Self.spec(phrase) == expected)
    }

    @Test("case, hyphens and number words are interchangeable")
    func spellings() {
        let expected = GestureSpec(kind: .swipe, fingers: .exactly(3), direction: .up)
        for phrase in ["Three-Finger Swipe Up", "3 fingers swipe up", "three finger UP", "3-finger swipe up"] {
            #expect(Self.spec(phrase) == expected, "\(phrase)")
        }
        #expect(Self.spec("swipe up left") == GestureSpec(kind: .swipe, direction: .upLeft))
        #expect(Self.spec("any-finger swipe") == GestureSpec(kind: .swipe, fingers: .any))
        #expect(Self.spec("triple tap") == GestureSpec(kind: .tap, taps: 3))
        #expect(Self.spec("3-finger double tap") == GestureSpec(kind: .tap, fingers: .exactly(3), taps: 2))
        #expect(Self.spec("five finger swipe right") == GestureSpec(kind: .swipe, fingers: .exactly(5), direction: .right))
        #expect(Self.spec("rotate counter-clockwise") == GestureSpec(kind: .rotate, direction: .counterclockwise))
        #expect(Self.spec("edge swipe from the bottom edge") == GestureSpec(kind: .edgeSwipe, edge: .bottom))
        #expect(Self.spec("out") == GestureSpec(kind: .pinch, direction: .out))
    }

    @Test("pinch and rotate start at two fingers")
    func pinchFingers() {
        #expect(Self.spec("pinch")?.fingers == .exactly(2))
        #expect(Self.spec("3-finger pinch out")?.fingers == .exactly(3))
    }

    @Test("an unknown word is quoted with the phrase")
    func unknownWord() {
        #expect(Self.error("two-finger sideways") == "cannot read gesture phrase \"two-finger sideways\": unknown word \"sideways\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"")
    }

    @Test("each impossible phrase says why", arguments: [
        ("", "it is empty"),
        ("finger swipe left", "\"finger\" needs a count before it, as in \"two-finger swipe\""),
        ("seven-finger swipe", "unknown word \"seven\""),
        ("7 finger swipe left", "fingers must be 1 to 5 or \"any\", not 7"),
        ("swipe left right", "it names two directions, \"left\" and \"right\""),
        ("tap swipe", "it names two gestures, \"tap\" and \"swipe\""),
        ("tap left", "a tap has no direction; remove \"left\""),
        ("pinch left", "\"left\" is not a direction of pinch; use one of in, out"),
        ("one-finger pinch", "a pinch needs at least 2 fingers"),
        ("double swipe", "unknown word \"double\""),
        ("edge swipe", "an edge swipe needs its edge, as in \"edge swipe from left\""),
        ("edge swipe from left left", "an edge swipe from the left edge moves right, not left"),
        ("swipe from left", "\"from\" an edge belongs to an edge swipe"),
        ("2 swipe left", "a count needs \"finger\" after it, as in \"2-finger swipe\""),
    ])
    func reasons(phrase: String, reason: String) {
        #expect(Self.error(phrase) == "cannot read gesture phrase \"\(phrase)\": \(reason); phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"")
    }

    @Test("a spec reads back as a phrase that parses to the same spec")
    func roundTrip() {
        for phrase in ["left", "2-finger swipe up-right", "double tap", "3-finger tap", "long press", "pinch out",
                       "3-finger rotate counterclockwise", "edge swipe from top", "any-finger swipe", "pan"] {
            guard let spec = Self.spec(phrase) else {
                Issue.record("\(phrase) did not parse")
                continue
            }
            #expect(Self.spec(spec.phrase) == spec, "\(phrase) -> \(spec.phrase)")
        }
    }

    @Test("resting contacts: 'with N resting', 'with a resting thumb', 'with no resting finger'; the phrase reads back")
    func resting() {
        #expect(Self.spec("swipe left with 1 resting") == GestureSpec(kind: .swipe, direction: .left, resting: 1))
        #expect(Self.spec("2-finger swipe up with a resting thumb") == GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .up, resting: 1))
        #expect(Self.spec("tap with two resting fingers") == GestureSpec(kind: .tap, resting: 2))
        #expect(Self.spec("tap with no resting finger") == GestureSpec(kind: .tap, resting: 0))
        #expect(Self.spec("swipe left")?.resting == nil)
        #expect(GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .left, resting: 1).phrase == "2-finger swipe left with 1 resting")
        #expect(Self.spec("2-finger swipe left with 1 resting")?.phrase == "2-finger swipe left with 1 resting")
        #expect(Self.error("tap with") == "cannot read gesture phrase \"tap with\": \"with\" needs a count of resting contacts, as in \"swipe left with 1 resting\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"")
        #expect(Self.error("tap with 7 resting")?.contains("resting must be 0 to 4, not 7") == true)
        #expect(Self.error("tap with 1 resting with 2 resting")?.contains("it gives the resting count twice") == true)
    }

    @Test("a rule naming resting is narrower than one that does not, and matches only that count")
    func restingMatching() {
        var event = GestureEvent(kind: .swipe, phase: .ended, fingers: 1, direction: .left, time: 0)
        let any = GestureSpec(kind: .swipe, direction: .left)
        let one = GestureSpec(kind: .swipe, direction: .left, resting: 1)
        #expect(one.specificity == any.specificity + 1)
        #expect(any.matches(event) && !one.matches(event))
        event.resting = 1
        #expect(any.matches(event) && one.matches(event))
    }
}
