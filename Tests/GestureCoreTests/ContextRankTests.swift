import GestureCore
import Testing

/// A rule for one application (or for held keys) beats the general rule for the
/// same gesture, whichever was defined last and however narrow the general one is.
@Suite("Context rank in rule choice")
struct ContextRankTests {
    static let swipeLeft = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 180, length: 40, duration: 0.2))

    static func ranked(_ phrase: String, _ rank: Int, active: Bool = true) -> GestureRule {
        var rule = TouchScript.rule(phrase)
        rule.contextRank = rank
        rule.isActive = active
        return rule
    }

    @Test("the ranked rule wins whether it is defined before or after the general one")
    func rankBeatsOrder() {
        let before = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 1), Self.ranked("two-finger swipe left", 0)])
        #expect(before.map(\.rule) == [0])
        let after = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 0), Self.ranked("two-finger swipe left", 1)])
        #expect(after.map(\.rule) == [1])
    }

    @Test("a ranked rule with a wider spec still beats a narrower general one")
    func rankBeatsSpecificity() {
        let out = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 0), Self.ranked("any-finger swipe", 1)])
        #expect(out.map(\.rule) == [1])
    }

    @Test("among equal ranks the narrower spec wins, then the later rule, as before")
    func equalRanks() {
        let narrow = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 2), Self.ranked("any-finger swipe", 2)])
        #expect(narrow.map(\.rule) == [0])
        let later = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 1), Self.ranked("two-finger swipe left", 1)])
        #expect(later.map(\.rule) == [1])
    }

    @Test("an inactive ranked rule (its application is not focused) leaves the gesture to the general rule")
    func inactiveRankedRule() {
        let out = TouchScript.recognize(Self.swipeLeft, rules: [Self.ranked("two-finger swipe left", 0), Self.ranked("two-finger swipe left", 1, active: false)])
        #expect(out.map(\.rule) == [0])
    }
}
