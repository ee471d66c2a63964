#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureSystem
import Synchronization
import Testing

@Suite("The operating system's plumbing")
struct PlumbingTests {
    static let timeouts: [(Double, Int32)] = [
        (0, 0), (-3, 0), (0.0001, 1), (0.0015, 2), (1, 1000), (59.9994, 60_000), (60, 60_000), (1e300, 60_000),
        (.infinity, 60_000), (-.infinity, 0), (.nan, 0),
    ]

    @Test("poll timeouts: whole milliseconds rounded up, never negative, a minute at most, 0 for NaN")
    func pollTimeout() {
        for (seconds, milliseconds) in Self.timeouts {
            #expect(PollTimeout.milliseconds(seconds) == milliseconds, "\(seconds) s")
        }
    }

    @Test("a directory's names, sorted, without . and ..; nil for one that is missing or is a file")
    func directoryNames() throws {
        let dir = try scratchDirectory("names")
        for name in ["b", "a", "event10", "event2"] {
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil))
        }
        #expect(Directory.names(in: dir.path) == ["a", "b", "event10", "event2"])
        #expect(Directory.names(in: dir.appendingPathComponent("none").path) == nil)
        #expect(Directory.names(in: dir.appendingPathComponent("a").path) == nil)
    }

    @Test("the monotonic clock: seconds and nanoseconds agree and never go back, and count a wait")
    func clock() {
        let a = MonotonicClock.now()
        let n = MonotonicClock.nanoseconds()
        // What is measured here is the clock, so the test waits on poll's own timer.
        _ = poll(nil, 0, 20)
        let b = MonotonicClock.now()
        #expect(b >= a + 0.019)
        #expect(MonotonicClock.nanoseconds() >= n)
        #expect(abs(Double(n) / 1e9 - a) < 1)
        #expect(MonotonicClock.threadCPUTime() >= 0)
    }

    @Test("a thread runs its body, and join waits for it; a detached one runs too")
    func threads() throws {
        let done = Mutex(0)
        let thread = try #require(SystemThread { done.withLock { $0 += 1 } })
        thread.join()
        thread.join()
        #expect(done.withLock { $0 } == 1)
        let ran = try #require(Wakeup())
        #expect(SystemThread.detached {
            done.withLock { $0 += 10 }
            ran.signal()
        })
        ran.wait()
        #expect(done.withLock { $0 } == 11)
    }

    @Test("a wakeup: readable after a signal, from a thread or a handler's write, however many; drained, it is quiet again")
    func wakeup() throws {
        let wakeup = try #require(Wakeup())
        var request = pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&request, 1, 0) == 0)
        #expect(!wakeup.drain())
        wakeup.signal()
        Wakeup.signal(writeEnd: wakeup.writeEnd)
        #expect(poll(&request, 1, 0) == 1)
        #expect(wakeup.drain())
        #expect(poll(&request, 1, 0) == 0)
        #expect(!wakeup.drain())
    }

    @Test("what a path is, in the words messages use")
    func kinds() throws {
        let dir = try scratchDirectory("kinds")
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var info = stat()
        #expect(stat(fifo, &info) == 0)
        #expect(FileKind(mode: info.st_mode) == .fifo)
        #expect("\(FileKind(mode: info.st_mode))" == "a FIFO")
        #expect(stat(dir.path, &info) == 0)
        #expect("\(FileKind(mode: info.st_mode))" == "a folder")
        #expect(FileError(path: "/x", .tooLarge(limit: 1 << 20)).message == "/x: larger than 1 MiB")
        #expect(FileError(path: "/x", errno: ENOENT).message == "/x: No such file or directory")
    }
}
