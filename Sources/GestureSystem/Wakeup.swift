import Glibc

/// A descriptor one thread (or a signal handler) makes readable for another
/// that polls it: a pipe whose reading end says "look", however many times it
/// was said. Every self-pipe of gesturemap is one of these.
// Invariant: signal() only writes the pipe and wait() and drain() only poll and read it, and a pipe's ends are safe to use from two threads.
public final class Wakeup: @unchecked Sendable {
    /// Poll this for POLLIN.
    public let fd: Int32
    /// What `signal()` writes to. A signal handler, which must not touch a
    /// Swift object, keeps this number and calls `signal(writeEnd:)` itself.
    public let writeEnd: Int32

    /// Nil when the system would not make a pipe.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        fd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(fd)
        close(writeEnd)
    }

    /// Makes `fd` readable (a full pipe already is).
    public func signal() {
        Wakeup.signal(writeEnd: writeEnd)
    }

    /// `signal()` for a signal handler: one write(2), which is async-signal-safe.
    public static func signal(writeEnd: Int32) {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Blocks until a `signal()` since the last drain, then drains.
    public func wait() {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // Interrupted by a signal: the wait goes on. Any other failure returns,
        // and the caller, which looks at its state again, calls again.
        while poll(&request, 1, -1) < 0 && errno == EINTR {}
        drain()
    }

    /// Empties it: `fd` is readable again only after the next `signal()`.
    /// Whether it had been signalled.
    @discardableResult
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 { any = true }
        return any
    }
}
