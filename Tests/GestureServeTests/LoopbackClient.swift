#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@testable import GestureServe

/// A TCP client of a `PhoneServer` on 127.0.0.1, and the loop that serves
/// it: poll on the server's descriptors, as the engine's loop does.
final class LoopbackClient {
    let fd: Int32

    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        sin.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        _ = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
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
