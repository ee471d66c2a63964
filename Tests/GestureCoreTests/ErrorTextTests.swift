import GestureCore
import Testing

/// Errors' words are what rule authors and tools read: each case, exactly.
@Suite("Error texts")
struct ErrorTextTests {
    static func validation(_ spec: GestureSpec) -> SpecValidationError? {
        do {
            try spec.validate()
            return nil
        } catch {
            return error
        }
    }

    @Test("a spec that cannot match says why")
    func specs() {
        let cases: [(GestureSpec, SpecValidationError, String)] = [
            (GestureSpec(kind: .swipe, fingers: .exactly(6)), .fingers(6), #"fingers must be 1 to 5 or "any", not 6"#),
            (GestureSpec(kind: .pinch, fingers: .exactly(1)), .tooFewFingers(.pinch), "a pinch needs at least 2 fingers"),
            (GestureSpec(kind: .longPress, direction: .left), .noDirection(.longPress, .left), #"a long press has no direction; remove "left""#),
            (GestureSpec(kind: .pinch, direction: .left), .wrongDirection(.left, .pinch), #""left" is not a direction of pinch; use one of in, out"#),
            (GestureSpec(kind: .tap, taps: 4), .taps(4), "taps must be 1 to 3, not 4"),
            (GestureSpec(kind: .tap, resting: 5), .resting(5), "resting must be 0 to 4, not 5"),
            (GestureSpec(kind: .edgeSwipe, direction: .up, edge: .left), .edgeDirection(.left, .up), "an edge swipe from the left edge moves right, not up"),
            (GestureSpec(kind: .shape, fingers: .exactly(2)), .shapeFingers, #"a shape is drawn with one finger; remove "fingers""#),
            (GestureSpec(kind: .shape, name: ""), .emptyShapeName, "a shape's name cannot be empty"),
            (GestureSpec(kind: .shape, name: "circle", minScore: 1.5), .minScore(1.5), "min_score must be from 0 to 1, not 1.5"),
            (GestureSpec(kind: .custom), .unnamedRecognizer, "a recognizer's kind needs its name"),
            (GestureSpec(kind: .custom, name: "zigzag", minScore: 0.5), .minScoreOnRecognizer("zigzag"), #"min_score belongs to shapes, not "zigzag""#),
            (GestureSpec(kind: .longPress, minScore: 0.5), .minScoreOnKind(.longPress), "min_score belongs to shapes, not long press"),
            (GestureSpec(kind: .edgeSwipe, name: "x"), .nameOnKind(.edgeSwipe), "a name belongs to shapes and recognizers, not edge swipe"),
        ]
        for (spec, error, text) in cases {
            #expect(Self.validation(spec) == error)
            #expect(error.description == text)
        }
        #expect(Self.validation(GestureSpec(kind: .swipe, fingers: .exactly(2), direction: .left)) == nil)
    }

    @Test("a phrase that reads but cannot match gives the spec's reason")
    func phrases() {
        let reason: String? = if case .failure(let error) = PhraseParser.parse("6 finger swipe left") { error.reason } else { nil }
        #expect(reason == #"fingers must be 1 to 5 or "any", not 6"#)
    }

    @Test("shape names")
    func shapeNames() {
        #expect(throws: ShapeNameError.empty) { try ShapeName.validate("") }
        #expect(throws: ShapeNameError.tooLong) { try ShapeName.validate(String(repeating: "o", count: 65)) }
        #expect(throws: ShapeNameError.unwritable) { try ShapeName.validate("a\"b") }
        #expect(throws: Never.self) { try ShapeName.validate("left_curly_brace") }
        #expect(ShapeNameError.empty.description == "a shape needs a name")
        #expect(ShapeNameError.tooLong.description == "a shape's name is at most 64 bytes")
        #expect(ShapeNameError.unwritable.description == "a shape's name cannot hold control characters, quotes or backslashes")
    }

    @Test("config{} keys")
    func configKeys() {
        var thresholds = Thresholds()
        #expect(throws: ConfigKeyError.unknown("swipe_distance")) { try thresholds.set(name: "swipe_distance", value: 1) }
        #expect(throws: ConfigKeyError.outOfRange(.tapInterval, .infinity)) { try thresholds.set(name: "tap_interval", value: .infinity) }
        #expect(ConfigKeyError.unknown("x").description.hasPrefix(#"unknown config key "x"; known keys: finger_settle, swipe_min_distance, "#))
        #expect(ConfigKeyError.outOfRange(.swipeMinDistance, 0.5).description == #"config key "swipe_min_distance" must be between 1 and 200 mm, not 0.5"#)
        #expect(ConfigKeyError.outOfRange(.swipeMaxDuration, 10).description == #"config key "swipe_max_duration" must be between 0.05 and 5 s, not 10"#)
    }

    @Test("a switch is on or off: 1 and 0 set it, any other number is refused with what to write")
    func switches() throws {
        var thresholds = Thresholds()
        #expect(!thresholds.isOn(.share))
        try thresholds.set(name: "share", value: 1)
        #expect(thresholds.isOn(.share))
        #expect(throws: ConfigKeyError.notASwitch(.share, 0.7)) { try thresholds.set(name: "share", value: 0.7) }
        #expect(thresholds.isOn(.share))
        try thresholds.set(name: "share", value: 0)
        #expect(!thresholds.isOn(.share))
        #expect(ConfigKeyError.notASwitch(.share, 0.7).description == #"config key "share" is on or off: true or false (or 1 or 0), not 0.7"#)
    }
}
