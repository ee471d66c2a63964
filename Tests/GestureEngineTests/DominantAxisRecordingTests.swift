import Foundation
import GestureCore
import GestureEngine
import Testing

// Real fast strokes 35–37° off their axis: SOURCE.md names each by its dominant
// axis, as libinput-gestures and fusuma do with four directions bound. A 30°
// limit dropped them all; `swipe_max_angle` is 44° now (docs/defaults.md).

@Suite("Strokes named by their dominant axis", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/chromeos-autotest-firmware_TouchMTB beside the package"))
struct DominantAxisRecordingTests {
    static func summary(_ g: EvdevGesture) -> String {
        "\(g.fingers) \(g.kind)\(g.direction.map { " " + $0 } ?? "")"
    }

    @Test("fast 1-finger swipes and a diagonal 2-finger scroll give their dominant direction, with four-way rules", arguments: [
        ("one_finger_swipe.dat", "1 swipe left"),
        ("one_finger_swipe.evemu.dat", "1 swipe left"),
        ("one_finger_with_slot_0.dat", "1 swipe down"),
        ("one_finger_without_slot_0.dat", "1 swipe down"),
        ("2f_scroll_diagonal.dat", "2 swipe down"),
    ])
    func dominantAxis(file: String, expected: String) throws {
        let run = try runRecording([touchMTBPath(file)], rules: evdevRules(allSwipes))
        #expect(run.status == .ok)
        #expect(run.gestures.map(Self.summary) == [expected], "\(run.gestures)")
    }

    @Test("the same strokes with swipe_max_angle = 30 (the old default) are no swipe")
    func narrower() throws {
        let rules = "config{ swipe_max_angle = 30 }\n" + evdevRules(allSwipes)
        for file in ["one_finger_swipe.dat", "one_finger_with_slot_0.dat", "2f_scroll_diagonal.dat"] {
            let run = try runRecording([touchMTBPath(file)], rules: rules)
            #expect(run.gestures.isEmpty, "\(file): \(run.gestures)")
        }
    }
}
