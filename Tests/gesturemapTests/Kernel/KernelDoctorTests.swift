#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `gesturemap doctor` on a real kernel with the shipped udev rule applied,
/// as root, as a kiosk's reader and as a user with no access.
@Suite("doctor through a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelDoctorTests {
    static func doctor(_ rules: String, as user: [String] = []) throws -> (status: Int32?, text: String) {
        let child = try KernelGuest.gesturemap(["doctor", "--rules", rules], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"], as: user)
        let status = child.waitForExit(upTo: 60)
        return (status, child.stdout)
    }

    @Test("root: the touchscreen readable with its size, tagged uaccess, uinput writable for key(): exit 0; nobody: the device and uinput are problems, each with the seat's fix: exit 1; a gesturemap group member reads it")
    func access() throws {
        let screen = try EvemuDevice(description: TouchPanel.description())
        let rules = try Binary.temporaryFile("doctor-rules.lua", #"on("2-finger swipe left", function(g) key("alt+Right") end)"#).path
        chmod(rules, 0o644)

        let root = try Self.doctor(rules)
        #expect(root.status == 0, "\(root.text)")
        let line = root.text.split(separator: "\n").first { $0.contains(screen.node + "  ") }.map(String.init) ?? ""
        #expect(line.hasPrefix("  ok       \(screen.node)  ") && line.contains("(touchscreen, virtual): readable; ") && line.contains("mm"), "\(root.text)")
        #expect(root.text.contains("  ok       \(screen.node): tagged uaccess (logind gives it to the user at the seat)"), "\(root.text)")
        #expect(root.text.contains("  ok       /dev/uinput: writable; the rules use it: key()"), "\(root.text)")
        #expect(root.text.contains("  ok       installed: /run/udev/rules.d/70-gesturemap.rules"), "\(root.text)")
        #expect(root.text.hasSuffix("gesturemap doctor: a run has what it needs\n") || root.text.contains("gesturemap doctor: a run has what it needs ("), "\(root.text)")

        let nobody = try Self.doctor(rules, as: KernelAccessTests.nobody)
        #expect(nobody.status == 1, "\(nobody.text)")
        #expect(nobody.text.contains("  PROBLEM  \(screen.node)  ") && nobody.text.contains("(touchscreen, virtual): this user may not read it"), "\(nobody.text)")
        #expect(nobody.text.contains("  PROBLEM  this user may not write /dev/uinput; the rules need it: key()"), "\(nobody.text)")
        // The rule is installed and tagged the device: what is left is to be the seat's user, or a kiosk's reader.
        #expect(nobody.text.contains("fix: 70-gesturemap.rules is installed (/run/udev/rules.d/70-gesturemap.rules) and applied: \(screen.node) is tagged uaccess, which logind turns into access for the user of the seat's active session; nobody is not that user now"), "\(nobody.text)")
        #expect(nobody.text.contains("a kiosk with no one at the seat: sudo adduser nobody gesturemap (reading only)"), "\(nobody.text)")
        #expect(!nobody.text.contains("sudo cp"), "\(nobody.text)")
        #expect(!nobody.text.contains("usermod -aG input") && !nobody.text.contains("adduser USER input"), "\(nobody.text)")

        let member = try Self.doctor(rules, as: KernelAccessTests.reader)
        #expect(member.text.contains("(touchscreen, virtual): readable; "), "\(member.text)")
    }

    @Test("while run --share shares a device, its clone's phys names the device, and doctor names the clone as gesturemap's and the device as shared")
    func sharedClone() throws {
        let screen = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try KernelShareTests.share(screen.node, rules: KernelShareTests.noClaimRules)
        defer { _ = engine.terminate() }
        let name = clone.split(separator: "/").last.map(String.init) ?? clone
        let phys = try String(contentsOfFile: "/sys/class/input/\(name)/device/phys", encoding: .utf8)
        #expect(phys == "gesturemap-clone-of:\(screen.node)\n", "\(phys)")

        let rules = try Binary.temporaryFile("doctor-rules.lua", #"on("tap", function(g) emit("tap") end)"#).path
        chmod(rules, 0o644)
        let report = try Self.doctor(rules)
        let device = report.text.split(separator: "\n").first { $0.hasPrefix("  ok       \(screen.node)  ") }.map(String.init) ?? ""
        #expect(device.contains("(touchscreen, virtual), shared: the desktop reads its clone \(clone): readable; "), "\(report.text)")
        let listed = report.text.split(separator: "\n").first { $0.hasPrefix("  note     \(clone)  ") }.map(String.init) ?? ""
        #expect(listed.contains(" (touchscreen): gesturemap's clone of \(screen.node), made by run --share for the desktop, with the same name and ids"), "\(report.text)")
    }
}
