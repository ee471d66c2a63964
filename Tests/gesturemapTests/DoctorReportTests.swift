#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// What `doctor` says on machines made of files (`DoctorWorld`): where its
/// report goes, how it judges a desktop's gestures by the desktop's version
/// and a claim by what it takes, which devices it counts, and fixes that can
/// be run as they are.
@Suite("doctor's report", .serialized)
struct DoctorReportTests {
    static let root = Binary.packageRoot.path
    static let colliding = #"on("3-finger swipe left", function(g) emit("left") end)"#

    static func rules(_ text: String) throws -> String {
        try Binary.temporaryFile("rules.lua", text + "\n").path
    }

    // MARK: Where the report goes

    @Test("the report is doctor's output: all of it on stdout (doctor | less shows it), nothing on stderr; a usage error on stderr alone")
    func reportOnStdout() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        let result = try world.doctor(["--rules", try Self.rules(Self.colliding)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("touch devices\n  ok       \(world.input)/event5  SynPS/2 Synaptics TouchPad (touchpad): readable; "), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("\ngesturemap doctor: a run has what it needs\n"), "\(result.stdout)")

        let usage = try world.doctor(["--frobnicate"])
        #expect(usage.status == 64)
        #expect(usage.stdout.isEmpty)
        #expect(usage.stderr.hasPrefix("gesturemap doctor: unknown option --frobnicate"), "\(usage.stderr)")
    }

    // MARK: The desktop's version

    /// sway's answers: its version, and a config with one bindgesture line.
    static func sway(_ world: DoctorWorld, version: String) throws {
        try world.program("sway", prints: "sway version \(version)\n")
        try world.program("swaymsg", prints: #"{"config": "output * bg #000000 solid_color\nbindgesture swipe:3:left workspace prev\n"}"# + "\n")
        world.desktop = ["SWAYSOCK": world.root.path + "/no-sway.sock", "XDG_CURRENT_DESKTOP": "sway", "XDG_SESSION_TYPE": "wayland"]
    }

    @Test("sway 1.7 has no bindgesture (1.8 brought it): its bindgesture line does nothing, collides with nothing, and doctor says so; sway 1.9's does collide")
    func swayVersion() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        try Self.sway(world, version: "1.7")
        let rules = try Self.rules(Self.colliding)
        let old = try world.doctor(["--rules", rules])
        #expect(old.stdout.contains("""
            the desktop's own gestures
              note     sway 1.7 has no bindgesture (it came in sway 1.8) and rejected the config's line at start-up: "bindgesture swipe:3:left workspace prev" does nothing on this version
                       fix: delete the line (sway 1.7 shows a config error for it at every start), or upgrade to sway 1.8 or later, where it acts beside the rules
              note     sway 1.7: no touchpad gestures of its own known to gesturemap

            """), "\(old.stdout)")
        #expect(!old.stdout.contains("both act"), "\(old.stdout)")

        try Self.sway(world, version: "1.9")
        let new = try world.doctor(["--rules", rules])
        #expect(new.stdout.contains("""
              warning  sway 1.9's 3-finger swipe left (runs "workspace prev") and the rule for "3-finger swipe left": on a touchpad both act
                       fix: share the device and claim the gesture: { claim = true } on the rule, with config{ share = true } (or config{ share = true, claim_fingers = 3 } for every 3-finger touch); man gesturemap says more under --share

            """), "\(new.stdout)")
        #expect(!new.stdout.contains("does nothing on this version"), "\(new.stdout)")
    }

    @Test("Hyprland before 0.51 reads no gesture lines: hyprland.conf's does nothing there, and collides with nothing")
    func hyprlandVersion() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        try FileManager.default.createDirectory(atPath: world.home + "/.config/hypr", withIntermediateDirectories: true)
        try "gesture = 3, horizontal, workspace\n".write(toFile: world.home + "/.config/hypr/hyprland.conf", atomically: false, encoding: .utf8)
        try world.script("hyprctl", """
            case "$1" in
              version) echo '{"tag": "v0.50.1"}' ;;
              *) echo '{"int": 0}' ;;
            esac
            """)
        world.desktop = ["HYPRLAND_INSTANCE_SIGNATURE": "none-here", "XDG_RUNTIME_DIR": world.root.path, "XDG_CURRENT_DESKTOP": "Hyprland"]
        let result = try world.doctor(["--rules", try Self.rules(Self.colliding)])
        #expect(result.stdout.contains("""
              note     Hyprland v0.50.1 has no gesture lines (they came in Hyprland 0.51): "gesture = 3, horizontal, workspace" in hyprland.conf does nothing on this version
                       fix: delete the line, or upgrade to Hyprland 0.51 or later, where it acts beside the rules

            """), "\(result.stdout)")
        #expect(!result.stdout.contains("both act"), "\(result.stdout)")
    }

    // MARK: Which devices a run reads

    static func gnome(_ world: DoctorWorld, version: String = "45.2") throws {
        try world.program("gnome-shell", prints: "GNOME Shell \(version)\n")
        world.desktop = ["XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "wayland"]
    }

    @Test("a touchpad made through uinput is listed as one a run reads, and the collision under it counts it: no '(no touchpad here now)'; with a touchscreen alone, it is said")
    func touchpadsAgree() throws {
        let world = try DoctorWorld()
        try world.device(7, "Virtual Touchpad", .touchpad, virtual: true)
        try Self.gnome(world)
        let rules = try Self.rules(Self.colliding)
        let result = try world.doctor(["--rules", rules])
        #expect(result.stdout.contains("  ok       \(world.input)/event7  Virtual Touchpad (touchpad, virtual): readable; "), "\(result.stdout)")
        #expect(result.stdout.contains("""
              warning  GNOME 45.2's 3-finger swipe left/right (switches workspace, following the fingers) and the rule for "3-finger swipe left": on a touchpad both act

            """), "\(result.stdout)")
        #expect(!result.stdout.contains("no touchpad here now"), "\(result.stdout)")

        let screen = try DoctorWorld()
        try screen.device(3, "ELAN Touchscreen", .touchscreen)
        try Self.gnome(screen)
        let alone = try screen.doctor(["--rules", rules])
        #expect(alone.stdout.contains("  ok       \(screen.input)/event3  ELAN Touchscreen (touchscreen): readable; "), "\(alone.stdout)")
        #expect(alone.stdout.contains(": on a touchpad both act (no touchpad here now)\n"), "\(alone.stdout)")
    }

    @Test("run --share's clone is named as gesturemap's clone of its original, which is marked shared; the clone is not a device a run reads")
    func cloneNamed() throws {
        let world = try DoctorWorld()
        let name = "SynPS/2 Synaptics TouchPad"
        try world.device(5, name, .touchpad, phys: "isa0060/serio1/input0")
        try world.device(9, name, .touchpad, virtual: true, phys: "gesturemap-clone-of:\(world.input)/event5")
        let result = try world.doctor(["--rules", try Self.rules(Self.colliding)])
        #expect(result.stdout.contains("  ok       \(world.input)/event5  \(name) (touchpad), shared: the desktop reads its clone \(world.input)/event9: readable; "), "\(result.stdout)")
        #expect(result.stdout.contains("""
              note     \(world.input)/event9  \(name) (touchpad): gesturemap's clone of \(world.input)/event5, made by run --share for the desktop, with the same name and ids: the desktop lists both, and its settings for the one by name or ids apply to the other (a run reads it not)

            """), "\(result.stdout)")
        #expect(!result.stdout.contains("event9  \(name) (touchpad, virtual)"), "\(result.stdout)")
    }

    // MARK: Fixes to run as they are

    @Test("a device nobody may read, the rule not installed: the fix copies the rule from where this build has it, and names the user")
    func readFixWithoutRule() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad, mode: 0o600)
        let result = try world.doctor(["--rules", try Self.rules(Self.colliding)], unprivileged: true)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("""
              PROBLEM  \(world.input)/event5  SynPS/2 Synaptics TouchPad (touchpad): this user may not read it
                       fix: the udev rule 70-gesturemap.rules gives touch devices to the user logged in at the seat (uaccess):
                              sudo cp \(Self.root)/examples/udev/70-gesturemap.rules /etc/udev/rules.d/
                              sudo udevadm control --reload && sudo udevadm trigger
                              then log out and in again at the seat (no group to join, not even input)
                            a kiosk with no one at the seat: sudo addgroup --system gesturemap && sudo adduser nobody gesturemap, then sudo udevadm control --reload && sudo udevadm trigger (udevd looks the group up when it reads the rule; reading only)

            """), "\(result.stdout)")
        #expect(!result.stdout.contains("USER"), "\(result.stdout)")
        #expect(!result.stdout.contains(" examples/"), "no path relative to a checkout: \(result.stdout)")
    }

    @Test("the rule installed and applied (the device and uinput tagged uaccess) but this user not the seat's: nothing asks to copy or trigger it again")
    func fixesWithRuleApplied() throws {
        let world = try DoctorWorld()
        try world.installRule()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad, mode: 0o600, tags: ["seat", "uaccess"])
        try world.uinput(mode: 0o600, tags: ["seat", "uaccess"])
        let result = try world.doctor(["--rules", try Self.rules(#"on("3-finger swipe left", function(g) key("alt+Right") end)"#)], unprivileged: true)
        #expect(result.stdout.contains("""
              PROBLEM  \(world.input)/event5  SynPS/2 Synaptics TouchPad (touchpad): this user may not read it
                       fix: 70-gesturemap.rules is installed (\(world.udevRules)/70-gesturemap.rules) and applied: \(world.input)/event5 is tagged uaccess, which logind turns into access for the user of the seat's active session; nobody is not that user now (a login over ssh, or another session active at the seat?): log in at the seat
                            a kiosk with no one at the seat: sudo addgroup --system gesturemap && sudo adduser nobody gesturemap, then sudo udevadm control --reload && sudo udevadm trigger (udevd looks the group up when it reads the rule; reading only)

            """), "\(result.stdout)")
        #expect(result.stdout.contains("""
              PROBLEM  this user may not write \(world.uinputNode); the rules need it: key()
                       fix: 70-gesturemap.rules is installed (\(world.udevRules)/70-gesturemap.rules) and applied: \(world.uinputNode) is tagged uaccess, which logind turns into access for the user of the seat's active session; nobody is not that user now (a login over ssh, or another session active at the seat?): log in at the seat
                            a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build); or run with --dry-run to print what would be sent

            """), "\(result.stdout)")
        #expect(result.stdout.contains("  ok       installed: \(world.udevRules)/70-gesturemap.rules\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("sudo cp"), "the rule is installed: \(result.stdout)")
    }

    @Test("the rule installed but not applied to the device: the fix applies it, and copies nothing")
    func fixWithRuleNotApplied() throws {
        let world = try DoctorWorld()
        try world.installRule()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad, mode: 0o600, tags: ["seat"])
        let result = try world.doctor(["--rules", try Self.rules(Self.colliding)], unprivileged: true)
        #expect(result.stdout.contains("""
                       fix: 70-gesturemap.rules is installed (\(world.udevRules)/70-gesturemap.rules) but not applied to \(world.input)/event5:
                              sudo udevadm control --reload && sudo udevadm trigger

            """), "\(result.stdout)")
        #expect(!result.stdout.contains("sudo cp"), "\(result.stdout)")
    }

    @Test("examples/share.lua on GNOME 45: claim_fingers = 3 takes GNOME's 3-finger swipe down, which no rule binds, and the 3-finger taps, clicks and drag; doctor says both")
    func shareExampleJudged() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        try world.uinput(mode: 0o666, tags: nil)
        try Self.gnome(world)
        let result = try world.doctor(["--rules", Self.root + "/examples/share.lua"])
        #expect(result.stdout.contains("""
            the desktop's own gestures
              warning  claim_fingers = 3 takes GNOME 45.2's 3-finger swipe down (opens and closes the overview and the app grid) from it, and no rule binds it: while the device is shared, it does nothing
                       fix: bind it in the rules (as on("3-finger swipe down", function(g) ... end)), or claim only the rules' own gestures: drop claim_fingers and put { claim = true } on each rule that collides with the desktop's
              ok       GNOME 45.2's 3-finger swipe left/right (switches workspace, following the fingers) and the rule for "3-finger swipe left": claimed with share on, so the desktop does not see those fingers

            """), "\(result.stdout)")
        #expect(result.stdout.contains("""
              ok       they load: 6 rules; they use key(), share
              note     config{ claim_fingers = 3 } with share on: every touch of 3 fingers or more is gesturemap's, whatever it becomes: the desktop gets no tap or click with 3 fingers down (libinput's middle button by a 3-finger tap), no three-finger drag, and none of its own gestures of 3 fingers or more

            """), "\(result.stdout)")

        try Self.gnome(world, version: "47.1")
        let newer = try world.doctor(["--rules", Self.root + "/examples/share.lua"])
        #expect(newer.stdout.contains("  warning  claim_fingers = 3 takes GNOME 47.1's 4-finger swipe up/down (opens and closes the overview and the app grid) from it, and no rule binds them: while the device is shared, they do nothing\n"), "\(newer.stdout)")
    }

    @Test("the service's unit not installed: the fix copies it from where this build has it; enabled already: it asks not to enable it again")
    func serviceFix() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        try world.service(active: "inactive", enabled: "")
        let missing = try world.doctor()
        #expect(missing.stdout.contains("""
              note     gesturemap.service is not running
                       fix: to run it at login: mkdir -p ~/.config/systemd/user && cp \(Self.root)/examples/systemd/gesturemap.service ~/.config/systemd/user/
                            systemctl --user daemon-reload && systemctl --user enable --now gesturemap

            """), "\(missing.stdout)")

        try world.service(active: "inactive", enabled: "enabled")
        let enabled = try world.doctor()
        #expect(enabled.stdout.contains("""
              note     gesturemap.service is not running (enabled)
                       fix: it starts at login; to start it now: systemctl --user start gesturemap

            """), "\(enabled.stdout)")
    }

    @Test("no rules file: the fix copies an example from where this build has it")
    func rulesFix() throws {
        let world = try DoctorWorld()
        try world.device(5, "SynPS/2 Synaptics TouchPad", .touchpad)
        let result = try world.doctor()
        #expect(result.stdout.contains("           fix: mkdir -p \(world.home)/.config/gesturemap && cp \(Self.root)/examples/pager.lua \(world.home)/.config/gesturemap/rules.lua   # a start: the other examples are beside it\n"), "\(result.stdout)")
    }
}
