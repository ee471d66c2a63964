import Glibc
import CServeTLS

/// A connection's bytes, plain or through its TLS session: the one place
/// the server reads, writes and closes a socket.
extension PhoneConnection {
    /// The socket (or TLS) has nothing now, or cannot take more now.
    static let again = -1

    /// > 0 bytes; 0 the peer closed; `again`; < -1 failed.
    func read(into buffer: inout [UInt8]) -> Int {
        guard let tls else {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { return errno == EAGAIN || errno == EINTR ? Self.again : -2 }
            return n
        }
        tlsWantsWrite = false
        let n = buffer.withUnsafeMutableBytes { gm_tls_read(tls, $0.baseAddress, $0.count) }
        switch Int(n) {
        case GM_TLS_WANT_READ: return Self.again
        case GM_TLS_WANT_WRITE:
            tlsWantsWrite = true
            return Self.again
        case GM_TLS_WANT_TURN:
            waitsForTurn = true
            return Self.again
        case GM_TLS_FAILED: return -2
        default: return Int(n)
        }
    }

    /// > 0 bytes of the outbox sent; `again`; otherwise failed.
    func write() -> Int {
        guard let tls else {
            let n = outbox.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { return errno == EAGAIN || errno == EINTR ? Self.again : -2 }
            return n
        }
        let n = outbox.withUnsafeBytes { gm_tls_write(tls, $0.baseAddress, $0.count) }
        switch Int(n) {
        case GM_TLS_WANT_READ, GM_TLS_WANT_WRITE, GM_TLS_WANT_TURN: return Self.again
        case GM_TLS_FAILED: return -2
        default: return n > 0 ? Int(n) : -2
        }
    }

    /// Bytes TLS already decrypted, which no poll() sees.
    var hasDecryptedBytes: Bool {
        guard fd >= 0, let tls else { return false }
        if case .closing = phase { return false }
        return gm_tls_pending(tls) > 0
    }

    /// Its hello may go on to the handshake's costly part at the next read.
    func takeTurn() {
        guard let tls else { return }
        gm_tls_take_turn(tls)
        waitsForTurn = false
    }

    /// Closes the socket (after TLS's close_notify, if it can go at once).
    func close() {
        guard fd >= 0 else { return }
        gm_tls_session_free(tls)
        tls = nil
        _ = Glibc.close(fd)
        fd = -1
        phase = .closing(deadline: -.infinity)
    }
}
