import Foundation
import GestureInput
import Glibc
import Testing

/// Making a device where there is no uinput, or something that is not one:
/// the error says which, for the user that asked. (The kernel suite makes real ones.)
@Suite("uinput devices that cannot be made")
struct UinputDeviceTests {
    static let description = UinputDevice.Description(name: "gesturemap test device", product: 0x6d6a)

    @Test("no node at the path: missing")
    func missing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-uinput-\(UUID().uuidString)").path
        #expect(throws: UinputAccessError.missing(.touchpad, uinput: path)) {
            _ = try UinputDevice(Self.description, uinput: path, user: .touchpad)
        }
    }

    @Test("a regular file, which takes no uinput request: failed, with the system's reason")
    func notUinput() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-uinput-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { unlink(path) }
        #expect(throws: UinputAccessError.failed(.key, uinput: path, reason: "Inappropriate ioctl for device")) {
            _ = try UinputDevice(Self.description, uinput: path, user: .key)
        }
    }

    @Test("the mode says before anything opens it: missing, or nothing to say for a node this user may write")
    func probe() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)").path
        #expect(UinputAccessError.probe(path, for: .share(device: "each touch device")) == .missing(.share(device: "each touch device"), uinput: path))
        #expect(FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        defer { unlink(path) }
        #expect(UinputAccessError.probe(path, for: .key) == nil)
    }
}
