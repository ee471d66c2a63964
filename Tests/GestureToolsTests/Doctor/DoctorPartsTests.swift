import GestureCore
@testable import GestureTools
import Testing

@Suite("doctor's parts")
struct DoctorPartsTests {
    static func spec(_ phrase: String) throws -> GestureSpec {
        guard case .success(let spec) = PhraseParser.parse(phrase) else { throw DoctorTestError("no phrase \(phrase)") }
        return spec
    }

    @Test("sysfs bitmaps: hexadecimal words, the most significant first")
    func bits() {
        // A touchscreen's abs: ABS_X, ABS_Y, ABS_MT_SLOT (0x2f), ABS_MT_POSITION_X/Y (0x35, 0x36), ABS_MT_TRACKING_ID (0x39).
        #expect(TouchDeviceSurvey.parseBits("260800000000003\n") == [0, 1, 0x2f, 0x35, 0x36, 0x39])
        #expect(TouchDeviceSurvey.parseBits("1 0") == [64])
        #expect(TouchDeviceSurvey.parseBits("zz 1") == [0])
        #expect(TouchDeviceSurvey.parseBits("").isEmpty)
    }

    @Test("sway's bindgesture lines: kind, fingers, ways, flags skipped; other lines ignored")
    func sway() {
        let config = """
            output HEADLESS-1 resolution 1280x800
            bindgesture swipe:3:right workspace next
            bindgesture --exact swipe:4:up+down exec wofi
            bindgesture pinch:inward+outward exec zoom
            bindgesture hold:3 exec notify
            bindsym Mod4+Return exec foot
            bindgesture nonsense:3:left exec x
            """
        let gestures = DesktopGesture.sway(config: config)
        #expect(gestures == [
            DesktopGesture(.swipe, fingers: 3, [.right], "runs \"workspace next\""),
            DesktopGesture(.swipe, fingers: 4, [.up, .down], "runs \"exec wofi\""),
            DesktopGesture(.pinch, fingers: nil, [.in, .out], "runs \"exec zoom\""),
            DesktopGesture(.hold, fingers: 3, [], "runs \"exec notify\""),
        ])
    }

    @Test("a collision: same kind (a pan is a swipe's fingers too), same count or any, same way or any")
    func collisions() throws {
        func collides(_ gestures: [DesktopGesture], _ phrase: String) throws -> Bool {
            let spec = try Self.spec(phrase)
            return gestures.contains { $0.collides(with: spec) }
        }
        let gnome = DesktopGesture.gnome(major: 45)
        #expect(try collides(gnome, "3-finger swipe left"))
        #expect(try collides(gnome, "3-finger pan"))
        #expect(try !collides(gnome, "4-finger swipe left"))
        #expect(try collides(DesktopGesture.gnome(major: 47), "4-finger swipe up"))
        #expect(try !collides(gnome, "3-finger tap"))
        #expect(DesktopGesture.gnome(major: 3).isEmpty)
        let sway = [DesktopGesture(.swipe, fingers: 3, [.right], "")]
        #expect(try !collides(sway, "3-finger swipe left"))
        #expect(try !collides(sway, "swipe right"))
        #expect(try collides([DesktopGesture(.pinch, fingers: nil, [], "")], "pinch in"))
        #expect(try collides(DesktopGesture.kde(major: 6), "4-finger swipe down"))
    }

    @Test("Hyprland: the workspace swipe option and 0.51's gesture lines")
    func hyprland() {
        let found = DesktopGesture.hyprland(workspaceSwipe: true, fingers: 4, gestureLines: ["gesture = 3, horizontal, workspace", "gesture=4, up, dispatcher, exec, wofi", "gesture = x"])
        #expect(found.map(\.phrase) == ["4-finger swipe left/right", "3-finger swipe left/right", "4-finger swipe up"])
    }

    @Test("versions from what the programs print, compared number by number")
    func versions() {
        #expect(DesktopVersion(parsing: "GNOME Shell 43.9\n")?.major == 43)
        #expect(DesktopVersion(parsing: "sway version 1.7")?.text == "1.7")
        #expect(DesktopVersion(parsing: "plasmashell 5.27.5")?.numbers == [5, 27, 5])
        #expect(DesktopVersion(parsing: "v0.41.2-b")?.numbers == [0, 41, 2])
        #expect(DesktopVersion(parsing: "nothing here") == nil)
        #expect(DesktopVersion(parsing: "version 2 of 3") == nil)
        #expect(DesktopVersion(1, 7) < DesktopExamination.swayBindgesture)
        #expect(DesktopVersion(1, 8, 0) >= DesktopExamination.swayBindgesture)
        #expect(DesktopVersion(1, 10) > DesktopVersion(1, 9))
        #expect(DesktopVersion(0, 50, 1) < DesktopExamination.hyprlandGestureLines)
    }

    @Test("sway's bindgesture lines, as written, for saying which do nothing")
    func swayLines() {
        #expect(DesktopGesture.swayBindgestureLines(config: "bindsym a b\n  bindgesture swipe:3:left workspace prev  \nbindgestures x\n")
                == ["bindgesture swipe:3:left workspace prev"])
    }

    @Test("the programs exec and shell name, by their first literal word")
    func programs() {
        let source = Array("""
            on("tap", function(g) exec{"xdotool", "key", "Next"} end)
            on("swipe up", function(g) shell("notify-send hi") end)
            on("swipe down", function(g) exec({ 'wmctrl', '-s', '1' }); myexec("not-this") end)
            local cmd = "x"; exec{cmd}
            """.utf8)
        #expect(ProgramNames.called(in: [source]) == ["xdotool", "wmctrl", "notify-send"])
    }

    @Test("the report: a line a finding, fixes under them; it passes without problems")
    func report() {
        var report = DoctorReport()
        report.add("uinput", [DoctorFinding(.ok, "/dev/uinput: writable")])
        #expect(report.passes)
        report.add("touch devices", [DoctorFinding(.problem, "/dev/input/event5: this user may not read it", fix: "one\ntwo")])
        #expect(!report.passes)
        #expect(report.lines == [
            "uinput",
            "  ok       /dev/uinput: writable",
            "touch devices",
            "  PROBLEM  /dev/input/event5: this user may not read it",
            "           fix: one",
            "                two",
            "gesturemap doctor: 1 problem in the way of a run, each with its fix above",
        ])
    }
}

struct DoctorTestError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
