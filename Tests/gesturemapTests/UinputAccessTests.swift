#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Every part of a run that needs uinput (key(), pointer, touchpad, --share)
/// says the same about a node that is not there, one it may not write, and
/// one that is not uinput: in one wording, with its own way out; exit 69.
@Suite("uinput: one error for every user", .serialized)
struct UinputAccessTests {
    static let copyRule = "sudo cp \(Binary.packageRoot.path)/examples/udev/70-gesturemap.rules /etc/udev/rules.d/ && sudo udevadm trigger"
    static let load = "load the uinput module (sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/uinput.conf), give yourself access with the udev rule examples/udev/70-gesturemap.rules"
    static let seat = "the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, \(copyRule)) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build)"

    /// A rule that uses the device, how the messages name the user, and its way out.
    static let users: [(call: String, name: String, otherwise: String)] = [
        ("key(\"a\")", "key()", "run with --dry-run to print the keys instead"),
        ("pointer.move(1, 0)", "pointer", "run with --dry-run to print the pointer events instead"),
        ("touchpad.begin(3)", "touchpad", "run with --dry-run to print the touchpad events instead"),
    ]

    enum Node: String, CaseIterable { case missing, denied, notUinput }

    /// Where GESTUREMAP_UINPUT points, and whether the run is another user's.
    static func uinput(_ node: Node) throws -> (path: String, unprivileged: Bool) {
        let folder = try Binary.temporaryDirectory()
        chmod(folder.path, 0o755)
        let path = folder.appendingPathComponent("uinput").path
        switch node {
        case .missing: return (path, false)
        case .denied:
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
            return (path, true)
        case .notUinput:
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o666]))
            return (path, false)
        }
    }

    @Test("a rule's key(), pointer or touchpad, made at start: the rule's line, then the same words for each", arguments: [0, 1, 2], Node.allCases)
    func ruleUsers(user index: Int, node: Node) throws {
        let user = Self.users[index]
        let rules = try Binary.temporaryFile("uses.lua", "on(\"tap\", function(g)\n  \(user.call)\nend)\n")
        let (uinput, unprivileged) = try Self.uinput(node)
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(), environment: ["GESTUREMAP_UINPUT": uinput],
                                    killAfter: 20, unprivileged: unprivileged)
        let text: String
        switch node {
        case .missing: text = "\(user.name) needs \(uinput), which does not exist; \(Self.load), or \(user.otherwise)"
        case .denied: text = "\(user.name) needs write access to \(uinput); \(Self.seat); or \(user.otherwise)"
        case .notUinput: text = "\(user.name) could not set up a virtual \(user.name == "key()" ? "keyboard" : user.name) on \(uinput): Inappropriate ioctl for device"
        }
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.errorLines == ["gesturemap: \(rules.path):2: " + text], "\(result.stderr)")
    }

    @Test("--share, before it waits for any device: the same words, with its own way out", arguments: [Node.missing, .denied])
    func share(node: Node) throws {
        let rules = try Binary.temporaryFile("share.lua", "config{ share = true }\non(\"tap\", function(g) emit(\"tapped\") end)\n")
        let (uinput, unprivileged) = try Self.uinput(node)
        let noInput = try Binary.temporaryDirectory().appendingPathComponent("input").path
        let result = try Binary.run(["run", "--rules", rules.path], environment: ["GESTUREMAP_INPUT_DIR": noInput, "GESTUREMAP_UINPUT": uinput],
                                    killAfter: 20, unprivileged: unprivileged)
        let readBeside = "run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"
        let text = node == .missing
            ? "--share needs \(uinput), which does not exist, to give the desktop its copy of each touch device; \(Self.load), or \(readBeside)"
            : "--share needs write access to \(uinput) to give the desktop its copy of each touch device; \(Self.seat); or \(readBeside)"
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.errorLines == ["gesturemap: " + text], "\(result.stderr)")
    }
}
