import Foundation
import Testing
@testable import GestureInput

@Suite("udev's database, read once for every use")
struct UdevDatabaseTests {
    /// A sysfs with event5 as 13:69, and udev's entry for it.
    static func tree(entry: String?) throws -> (UdevDatabase, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("udev-\(UUID().uuidString)")
        let dev = root.appendingPathComponent("sys/class/input/event5")
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "13:69\n".write(to: dev.appendingPathComponent("dev"), atomically: true, encoding: .utf8)
        if let entry { try entry.write(to: data.appendingPathComponent("c13:69"), atomically: true, encoding: .utf8) }
        return (UdevDatabase(root: data.path, sysfs: root.appendingPathComponent("sys").path), root)
    }

    @Test("a node's entry through sysfs: its properties (a later key replaces an earlier) and its G:/Q: tags")
    func entryOfNode() throws {
        let (udev, root) = try Self.tree(entry: "S:input/by-path/x\nE:ID_INPUT=1\nE:LIBINPUT_FUZZ_35=8\nE:ID_INPUT=2\nG:seat\nQ:uaccess\nE:broken\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let entry = try #require(udev.entry(ofNode: "/dev/input/event5"))
        #expect(entry.properties == ["ID_INPUT": "2", "LIBINPUT_FUZZ_35": "8"])
        #expect(entry.tags == ["seat", "uaccess"])
        #expect(DeviceClone.libinputFuzz(of: "/dev/input/event5", udev: udev).map(\.fuzz) == [8])
    }

    @Test("no entry, or no such node: nil, and no fuzz")
    func missing() throws {
        let (udev, root) = try Self.tree(entry: nil)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(udev.entry(ofNode: "/dev/input/event5") == nil)
        #expect(udev.entry(ofNode: "/dev/input/event9") == nil)
        #expect(DeviceClone.libinputFuzz(of: "/dev/input/event5", udev: udev).isEmpty)
    }
}
