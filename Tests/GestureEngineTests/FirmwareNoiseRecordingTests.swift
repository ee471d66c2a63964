import Foundation
import GestureCore
import GestureEngine
import Testing

// ChromeOS firmware_TouchMTB recordings whose tracking ids split, change or jump
// mid-stroke (SOURCE.md: "Issue 7869", "Issue 7867", "Issue 7809"). The hand made
// one stroke, or a series of taps; the recognizer must not see more fingers, taps
// or swipes than the hand made. The device files carry their resolution.

@Suite("Firmware noise in real recordings", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/chromeos-autotest-firmware_TouchMTB beside the package"))
struct FirmwareNoiseRecordingTests {
    static let everything = allSwipes + tapsAndHolds + pinchesAndRotations + ["3-finger double tap"]

    static func summary(_ g: EvdevGesture) -> String {
        "\(g.fingers) \(g.kind)\(g.direction.map { " " + $0 } ?? "")\(g.taps > 1 ? " x\(g.taps)" : "")"
    }

    @Test("two_finger_fast_flick_id_split: a 2-finger swipe down (a third id lives 21 ms ahead of one finger)")
    func fastFlickIDSplit() throws {
        let run = try runRecording([touchMTBPath("two_finger_fast_flick_id_split.dat")], rules: evdevRules(Self.everything))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map(Self.summary) == ["2 swipe down"], "\(run.gestures)")
    }

    @Test("one_finger_fast_swipe_id_split: a 1-finger swipe left (a second id echoes the finger a report behind)")
    func fastSwipeIDSplit() throws {
        let run = try runRecording([touchMTBPath("one_finger_fast_swipe_id_split.dat")], rules: evdevRules(Self.everything))
        #expect(run.status == .ok)
        #expect(run.gestures.map(Self.summary) == ["1 swipe left"], "\(run.gestures)")
    }

    @Test("two_finger_id_change: one 2-finger stroke down, never three fingers")
    func idChange() throws {
        let run = try runRecording([touchMTBPath("two_finger_id_change.dat")], rules: evdevRules(Self.everything))
        #expect(run.status == .ok)
        #expect(run.gestures.map(Self.summary) == ["2 swipe down"], "\(run.gestures)")
    }

    /// Seven contacts alternating between two spots; one id jumps from the first
    /// spot to the second (the finger there lifted, another landed). Counting that
    /// split, eight touches. Some overlap in time (one finger lands before the
    /// other lifts), so a tap may hold two fingers, but never a finger that was
    /// not there, and the jump is no stroke.
    @Test("drumroll_lumpy: only taps, of at most two fingers and eight fingers in all; no swipe, no pan")
    func drumroll() throws {
        let run = try runRecording([touchMTBPath("drumroll_lumpy.dat")], rules: evdevRules(Self.everything + ["pan", "2-finger pan"]))
        #expect(run.status == .ok)
        #expect(run.gestures.allSatisfy { $0.kind == "tap" && $0.fingers <= 2 }, "\(run.gestures)")
        let fingers = run.gestures.reduce(0) { $0 + $1.fingers * max($1.taps, 1) }
        #expect(fingers <= 8, "\(run.gestures)")
        #expect(run.gestures.count >= 4, "\(run.gestures)")
    }

    /// The presses whose second finger landed before the
    /// first lifted, and lifted after it, down together briefly, are rolls:
    /// a one-finger tap per finger. Before rolls they were two-finger taps
    /// (1, 2, 1, 2 and 2 fingers); the last press, whose fingers lifted
    /// together, still is one. Eight fingers in all either way.
    @Test("drumroll_lumpy with tap, double tap and 2-finger tap rules: six one-finger taps (the rolls' fingers each its own), then one two-finger tap")
    func drumrollRolls() throws {
        let run = try runRecording([touchMTBPath("drumroll_lumpy.dat")], rules: evdevRules(["tap", "double tap", "2-finger tap"]))
        #expect(run.status == .ok)
        #expect(run.gestures.map(Self.summary) == Array(repeating: "1 tap", count: 6) + ["2 tap"], "\(run.gestures)")
    }

    @Test("x_y_multiple_slots: an 80 ms spread is a 2-finger pinch out, judged at its first lift")
    func quickSpread() throws {
        let run = try runRecording([touchMTBPath("x_y_multiple_slots.dat")], rules: evdevRules(Self.everything))
        #expect(run.status == .ok)
        #expect(run.messages.isEmpty, "\(run.messages)")
        #expect(run.gestures.map(Self.summary) == ["2 pinch out"], "\(run.gestures)")
    }

    @Test("--trace says what the continuity stage joined and split")
    func traceNamesRepairs() throws {
        let run = try runRecording([touchMTBPath("two_finger_fast_flick_id_split.dat")], rules: evdevRules(Self.everything)) { $0.trace = .text }
        #expect(run.messages.contains { $0.contains("input: contact 3 landed beside another; held a frame") }, "\(run.messages)")
        #expect(run.messages.contains { $0.contains("input: contact 3 continues contact 1 (the firmware changed its id)") }, "\(run.messages)")
        let drum = try runRecording([touchMTBPath("drumroll_lumpy.dat")], rules: evdevRules(["tap"])) { $0.trace = .text }
        #expect(drum.messages.contains { $0.contains("input: contact 3 jumped 23 mm from rest in one report; split into a lift and a new landing") }, "\(drum.messages)")
    }
}
