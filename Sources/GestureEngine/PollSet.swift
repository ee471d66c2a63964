#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureInput

/// The descriptors of one poll(), each added with what it stands for, so
/// whoever handles the news asks for a token, never for an offset.
struct PollSet<Token> {
    private var fds: [pollfd] = []
    private var tokens: [Token] = []

    /// `events` 0 asks for nothing: only the end of the other side (POLLERR,
    /// POLLHUP) is news. A negative descriptor is left out.
    mutating func add(_ fd: Int32, _ token: Token, events: Int16 = Int16(POLLIN)) {
        guard fd >= 0 else { return }
        fds.append(pollfd(fd: fd, events: events, revents: 0))
        tokens.append(token)
    }

    enum Outcome {
        case ready([Token])
        case timedOut
        case interrupted
        case failed(Int32)
    }

    /// Waits up to `timeout` ms (-1: until something happens).
    mutating func wait(timeout: Int32) -> Outcome {
        let result = poll(&fds, nfds_t(fds.count), timeout)
        if result < 0 { return errno == EINTR ? .interrupted : .failed(errno) }
        if result == 0 { return .timedOut }
        var ready: [Token] = []
        for (i, pfd) in fds.enumerated() where pfd.revents != 0 { ready.append(tokens[i]) }
        return .ready(ready)
    }
}

/// What a descriptor in the engine's loop stands for.
enum LoopToken: Equatable {
    case input(Int)
    case hotplug
    case hangup
    case rulesFile
    case appSource
    case keyboard(Int)
    case outputReader
    /// One of `serve`'s sockets, by descriptor.
    case phone(Int32)
}
