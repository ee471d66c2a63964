import Glibc
@testable import GestureServe

/// A TCP client of a `PhoneServer` on 127.0.0.1, and the loop that serves
/// it: poll on the server's descriptors, as the engine's loop does.
final class LoopbackClient {
    let fd: Int32
    /// The server's port.
    let port: UInt16

    /// A client from 127.0.0.1, or from 127.0.0.`from` (all of 127/8 is this machine):
    /// another address, as another machine on the LAN would have.
    init(port: UInt16, from: UInt8 = 1) {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if from != 1 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = (UInt32(0x7f00_0000) | UInt32(from)).bigEndian
            _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        sin.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        // Not blocking while it connects: a server that stopped accepting leaves the
        // connection in its backlog, or, past that, unanswered; 2 s is enough either way.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var wait = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
        _ = poll(&wait, 1, 2000)
        _ = fcntl(fd, F_SETFL, flags)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The tab went away.
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// A masked text frame, as a browser sends it.
    func sendText(_ text: String) { send(WebSocketTests.clientFrame(1, Array(text.utf8))) }

    /// What arrived, until `count` bytes or the server closed (or 2 s passed).
    func receive(atLeast count: Int = 1) -> [UInt8] {
        receive(atLeast: count, waitingUpTo: 2)
    }

    /// For a server that may be resting its listener first (out of descriptors, it
    /// tries again each second), and on a loaded machine slower still.
    func receive(atLeast count: Int, waitingUpTo seconds: Int) -> [UInt8] {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while got.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            got += buffer[0..<n]
        }
        return got
    }

    /// Whether the server closed the connection (recv sees the end).
    var closedByServer: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// Whether the server has closed it by now, without waiting (an end or a reset).
    var isClosedNow: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// "127.0.0.1:40112": the peer name the server gives this client.
    var name: String {
        var sin = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let a = UInt32(bigEndian: sin.sin_addr.s_addr)
        return "\(a >> 24).\((a >> 16) & 255).\((a >> 8) & 255).\(a & 255):\(UInt16(bigEndian: sin.sin_port))"
    }

    /// Serves what is ready, a few rounds, collecting the events.
    static func pump(_ server: PhoneServer, now: Double = 1, rounds: Int = 6) -> [PhoneEvent] {
        var events: [PhoneEvent] = []
        for _ in 0..<rounds {
            var fds = server.descriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            events += server.serve(ready: Set(fds.filter { $0.revents != 0 }.map(\.fd)), now: now)
        }
        return events
    }
}

extension PhoneServer {
    /// A server on 127.0.0.1 at a port the system picks.
    static func loopback(_ settings: ServeSettings = ServeSettings()) throws -> PhoneServer {
        try PhoneServer(settings: settings, address: ListenAddress(octets: [127, 0, 0, 1], port: 0), token: PairingToken(text: String(repeating: "ab", count: 16)))
    }
}
