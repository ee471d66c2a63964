#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureSystem
import Testing

/// Files read whole (shapes, expectations, rules read again, tablet
/// descriptions): up to a limit, never waited on, refused past it.
@Suite("Bounded reads")
struct BoundedReadTests {
    @Test("a FIFO in a file's place is refused at once, not waited on; a file past the limit is refused unread")
    func fifoAndLimit() throws {
        let dir = try scratchDirectory("bounded")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("shapes.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        guard case .failure(let error) = BoundedFile.read(fifo, limit: 1 << 20) else {
            Issue.record("a FIFO was read")
            return
        }
        #expect(error.message == "\(fifo): not a regular file (a FIFO)")
        let big = dir.appendingPathComponent("big").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 70_000)))
        guard case .failure(let tooBig) = BoundedFile.read(big, limit: 65_536) else {
            Issue.record("a file past its limit was read")
            return
        }
        #expect(tooBig.message == "\(big): larger than 64 KiB")
        #expect((try? BoundedFile.read(big, limit: 70_000).get())?.count == 70_000)
        guard case .failure(let missing) = BoundedFile.read(dir.appendingPathComponent("none").path, limit: 10) else {
            Issue.record("a file that does not exist was read")
            return
        }
        #expect(missing.errno == ENOENT)
    }
}
