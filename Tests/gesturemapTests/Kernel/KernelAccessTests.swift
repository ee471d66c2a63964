#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Who may read the touch devices and write uinput: the shipped udev rule,
/// applied by the real udevd, tags both for the user at the seat (uaccess)
/// and gives them to the groups the package's postinst creates, a kiosk's
/// opt-in: gesturemap reads touch devices, gesturemap-uinput types. The input
/// group gets neither, and no group may write a touch device. There is no
/// logind in the guest, so no ACL is given: the tag that asks for it is what
/// is checked. A user without access is told the fix.
@Suite("Access and the udev rule in a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelAccessTests {
    static let rule = Binary.packageRoot.appendingPathComponent("examples/udev/70-gesturemap.rules").path
    static let postinst = Binary.packageRoot.appendingPathComponent("scripts/debian/postinst").path
    /// Where scripts/kernel-guest put the rule before udevd started.
    static let installedRule = "/run/udev/rules.d/70-gesturemap.rules"
    static func user(groups: String?) -> [String] {
        ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup"] + [groups.map { "--groups=" + $0 } ?? "--clear-groups"]
    }
    static let nobody = user(groups: nil)
    /// Debian's input group, which reads every keyboard.
    static let inputMember = user(groups: "input")
    /// A kiosk's user whose rules only emit or exec.
    static let reader = user(groups: "gesturemap")
    /// Every group the rule and Debian name but gesturemap-uinput.
    static let allButUinput = user(groups: "input,gesturemap")
    /// A kiosk's user whose rules call key().
    static let typist = user(groups: "gesturemap,gesturemap-uinput")

    static let deviceFix = "permission denied; the udev rule 70-gesturemap.rules lets the user logged in at the seat read touch devices: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat adds its user to the gesturemap group instead (sudo usermod -aG gesturemap USER)"
    static let uinputFix = "key() needs write access to /dev/uinput; the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat adds its user to the gesturemap-uinput group (sudo usermod -aG gesturemap-uinput USER), which lets it type into every session; or run with --dry-run to print the keys instead"

    @Test("a user who may not read a device named gets a message that names the fix, and exit 69")
    func noAccess() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let named = try KernelGuest.gesturemap(["run", device.node], as: Self.nobody)
        #expect(named.waitForExit(upTo: 30) == 69)
        #expect(named.stderr.contains("gesturemap: \(device.node): " + Self.deviceFix), "\(named.stderr)")
    }

    @Test("a service (no terminal) that may not read the devices it finds yet waits, says why once, and reads them when access comes (as logind's grant at login comes)")
    func serviceWaitsForAccess() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let mode = try FileManager.default.attributesOfItem(atPath: device.node)[.posixPermissions] as? Int ?? 0o640
        defer { chmod(device.node, mode_t(mode)) }
        let service = try KernelGuest.gesturemap(["run"], as: Self.nobody)
        defer { _ = service.terminate() }
        #expect(service.wait(upTo: 30) { _, err in err.contains("waiting for access") }, "\(service.stderr)")
        // The first node denied is named (the guest has other devices than this one).
        #expect(service.stderr.contains("gesturemap: no touch device can be read yet (/dev/input/event"), "\(service.stderr)")
        #expect(service.stderr.contains(Self.deviceFix + "); waiting for access, which logind gives the user at the seat at login"), "\(service.stderr)")
        #expect(service.isRunning)
        // Access comes: the node's attributes change, as an ACL's would.
        #expect(chmod(device.node, 0o644) == 0)
        #expect(service.wait(upTo: 30) { _, err in err.contains("found \(device.node)") }, "\(service.stderr)")
        try device.play(LiveEngine.swipe())
        #expect(service.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(service.stdout)\n\(service.stderr)")
        #expect(service.stderr.components(separatedBy: "waiting for access").count == 2, "\(service.stderr)")
    }

    /// The node's group and permission bits.
    static func access(_ node: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: node)
        let group = attributes[.groupOwnerAccountName] as? String ?? "?"
        let mode = (attributes[.posixPermissions] as? Int).map { String($0 & 0o777, radix: 8) } ?? "?"
        return "\(group) \(mode)"
    }

    /// udev's TAGS (every tag the device was given) and CURRENT_TAGS (those of
    /// its last event), as `udevadm info` prints them.
    static func tags(_ node: String) throws -> (all: String, current: String) {
        let properties = try KernelGuest.run("udevadm", ["info", "--query=property", node]).stdout.split(separator: "\n")
        func value(_ key: String) -> String {
            properties.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } ?? "(no \(key))"
        }
        return (value("TAGS"), value("CURRENT_TAGS"))
    }

    /// Whether `user` may open `node` for `direction` (">" writing, "<"
    /// reading), as the kernel decides; what the shell said when not.
    static func open(_ node: String, _ direction: String, as user: [String]) throws -> (opened: Bool, said: String) {
        let result = try KernelGuest.run(user[0], Array(user.dropFirst()) + ["/bin/sh", "-c", "exec 3\(direction)\"$1\" && echo opened", "sh", node])
        return (result.status == 0 && result.stdout == "opened\n", result.output)
    }

    /// udevd reads its rules again and replays uinput's "add".
    static func reapplyRulesToUinput() throws {
        #expect(try KernelGuest.run("udevadm", ["control", "--reload"]).status == 0)
        #expect(try KernelGuest.run("udevadm", ["trigger", "--action=add", "--sysname-match=uinput"]).status == 0)
        EvemuDevice.settle()
    }

    /// uinput as the kernel makes it, before udev has seen it.
    static func resetUinput() {
        #expect(chown("/dev/uinput", 0, 0) == 0 && chmod("/dev/uinput", 0o600) == 0)
    }

    @Test("without the shipped rule uinput is root's alone (Debian's rules leave it so); with it, tagged uaccess for the user at the seat and the gesturemap-uinput group's, mode 0660: no other group may open it, and key() says what to do; a member of gesturemap-uinput types")
    func uinputRule() throws {
        let keyRules = try Binary.temporaryFile("key.lua", """
            on("2-finger swipe left", function(g) key("PageDown") end)

            """)
        // Without the rule: as the kernel makes it.
        try FileManager.default.removeItem(atPath: Self.installedRule)
        defer {
            try? FileManager.default.copyItem(atPath: Self.rule, toPath: Self.installedRule)
            try? Self.reapplyRulesToUinput()
        }
        Self.resetUinput()
        try Self.reapplyRulesToUinput()
        let bare = try Self.access("/dev/uinput")
        #expect(bare == "root 600")
        let bareTags = try Self.tags("/dev/uinput")
        #expect(!bareTags.current.contains(":uaccess:"), "CURRENT_TAGS=\(bareTags.current)")
        #expect(try !Self.open("/dev/uinput", ">", as: Self.typist).opened)

        // With the rule, as shipped.
        try FileManager.default.copyItem(atPath: Self.rule, toPath: Self.installedRule)
        try Self.reapplyRulesToUinput()
        let shipped = try Self.access("/dev/uinput")
        #expect(shipped == "gesturemap-uinput 660")
        let tags = try Self.tags("/dev/uinput")
        #expect(tags.all.contains(":uaccess:"), "TAGS=\(tags.all)")
        #expect(tags.current.contains(":uaccess:"), "CURRENT_TAGS=\(tags.current)")
        for user in [Self.nobody, Self.inputMember, Self.allButUinput] {
            let attempt = try Self.open("/dev/uinput", ">", as: user)
            #expect(!attempt.opened, "\(user.last!) opened /dev/uinput")
            #expect(attempt.said.contains("Permission denied"), "\(user.last!): \(attempt.said)")
        }
        let device = try EvemuDevice(description: TouchPanel.description())
        let refused = try KernelGuest.gesturemap(["run", "--rules", keyRules.path, device.node], as: Self.allButUinput)
        #expect(refused.waitForExit(upTo: 30) == 69)
        #expect(refused.stderr.contains(Self.uinputFix), "\(refused.stderr)")
        #expect(!refused.stderr.contains(" input group"), "\(refused.stderr)")

        let member = try Self.open("/dev/uinput", ">", as: Self.typist)
        #expect(member.opened, "\(member.said)")
        let typed = try KernelKeyTests.typeAndReadBack(rules: keyRules.path, count: 2, as: Self.typist)
        #expect(typed == ["KEY_PAGEDOWN 1", "KEY_PAGEDOWN 0"])
    }

    @Test("touchscreens and touchpads, as udev classifies them, are tagged uaccess and the gesturemap group's with mode 0640: a member reads them and may not write them; the input group and others may not open them")
    func touchDevices() throws {
        let screen = try EvemuDevice(description: TouchPanel.description())
        let pad = try EvemuDevice(description: Binary.temporaryFile("pad.desc", TouchPad.header).path)
        for (device, property) in [(screen, "ID_INPUT_TOUCHSCREEN=1"), (pad, "ID_INPUT_TOUCHPAD=1")] {
            let properties = try KernelGuest.run("udevadm", ["info", "--query=property", device.node]).output
            #expect(properties.contains(property), "\(device.node): \(properties)")
            let access = try Self.access(device.node)
            #expect(access == "gesturemap 640", "\(device.node)")
            let tags = try Self.tags(device.node)
            #expect(tags.all.contains(":uaccess:"), "\(device.node): TAGS=\(tags.all)")
            #expect(tags.current.contains(":uaccess:"), "\(device.node): CURRENT_TAGS=\(tags.current)")
            let read = try Self.open(device.node, "<", as: Self.reader)
            #expect(read.opened, "\(device.node): \(read.said)")
            let write = try Self.open(device.node, ">", as: Self.reader)
            #expect(!write.opened && write.said.contains("Permission denied"), "\(device.node): \(write.said)")
            let input = try Self.open(device.node, "<", as: Self.inputMember)
            #expect(!input.opened && input.said.contains("Permission denied"), "\(device.node): \(input.said)")
        }
        let engine = try KernelGuest.gesturemap(["run", "--rules", LiveEngine.pager, screen.node], as: Self.reader)
        defer { _ = engine.terminate() }
        #expect(LiveEngine.waitUntilOpened(screen.node, by: engine), "\(engine.stderr)")
        try screen.play(LiveEngine.swipe("member"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)\n\(engine.stderr)")
        let inputOnly = try KernelGuest.gesturemap(["run", pad.node], as: Self.inputMember)
        #expect(inputOnly.waitForExit(upTo: 30) == 69, "\(inputOnly.stderr)")
        let nobody = try KernelGuest.gesturemap(["run", pad.node], as: Self.nobody)
        #expect(nobody.waitForExit(upTo: 30) == 69, "\(nobody.stderr)")
    }

    @Test("the rule without its groups (a build installed by hand): the uaccess tag still, and no group's access (udev drops Debian's input group for the one it cannot find): touch devices root's 0640, uinput root's 0600; the package's postinst then makes the groups and has udevd apply them to the nodes already there")
    func withoutGroups() throws {
        defer {
            _ = try? KernelGuest.run("/bin/sh", [Self.postinst, "configure"])
            EvemuDevice.settle()
        }
        for group in ["gesturemap-uinput", "gesturemap"] {
            let removed = try KernelGuest.run("/usr/sbin/groupdel", [group])
            #expect(removed.status == 0, "groupdel \(group): \(removed.output)")
        }
        // udevd reads again only a rules file that changed, and looks its
        // groups up then: it finds none. uinput as a fresh boot has it.
        #expect(utimes(Self.installedRule, nil) == 0)
        Self.resetUinput()
        try Self.reapplyRulesToUinput()
        let screen = try EvemuDevice(description: TouchPanel.description())
        let uinput = try Self.access("/dev/uinput")
        let touch = try Self.access(screen.node)
        #expect(uinput == "root 600")
        #expect(touch == "root 640")
        for node in ["/dev/uinput", screen.node] {
            let tags = try Self.tags(node)
            #expect(tags.current.contains(":uaccess:"), "\(node): CURRENT_TAGS=\(tags.current)")
        }
        let attempt = try Self.open("/dev/uinput", ">", as: Self.inputMember)
        #expect(!attempt.opened && attempt.said.contains("Permission denied"), "\(attempt.said)")

        // Installing the package: its postinst makes the groups and has udevd
        // read the rule again and apply it to the nodes already there.
        let configured = try KernelGuest.run("/bin/sh", [Self.postinst, "configure"])
        #expect(configured.status == 0, "\(configured.output)")
        EvemuDevice.settle()
        let uinputAfter = try Self.access("/dev/uinput")
        let touchAfter = try Self.access(screen.node)
        #expect(uinputAfter == "gesturemap-uinput 660")
        #expect(touchAfter == "gesturemap 640")
    }
}

/// A clickpad as a laptop has one: pointer and button-pad properties,
/// BTN_TOOL_FINGER, five slots, 40 units/mm over 100 × 60 mm.
enum TouchPad {
    static let header = """
        # EVEMU 1.3
        N: gesturemap kernel-test touchpad
        I: 0018 0000 0000 0001
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00
        B: 01 20 64 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 3999 0 0 40
        A: 01 0 2399 0 0 40
        A: 2f 0 4 0 0 0
        A: 35 0 3999 0 0 40
        A: 36 0 2399 0 0 40
        A: 39 0 65535 0 0 0

        """
}
