#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureContext
import Testing
import GestureSystem

/// A server that takes the connection and never answers: an X server that is
/// stopped, or a socket someone else put where the X server's was. libxcb's
/// connect waits for the server's setup with no time limit; the attempt is
/// made on a thread of its own, so the engine's loop goes on.
@Suite("A stalled app source", .serialized)
struct StalledServerTests {
    /// A listening UNIX socket at /tmp/.X11-unix/X<n> that accepts nothing.
    final class SilentXSocket {
        let display: String
        private let path: String
        private var fd: Int32

        init() throws {
            try? FileManager.default.createDirectory(atPath: "/tmp/.X11-unix", withIntermediateDirectories: true)
            guard let number = (900..<1000).first(where: { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") }) else {
                throw CancellationError()
            }
            display = ":\(number)"
            path = "/tmp/.X11-unix/X\(number)"
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
                throw CancellationError()
            }
        }

        /// The connections waiting are reset: the client's wait ends.
        func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
            unlink(path)
        }

        deinit { close() }
    }

    @Test("an X server that never answers: the start waits a bounded time, the loop never waits; slowness and then the failure are said")
    func silentXServer() throws {
        let server: SilentXSocket
        do { server = try SilentXSocket() } catch { try Test.cancel("cannot make a socket in /tmp/.X11-unix") }
        var messages: [String] = []
        let started = MonotonicClock.now()
        let tracker = AppTracker(choice: .x11(display: server.display), report: { messages.append($0) })
        let startTook = MonotonicClock.now() - started
        // The start waits 2 s for the first answer, no longer (well under the 10 s bound even on a busy machine).
        #expect(startTook >= 1.5 && startTook < 10, "the start took \(startTook) s")
        #expect(!tracker.isConnected)
        #expect(tracker.descriptors.count == 1, "the attempt's descriptor is polled")

        // The loop's calls return while the attempt waits: one that waited on the
        // stopped server would not return before it runs again (5 s on).
        let before = MonotonicClock.now()
        tracker.tick()
        tracker.handleReadable()
        #expect(MonotonicClock.now() - before < 2.5)

        #expect(follow(tracker, upTo: 10) { messages.contains { $0.contains("no answer to the connection after 5 s") } }, "\(messages)")
        #expect(messages == ["app source x11: no answer to the connection after 5 s (is the server stopped?); g.app is nil until it answers"])

        // The server goes away: the attempt fails, and is said.
        server.close()
        #expect(follow(tracker, upTo: 10) { messages.count >= 2 }, "\(messages)")
        #expect(messages.dropFirst().first?.hasPrefix("app source x11: cannot connect to the X server \(server.display)") == true, "\(messages)")
    }
}
