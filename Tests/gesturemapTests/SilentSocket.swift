#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A Unix socket that takes every connection and never says a word: a stuck
/// compositor, or a stale socket someone else listens on.
final class SilentSocket: @unchecked Sendable {
    let path: String
    private let server: Int32
    private let lock = NSLock()
    private var clients: [Int32] = []

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        server = fd
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                lock.lock()
                clients.append(client)
                lock.unlock()
            }
        }
    }

    /// Closes the socket and every connection it took.
    func stop() {
        shutdown(server, Int32(SHUT_RDWR))
        close(server)
        lock.lock()
        for client in clients { close(client) }
        clients.removeAll()
        lock.unlock()
        unlink(path)
    }
}
