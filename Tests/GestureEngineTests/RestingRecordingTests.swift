import Foundation
import GestureCore
import GestureEngine
import Testing

// Real recordings with a finger resting while another acts (ChromeOS
// firmware_TouchMTB; SOURCE.md states the outcomes), through the whole engine
// with Lua rules that ask for `resting` and report `g.resting`.

private func restingRules(_ specs: [String]) -> String {
    var text = """
    local function report(g)
      emit("gesture", { kind = g.kind, fingers = g.fingers, direction = g.direction, taps = g.taps, resting = g.resting })
    end

    """
    for spec in specs { text += "on(\(spec), report)\n" }
    return text
}

private func summaries(_ run: EvdevRecordingRun) throws -> [String] {
    try run.lines.map { line in
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let kind = object["kind"] as? String ?? "?"
        let fingers = (object["fingers"] as? NSNumber)?.intValue ?? -1
        let resting = (object["resting"] as? NSNumber)?.intValue ?? -1
        let direction = (object["direction"] as? String).map { " " + $0 } ?? ""
        return "\(fingers) \(kind)\(direction), \(resting) resting"
    }
}

@Suite("Resting contacts in real recordings", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/chromeos-autotest-firmware_TouchMTB beside the package"))
struct RestingRecordingTests {
    static let taps = [#""tap""#, #""2-finger tap""#, #""3-finger tap""#]

    @Test("stationary_finger_shift_with_2nd_finger_tap with 1–3-finger tap rules: one 1-finger tap beside the resting finger")
    func stationaryFingerTap() throws {
        let run = try runRecording([touchMTBPath("stationary_finger_shift_with_2nd_finger_tap.dat")], rules: restingRules(Self.taps))
        #expect(run.status == .ok)
        #expect(try summaries(run) == ["1 tap, 1 resting"])
    }

    /// The resting finger was down 13 s: one long press, at its start, and no
    /// other (its first 0.57 s is a finger circling 5 mm, no hold either).
    @Test("stationary_finger_shift_with_2nd_finger_tap with long-press rules too: the hold once, then the tap")
    func stationaryFingerTapWithLongPress() throws {
        let rules = restingRules(Self.taps + [#""long press""#, #""2-finger long press""#, #""double tap""#])
        let run = try runRecording([touchMTBPath("stationary_finger_shift_with_2nd_finger_tap.dat")], rules: rules)
        #expect(try summaries(run) == ["1 long_press, 0 resting", "1 tap, 1 resting"])
    }

    @Test("two_finger_with_slot_0: a 1-finger swipe down beside a resting finger, for a rule asking for one resting")
    func swipeBesideRestingFinger() throws {
        let specs = allSwipes.map { "\"\($0)\"" } + [#"{ kind = "swipe", fingers = 1, direction = "down", resting = 1 }"#]
        let run = try runRecording([touchMTBPath("two_finger_with_slot_0.dat")], rules: restingRules(specs))
        #expect(run.status == .ok)
        #expect(try summaries(run) == ["1 swipe down, 1 resting"])
        // The narrower rule served it: the last one, the only one naming resting.
        let rulesWithout = restingRules(allSwipes.map { "\"\($0)\"" } + [#"{ kind = "swipe", fingers = 1, resting = 0 }"#])
        let plain = try runRecording([touchMTBPath("two_finger_with_slot_0.dat")], rules: rulesWithout)
        #expect(try summaries(plain) == ["1 swipe down, 1 resting"])
    }
}
