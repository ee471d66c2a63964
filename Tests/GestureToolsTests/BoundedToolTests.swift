#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureCore
@testable import GestureTools
import Testing

@Suite("test's case folders")
struct CaseFolderTests {
    @Test("test's folders: a link back up is walked once, a FIFO named like a case is refused, the rest are found")
    func caseFolders() throws {
        let dir = try scratchDirectory("cases")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inner = dir.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try "{}\n".write(to: inner.appendingPathComponent("swipe.jsonl"), atomically: true, encoding: .utf8)
        #expect(symlink(dir.path, inner.appendingPathComponent("loop").path) == 0)
        #expect(mkfifo(dir.appendingPathComponent("pipe.jsonl").path, 0o600) == 0)
        let list = GoldenCaseList(paths: [dir.path])
        #expect(list.cases.map(\.input) == [inner.appendingPathComponent("swipe.jsonl").path])
        #expect(list.problems == ["\(dir.path)/pipe.jsonl: not a regular file; a case is a file"])
    }
}

/// A touch held for a very long time: the author tools keep a bounded path.
@Suite("Captured paths stay bounded")
struct CapturedPathTests {
    @Test("a million points keep at most 2,048, evenly thinned, the first and the latest among them, in time order")
    func thinned() {
        var path = CapturedPath(id: 1)
        for k in 0..<1_000_000 { path.append(Vector(Double(k), 0), at: Double(k) * 0.008) }
        #expect(path.points.count <= CapturedPath.mostPoints)
        #expect(path.points.count > CapturedPath.mostPoints / 4)
        #expect(path.points.first == Vector(0, 0))
        #expect(path.points.last == Vector(999_999, 0))
        #expect(path.times.last == 999_999 * 0.008)
        #expect(path.times.count == path.points.count)
        #expect(zip(path.times, path.times.dropFirst()).allSatisfy { $0 < $1 })
        // Evenly: no gap between kept points is more than twice another (the latest aside).
        let gaps = zip(path.points, path.points.dropFirst()).map { $1.x - $0.x }.dropLast()
        #expect((gaps.max() ?? 0) <= 2 * (gaps.min() ?? 0))
    }

    @Test("a short path keeps every point")
    func short() {
        var path = CapturedPath(id: 1)
        for k in 0..<100 { path.append(Vector(Double(k), 1), at: Double(k)) }
        #expect(path.points.count == 100)
        #expect(path.times == (0..<100).map(Double.init))
    }
}
