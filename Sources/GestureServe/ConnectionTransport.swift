import Glibc
import CServeTLS

/// A connection's bytes, plain or through its TLS session: the one place
/// the server reads, writes and closes a socket.
/// What a read or a write on a connection came to.
enum TransportOutcome: Equatable {
    /// This many bytes read, or taken from the outbox.
    case bytes(Int)
    /// Nothing now, or no room now: poll() says when to try again.
    case again
    /// The peer closed (a read of 0), or the socket or TLS failed.
    case ended
}

extension PhoneConnection {
    func read(into buffer: inout [UInt8]) -> TransportOutcome {
        guard let tls else {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { return errno == EAGAIN || errno == EINTR ? .again : .ended }
            return n > 0 ? .bytes(n) : .ended
        }
        tlsWantsWrite = false
        let n = buffer.withUnsafeMutableBytes { gm_tls_read(tls, $0.baseAddress, $0.count) }
        switch Int(n) {
        case GM_TLS_WANT_READ: return .again
        case GM_TLS_WANT_WRITE:
            tlsWantsWrite = true
            return .again
        case GM_TLS_WANT_TURN:
            waitsForTurn = true
            return .again
        case GM_TLS_FAILED: return .ended
        default: return n > 0 ? .bytes(Int(n)) : .ended
        }
    }

    /// Sends what the outbox holds, or some of it.
    func write() -> TransportOutcome {
        guard let tls else {
            let n = outbox.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { return errno == EAGAIN || errno == EINTR ? .again : .ended }
            return n > 0 ? .bytes(n) : .ended
        }
        let n = outbox.withUnsafeBytes { gm_tls_write(tls, $0.baseAddress, $0.count) }
        switch Int(n) {
        case GM_TLS_WANT_READ, GM_TLS_WANT_WRITE, GM_TLS_WANT_TURN: return .again
        case GM_TLS_FAILED: return .ended
        default: return n > 0 ? .bytes(Int(n)) : .ended
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
