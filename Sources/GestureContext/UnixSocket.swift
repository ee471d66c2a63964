import Glibc
import GestureSystem

/// A connected AF_UNIX stream socket, for the compositors' IPC. It never
/// blocks: a peer that does not accept, read or answer is an error or a
/// wait in the caller's poll, never a wait here.
final class UnixSocket {
    let fd: Int32
    let path: String

    /// Connects; the message names the path and the reason.
    init(path: String) throws(AppSourceLost) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { throw AppSourceLost("\(path): not a usable socket path") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw AppSourceLost("cannot make a socket: \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            // A listener whose backlog is full: it has stopped accepting.
            if code == EAGAIN { throw AppSourceLost("\(path) is not accepting connections") }
            throw AppSourceLost("cannot connect to \(path): \(String(cString: strerror(code)))")
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws(AppSourceLost) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw AppSourceLost("\(path) is not reading what is sent to it") }
                throw AppSourceLost("\(path): write failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// What is there: nil when nothing has arrived (within `timeout` seconds, 0
    /// for not waiting), an empty array when the other side closed.
    func receive(waiting timeout: Double = 0) throws(AppSourceLost) -> [UInt8]? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = PollTimeout.milliseconds(timeout)
        var ready: Int32
        repeat { ready = poll(&pfd, 1, ms) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
                throw AppSourceLost("\(path): read failed: \(String(cString: strerror(errno)))")
            }
            return Array(buffer[0..<n])
        }
    }

    /// Everything until the other side closes (a request socket's answer), up to
    /// `limit` bytes and `timeout` seconds.
    func receiveAll(timeout: Double, limit: Int = 16 << 20) throws(AppSourceLost) -> [UInt8] {
        var out: [UInt8] = []
        let deadline = MonotonicClock.now() + timeout
        while out.count < limit {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { throw AppSourceLost("\(path): no complete answer within \(Int(timeout)) s") }
            guard let chunk = try receive(waiting: left) else { continue }
            if chunk.isEmpty { return out }
            out += chunk
        }
        return out
    }
}
