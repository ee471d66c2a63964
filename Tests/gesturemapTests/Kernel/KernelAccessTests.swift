#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Who may read the touch devices and write uinput: a user without access is
/// told the fix; the shipped udev rule, applied by the real udevd, gives it.
@Suite("Access and the udev rule in a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelAccessTests {
    static let rule = Binary.packageRoot.appendingPathComponent("examples/udev/70-gesturemap.rules").path
    /// Where scripts/kernel-guest put the rule before udevd started.
    static let installedRule = "/run/udev/rules.d/70-gesturemap.rules"
    static let nobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    static let inputMember = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=input"]

    @Test("a user who may not read the devices gets a message that names the fix, and exit 69, named or found")
    func noAccess() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let fix = "permission denied; add yourself to the input group (sudo usermod -aG input $USER, then log in again) or install the udev rule examples/udev/70-gesturemap.rules"
        let named = try KernelGuest.gesturemap(["run", device.node], as: Self.nobody)
        #expect(named.waitForExit(upTo: 30) == 69)
        #expect(named.stderr.contains("gesturemap: \(device.node): " + fix), "\(named.stderr)")

        let found = try KernelGuest.gesturemap(["run"], as: Self.nobody)
        #expect(found.waitForExit(upTo: 30) == 69)
        #expect(found.stderr.contains("gesturemap: no touch device can be read: "), "\(found.stderr)")
        #expect(found.stderr.contains(fix), "\(found.stderr)")
    }

    /// The node's group and permission bits.
    static func access(_ node: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: node)
        let group = attributes[.groupOwnerAccountName] as? String ?? "?"
        let mode = (attributes[.posixPermissions] as? Int).map { String($0 & 0o777, radix: 8) } ?? "?"
        return "\(group) \(mode)"
    }

    /// udevd reads its rules again and replays uinput's "add".
    static func reapplyRulesToUinput() throws {
        #expect(try KernelGuest.run("udevadm", ["control", "--reload"]).status == 0)
        #expect(try KernelGuest.run("udevadm", ["trigger", "--action=add", "--sysname-match=uinput"]).status == 0)
        EvemuDevice.settle()
    }

    @Test("without the shipped rule uinput is root's alone (Debian's rules leave it so) and key() says what to do; with it, the input group's, mode 0660, and a member's key() reaches a reader")
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
        #expect(chown("/dev/uinput", 0, 0) == 0 && chmod("/dev/uinput", 0o600) == 0)
        try Self.reapplyRulesToUinput()
        #expect(try Self.access("/dev/uinput") == "root 600")
        let device = try EvemuDevice(description: TouchPanel.description())
        let refused = try KernelGuest.gesturemap(["run", "--rules", keyRules.path, device.node], as: Self.inputMember)
        #expect(refused.waitForExit(upTo: 30) == 69)
        #expect(refused.stderr.contains("key() needs write access to /dev/uinput; add yourself to the input group (sudo usermod -aG input $USER) with the udev rule examples/udev/70-gesturemap.rules"),
                "\(refused.stderr)")

        // With the rule, as shipped.
        try FileManager.default.copyItem(atPath: Self.rule, toPath: Self.installedRule)
        try Self.reapplyRulesToUinput()
        #expect(try Self.access("/dev/uinput") == "input 660")
        let typed = try KernelKeyTests.typeAndReadBack(rules: keyRules.path, count: 2, as: Self.inputMember)
        #expect(typed == ["KEY_PAGEDOWN 1", "KEY_PAGEDOWN 0"])
    }

    @Test("touchscreens and touchpads, as udev classifies them, are the input group's with mode 0660, and a member of the group reads them")
    func touchDevices() throws {
        let screen = try EvemuDevice(description: TouchPanel.description())
        let pad = try EvemuDevice(description: Binary.temporaryFile("pad.desc", TouchPad.header).path)
        for (device, property) in [(screen, "ID_INPUT_TOUCHSCREEN=1"), (pad, "ID_INPUT_TOUCHPAD=1")] {
            let properties = try KernelGuest.run("udevadm", ["info", "--query=property", device.node]).output
            #expect(properties.contains(property), "\(device.node): \(properties)")
            #expect(try Self.access(device.node) == "input 660")
        }
        let engine = try KernelGuest.gesturemap(["run", "--rules", LiveEngine.pager, screen.node], as: Self.inputMember)
        defer { _ = engine.terminate() }
        #expect(LiveEngine.waitUntilOpened(screen.node, by: engine), "\(engine.stderr)")
        try screen.play(LiveEngine.swipe("member"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)\n\(engine.stderr)")
        let nobody = try KernelGuest.gesturemap(["run", pad.node], as: Self.nobody)
        #expect(nobody.waitForExit(upTo: 30) == 69, "\(nobody.stderr)")
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
