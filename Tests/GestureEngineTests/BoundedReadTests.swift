#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import GestureEngine
import GestureCore
import Testing

/// Files the author tools read (shapes, expectations) and the folders of cases
/// `test` walks: read up to a limit, never waited on, never walked in circles.
@Suite("Bounded reads and case folders")
struct BoundedReadTests {
    @Test("a FIFO in a file's place is refused at once, not waited on; a file past the limit is refused unread")
    func fifoAndLimit() throws {
        let dir = try scratchDirectory("bounded")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("shapes.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        guard case .failure(let error) = FileSystem.read(fifo, limit: 1 << 20) else {
            Issue.record("a FIFO was read")
            return
        }
        #expect(error.message == "\(fifo): not a regular file (a FIFO)")
        let big = dir.appendingPathComponent("big").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 70_000)))
        guard case .failure(let tooBig) = FileSystem.read(big, limit: 65_536) else {
            Issue.record("a file past its limit was read")
            return
        }
        #expect(tooBig.message == "\(big): larger than 64 KiB")
        #expect((try? FileSystem.read(big, limit: 70_000).get())?.count == 70_000)
        guard case .failure(let missing) = FileSystem.read(dir.appendingPathComponent("none").path, limit: 10) else {
            Issue.record("a file that does not exist was read")
            return
        }
        #expect(missing.errno == ENOENT)
    }
}
