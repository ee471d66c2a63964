import Glibc

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

    var isEmpty: Bool { fds.isEmpty }

    /// A descriptor poll() reported, with what it reported.
    struct Ready {
        var token: Token
        var fd: Int32
        var events: Int16
    }

    enum Outcome {
        case ready([Ready])
        case timedOut
        case interrupted
        case failed(Int32)
    }

    /// Waits up to `timeout` ms (-1: until something happens).
    mutating func wait(timeout: Int32) -> Outcome {
        let result = poll(&fds, nfds_t(fds.count), timeout)
        if result < 0 { return errno == EINTR ? .interrupted : .failed(errno) }
        if result == 0 { return .timedOut }
        var ready: [Ready] = []
        for (i, pfd) in fds.enumerated() where pfd.revents != 0 { ready.append(Ready(token: tokens[i], fd: pfd.fd, events: pfd.revents)) }
        return .ready(ready)
    }
}
