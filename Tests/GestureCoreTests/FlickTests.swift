import GestureCore
import Testing

/// A flick is a short pan (or pinch, or rotation): fingers that lift before the
/// count has settled still made the gesture, which begins, changes and ends at
/// the lift with the count it had (fusuma, through libinput, reports begin and
/// update for one). Beside swipe rules of other directions, and with a rule of
/// more fingers bound that makes the count wait.
@Suite("Flicks begin continuous gestures")
struct FlickTests {
    static let rate = 100.0

    /// The phases delivered for `kind`, with the fingers of each.
    static func phases(_ out: [Delivery], _ kind: GestureKind) -> [String] {
        out.filter { $0.event.kind == kind }.map { "\($0.event.fingers) \($0.event.phase)" }
    }

    @Test("a 3-finger flick up of 130 ms beside 3-finger swipes left and right, with a 4-finger pan bound: the 3-finger pan begins, changes and ends at the lift, with the flick's travel")
    func panFlick() throws {
        // 34 mm up in 130 ms, lifting at once: before finger_settle (0.1 s after the last landing) has passed... just.
        let plan = TouchScript.stroke(fingers: 3, angle: -90, length: 34, duration: 0.09, stagger: [0, 0.004, 0.008])
        let frames = TouchScript.frames(plan, rate: Self.rate)
        let rules = [TouchScript.rule("3-finger swipe left"), TouchScript.rule("3-finger swipe right"),
                     TouchScript.rule("3-finger pan", allPhases: true), TouchScript.rule("4-finger pan", allPhases: true)]
        let out = TouchScript.recognize(frames, rules: rules)
        #expect(Self.phases(out, .pan) == ["3 began", "3 changed", "3 ended"], "\(out.map(TouchScript.summary))")
        let began = try #require(out.first { $0.event.kind == .pan }?.event)
        let lift = try #require(frames.last { $0.touches.contains { $0.phase == .ended } }?.time)
        #expect(began.direction == .up && began.time == lift, "\(began)")
        // The travel the fingers made before they lifted.
        let ended = try #require(out.last { $0.event.kind == .pan }?.event)
        #expect(ended.delta.y < -25, "\(ended.delta)")
        #expect(!out.contains { $0.event.kind == .swipe })
    }

    @Test("a stroke that lifts short of pan_min_distance is still no pan")
    func shortFlickIsNoPan() {
        let plan = TouchScript.stroke(fingers: 3, angle: -90, length: 3, duration: 0.06)
        let out = TouchScript.recognize(TouchScript.frames(plan, rate: Self.rate),
                                        rules: [TouchScript.rule("3-finger pan", allPhases: true), TouchScript.rule("4-finger pan", allPhases: true)])
        #expect(Self.phases(out, .pan).isEmpty, "\(out.map(TouchScript.summary))")
    }

    @Test("a quick 2-finger pinch and a quick 2-finger rotation that lift before the count settles, with 3-finger rules bound: they begin, change and end at the lift",
          arguments: [GestureKind.pinch, .rotate])
    func transformFlick(kind: GestureKind) throws {
        let plan = kind == .pinch
            ? TouchScript.orbit(fingers: 2, radius: (10, 26), turn: 0, duration: 0.05, settle: 0.01)
            : TouchScript.orbit(fingers: 2, radius: (18, 18), turn: 60, duration: 0.05, settle: 0.01)
        let frames = TouchScript.frames(plan, rate: Self.rate)
        let rules = [TouchScript.rule("2-finger \(kind.rawValue)", allPhases: true), TouchScript.rule("3-finger \(kind.rawValue)", allPhases: true)]
        let out = TouchScript.recognize(frames, rules: rules)
        #expect(Self.phases(out, kind) == ["2 began", "2 changed", "2 ended"], "\(out.map(TouchScript.summary))")
        let lift = try #require(frames.first { $0.touches.contains { $0.phase == .ended } }?.time)
        #expect(out.first { $0.event.kind == kind }?.event.time == lift)
    }
}
