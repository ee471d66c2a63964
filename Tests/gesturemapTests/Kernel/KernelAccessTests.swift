#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Who may read the touch devices and write uinput: the shipped udev rule,
/// applied by the real udevd, tags both for the user at the seat (uaccess),
/// and gives a kiosk what the package's postinst creates: the gesturemap
/// group reads touch devices, the gesturemap user owns uinput (mode 0600: no
/// group may write it). The input group gets neither, and no group may write
/// a touch device. There is no logind in the guest, so no ACL is given: the
/// tag that asks for it is what is checked. A user without access is told the
/// fix.
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
    /// Every group the rule and Debian name, as another user than gesturemap.
    static let groupsMember = user(groups: "input,gesturemap")
    /// A kiosk whose rules call key(): the gesturemap user, with its groups.
    static let gesturemapUser = ["/usr/bin/setpriv", "--reuid=gesturemap", "--regid=gesturemap", "--init-groups"]

    static let deviceFix = "permission denied; the udev rule 70-gesturemap.rules lets the user logged in at the seat read touch devices: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat adds its user to the gesturemap group instead (sudo usermod -aG gesturemap USER)"
    static let uinputFix = "key() needs write access to /dev/uinput; the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, sudo cp \(rule) /etc/udev/rules.d/ && sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build); or run with --dry-run to print the keys instead"

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

    /// The node's owner, group and permission bits: "owner:group mode".
    static func access(_ node: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: node)
        let owner = attributes[.ownerAccountName] as? String ?? "?"
        let group = attributes[.groupOwnerAccountName] as? String ?? "?"
        let mode = (attributes[.posixPermissions] as? Int).map { String($0 & 0o777, radix: 8) } ?? "?"
        return "\(owner):\(group) \(mode)"
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

    @Test("without the shipped rule uinput is root's alone (Debian's rules leave it so); with it, tagged uaccess for the user at the seat and the gesturemap user's, mode 0600: no group may open it, members of input and gesturemap are refused and key() says what to do; the gesturemap user types")
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
        #expect(bare == "root:root 600")
        let bareTags = try Self.tags("/dev/uinput")
        #expect(!bareTags.current.contains(":uaccess:"), "CURRENT_TAGS=\(bareTags.current)")
        #expect(try !Self.open("/dev/uinput", ">", as: Self.gesturemapUser).opened)

        // With the rule, as shipped.
        try FileManager.default.copyItem(atPath: Self.rule, toPath: Self.installedRule)
        try Self.reapplyRulesToUinput()
        let shipped = try Self.access("/dev/uinput")
        #expect(shipped == "gesturemap:root 600")
        let tags = try Self.tags("/dev/uinput")
        #expect(tags.all.contains(":uaccess:"), "TAGS=\(tags.all)")
        #expect(tags.current.contains(":uaccess:"), "CURRENT_TAGS=\(tags.current)")
        for user in [Self.nobody, Self.inputMember, Self.reader, Self.groupsMember] {
            let attempt = try Self.open("/dev/uinput", ">", as: user)
            #expect(!attempt.opened, "\(user.last!) opened /dev/uinput")
            #expect(attempt.said.contains("Permission denied"), "\(user.last!): \(attempt.said)")
        }
        let device = try EvemuDevice(description: TouchPanel.description())
        let refused = try KernelGuest.gesturemap(["run", "--rules", keyRules.path, device.node], as: Self.groupsMember)
        #expect(refused.waitForExit(upTo: 30) == 69)
        #expect(refused.stderr.contains(Self.uinputFix), "\(refused.stderr)")
        #expect(!refused.stderr.contains(" input group"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("usermod"), "\(refused.stderr)")

        let owner = try Self.open("/dev/uinput", ">", as: Self.gesturemapUser)
        #expect(owner.opened, "\(owner.said)")
        let typed = try KernelKeyTests.typeAndReadBack(rules: keyRules.path, counts: [2], as: Self.gesturemapUser)
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
            #expect(access == "root:gesturemap 640", "\(device.node)")
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

    @Test("the rule without its group and user (a build installed by hand): the uaccess tag still, and no one else's access (udevd ignores the names it cannot find, and Debian's input group goes): touch devices root's 0640, uinput root's 0600; the package's postinst, over an earlier version's groups, then makes the user in the group it finds, leaves gesturemap-uinput with nothing, and has udevd apply the rule to the nodes already there")
    func withoutUserAndGroup() throws {
        defer {
            _ = try? KernelGuest.run("/usr/sbin/groupdel", ["gesturemap-uinput"])
            _ = try? KernelGuest.run("/bin/sh", [Self.postinst, "configure"])
            EvemuDevice.settle()
        }
        let userRemoved = try KernelGuest.run("/usr/sbin/userdel", ["gesturemap"])
        #expect(userRemoved.status == 0, "userdel gesturemap: \(userRemoved.output)")
        // userdel takes the user's own group with it where it has no other member.
        if try KernelGuest.run("/usr/bin/getent", ["group", "gesturemap"]).status == 0 {
            let removed = try KernelGuest.run("/usr/sbin/groupdel", ["gesturemap"])
            #expect(removed.status == 0, "groupdel gesturemap: \(removed.output)")
        }
        for database in ["passwd", "group"] {
            let found = try KernelGuest.run("/usr/bin/getent", [database, "gesturemap"])
            #expect(found.status == 2, "\(database): \(found.output)")
        }
        // udevd reads again only a rules file that changed, and looks its
        // names up then: it finds neither. uinput as a fresh boot has it.
        #expect(utimes(Self.installedRule, nil) == 0)
        Self.resetUinput()
        try Self.reapplyRulesToUinput()
        let screen = try EvemuDevice(description: TouchPanel.description())
        let uinput = try Self.access("/dev/uinput")
        let touch = try Self.access(screen.node)
        #expect(uinput == "root:root 600")
        #expect(touch == "root:root 640")
        for node in ["/dev/uinput", screen.node] {
            let tags = try Self.tags(node)
            #expect(tags.current.contains(":uaccess:"), "\(node): CURRENT_TAGS=\(tags.current)")
        }
        for user in [Self.inputMember, Self.user(groups: "input,root")] {
            let attempt = try Self.open("/dev/uinput", ">", as: user)
            #expect(!attempt.opened && attempt.said.contains("Permission denied"), "\(user.last!): \(attempt.said)")
        }

        // An earlier version's install: its two groups, no user. Installing
        // the package: its postinst makes the user in the group already
        // there and has udevd read the rule again and apply it to the nodes.
        for group in ["gesturemap", "gesturemap-uinput"] {
            let added = try KernelGuest.run("/usr/sbin/groupadd", ["--system", group])
            #expect(added.status == 0, "groupadd \(group): \(added.output)")
        }
        let gid = try KernelGuest.run("/usr/bin/getent", ["group", "gesturemap"]).stdout.split(separator: ":").dropFirst(2).first.map(String.init)
        let configured = try KernelGuest.run("/bin/sh", [Self.postinst, "configure"])
        #expect(configured.status == 0, "\(configured.output)")
        #expect(configured.output.contains("gesturemap: /dev/uinput is no longer the group gesturemap-uinput's"), "\(configured.output)")
        EvemuDevice.settle()
        let entry = try KernelGuest.run("/usr/bin/getent", ["passwd", "gesturemap"]).stdout.trimmingCharacters(in: .newlines).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func field(_ index: Int) -> String { index < entry.count ? entry[index] : "(none)" }
        #expect(entry.count == 7, "\(entry)")
        #expect((Int(field(2)) ?? 1000) < 1000, "not a system user: \(entry)")
        #expect(gid != nil && field(3) == gid, "primary group \(field(3)), not gesturemap's \(gid ?? "?")")
        #expect(field(5) == "/nonexistent" && field(6) == "/usr/sbin/nologin", "\(entry)")
        #expect(try KernelGuest.run("/usr/bin/getent", ["group", "gesturemap-uinput"]).status == 0, "the postinst removed the earlier group gesturemap-uinput")
        let uinputAfter = try Self.access("/dev/uinput")
        let touchAfter = try Self.access(screen.node)
        #expect(uinputAfter == "gesturemap:root 600")
        #expect(touchAfter == "root:gesturemap 640")
        let earlierMember = try Self.open("/dev/uinput", ">", as: Self.user(groups: "gesturemap-uinput"))
        #expect(!earlierMember.opened && earlierMember.said.contains("Permission denied"), "\(earlierMember.said)")
        let owner = try Self.open("/dev/uinput", ">", as: Self.gesturemapUser)
        #expect(owner.opened, "\(owner.said)")
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
