#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureSystem
import Testing

/// `test --update`, `draw -o` and `shape add` write through FileSystem.replace.
@Suite("Files written safely: a new temporary file, the target's mode, no link followed")
struct FileReplaceTests {
    @Test("a link at the target is replaced itself; the file it points to is untouched")
    func linkAtTarget() throws {
        let dir = try scratchDirectory("replace")
        let victim = dir.appendingPathComponent("victim")
        try "precious".write(to: victim, atomically: false, encoding: .utf8)
        let target = dir.appendingPathComponent("expected.out")
        #expect(symlink(victim.path, target.path) == 0)
        #expect(throws: Never.self) { try FileSystem.replace(target.path, with: Array("new".utf8)) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: target.path)) == nil)
    }

    @Test("a link planted at the old predictable temporary name is not followed")
    func plantedTemporary() throws {
        let dir = try scratchDirectory("replace")
        let victim = dir.appendingPathComponent("victim")
        try "precious".write(to: victim, atomically: false, encoding: .utf8)
        let target = dir.appendingPathComponent("picture.svg")
        #expect(symlink(victim.path, target.path + ".tmp-\(getpid())") == 0)
        #expect(throws: Never.self) { try FileSystem.replace(target.path, with: Array("<svg/>".utf8)) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(try String(contentsOf: target, encoding: .utf8) == "<svg/>")
    }

    @Test("the target keeps its mode; a new file gets the umask's; nothing is left behind")
    func modes() throws {
        let dir = try scratchDirectory("replace")
        let kept = dir.appendingPathComponent("kept")
        try "old".write(to: kept, atomically: false, encoding: .utf8)
        #expect(chmod(kept.path, 0o640) == 0)
        #expect(throws: Never.self) { try FileSystem.replace(kept.path, with: Array("new".utf8)) }
        #expect((try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int) == 0o640)

        let fresh = dir.appendingPathComponent("fresh")
        let mask = umask(0o022)
        defer { umask(mask) }
        #expect(throws: Never.self) { try FileSystem.replace(fresh.path, with: Array("x".utf8)) }
        #expect((try FileManager.default.attributesOfItem(atPath: fresh.path)[.posixPermissions] as? Int) == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["fresh", "kept"])
    }

    @Test("a target whose name is as long as a name may be (255 bytes), or almost, in any script, is written; nothing is left behind", arguments: [
        String(repeating: "a", count: 251) + ".svg",
        String(repeating: "a", count: 250) + ".svg",
        String(repeating: "é", count: 125) + ".svg",
        String(repeating: "字", count: 83) + ".jsonl",
    ])
    func longNames(_ name: String) throws {
        let dir = try scratchDirectory("replace")
        let target = dir.appendingPathComponent(name)
        #expect(throws: Never.self) { try FileSystem.replace(target.path, with: Array("<svg/>".utf8)) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "<svg/>")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [name])
    }

    @Test("the temporary name fits in 255 bytes and is cut at a character's start")
    func temporaryTemplate() {
        let template = FileSystem.temporaryTemplate(directory: "/d", name: String(repeating: "é", count: 127))
        let bytes = template.dropLast().map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        #expect(name.utf8.count <= 255)
        #expect(name == "." + String(repeating: "é", count: 123) + ".XXXXXX")
        #expect(template.last == 0)
    }
}
