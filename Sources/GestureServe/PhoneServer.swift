import Glibc
import CServeTLS
import GestureCore

/// The HTTP and WebSocket server of `serve`: non-blocking sockets that the
/// engine's one poll loop watches (`descriptors`) and hands back when ready
/// (`serve`). It answers only requests that carry the token, serves the page
/// and up to `maxClients` WebSockets, and turns their messages into NDJSON.
public final class PhoneServer {
    public let settings: ServeSettings
    public let token: PairingToken
    public let address: ListenAddress
    let listener: Int32
    /// `--cert`/`--key`: every connection speaks TLS.
    let tlsContext: UnsafeMutableRawPointer?
    var connections: [PhoneConnection] = []
    var nextID = 0
    /// Refusals (and connections displaced) said so far, by kind.
    var refusalsReported: [Refusal: Int] = [:]
    static let refusalsToReport = 5
    /// Who gives way when the heads in progress fill their slots.
    let slots: HeadSlots
    /// TLS: whose hello goes on to the handshake's costly part, and when.
    var turns: HandshakeTurns?
    /// accept() failed for want of descriptors: the listener is not polled until then.
    var listenerRestsUntil: Double?
    var acceptFailureReported = false

    enum Refusal {
        case token, busy, host, origin, displaced
    }

    public struct StartError: Error, Equatable {
        public var message: String
    }

    /// Binds and listens at `address` (port 0: one the system picks, read back).
    public init(settings: ServeSettings, address: ListenAddress, token: PairingToken) throws(StartError) {
        self.settings = settings
        self.token = token
        slots = HeadSlots(total: settings.maxPendingRequests, perPeer: settings.maxPendingFromOnePeer)
        if let cert = settings.certificate, let key = settings.privateKey {
            var error = [CChar](repeating: 0, count: 512)
            guard let context = gm_tls_context_new(cert, key, &error, error.count) else {
                let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw StartError(message: "\(why) (--cert \(TerminalText.escaped(cert)) --key \(TerminalText.escaped(key)))")
            }
            tlsContext = context
            turns = HandshakeTurns(rate: settings.maxHandshakesPerSecond, now: 0)
        } else {
            tlsContext = nil
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            gm_tls_context_free(tlsContext)
            throw StartError(message: "cannot open a socket: \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = address.port.bigEndian
        let o = address.octets
        sin.sin_addr.s_addr = (UInt32(o[0]) << 24 | UInt32(o[1]) << 16 | UInt32(o[2]) << 8 | UInt32(o[3])).bigEndian
        let bound = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            gm_tls_context_free(tlsContext)
            let hint = code == EADDRINUSE ? "; another program listens there: pick another port with --listen \(address.host):PORT"
                : code == EADDRNOTAVAIL ? "; no interface of this machine has that address (ip -4 addr lists them)" : ""
            throw StartError(message: "cannot listen on \(address): \(String(cString: strerror(code)))\(hint)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        self.address = ListenAddress(octets: address.octets, port: UInt16(bigEndian: actual.sin_port))
    }

    deinit {
        for connection in connections { shut(connection) }
        close(listener)
        gm_tls_context_free(tlsContext)
    }

    /// The page's address, token included: what the phone opens.
    public var url: String { "\(tlsContext == nil ? "http" : "https")://\(address)/?k=\(token.text)" }

    /// Pages holding a slot of `--max-clients`: one whose connection closed
    /// earlier in this turn (the engine not yet told) holds none, since a
    /// newcomer is read in the same turn.
    public var pagesConnected: Int { connections.filter { $0.isPage && $0.fd >= 0 }.count }

    // MARK: The loop's side

    /// What to poll: the listener (unless it rests after running out of
    /// descriptors), every connection for input, and for output while it has
    /// some to send; a TLS hello waiting for its turn only for its end.
    public var descriptors: [(fd: Int32, events: Int16)] {
        var list: [(Int32, Int16)] = []
        if listenerRestsUntil == nil { list.append((listener, Int16(POLLIN))) }
        for c in connections where c.fd >= 0 {
            let output = c.outbox.isEmpty && !c.tlsWantsWrite ? 0 : Int16(POLLOUT)
            list.append((c.fd, c.waitsForTurn ? 0 : Int16(POLLIN) | output))
        }
        return list
    }

    /// Seconds until something is due: a head or an answer overdue, a page's
    /// ping, the listener's rest over, a TLS hello's turn; nil for none.
    public func timeout(now: Double) -> Double? {
        // Bytes TLS already decrypted wake no poll(): serve them at once.
        if connections.contains(where: \.hasDecryptedBytes) { return 0 }
        var due: [Double] = []
        for c in connections where c.fd >= 0 {
            if let deadline = c.deadline { due.append(deadline) }
            if c.isWebSocket { due.append(min(max(c.lastHeard, c.lastPinged) + settings.pingInterval, c.lastHeard + settings.silenceLimit)) }
        }
        if let listenerRestsUntil { due.append(listenerRestsUntil) }
        if let turns, connections.contains(where: \.waitsForTurn) { due.append(now + turns.wait(now: now)) }
        return due.min().map { max(0, $0 - now) }
    }

    /// Serves the descriptors that poll said are ready, then what is due by
    /// `now`, the engine's monotonic clock.
    public func serve(ready: Set<Int32>, now: Double) -> [PhoneEvent] {
        var events: [PhoneEvent] = []
        // The connections poll saw first: accepting may close some and reuse their numbers.
        for c in connections where c.fd >= 0 {
            guard ready.contains(c.fd) || c.hasDecryptedBytes else {
                if c.isWebSocket { keepAlive(c, now: now) }
                continue
            }
            // Polled for nothing while it waits its turn: only its end (an error, a hang-up) wakes it.
            if c.waitsForTurn {
                shut(c)
                continue
            }
            if !c.outbox.isEmpty { flush(c) }
            receive(c, now: now, into: &events)
            if c.isWebSocket { keepAlive(c, now: now) }
        }
        var restEnded = false
        if let until = listenerRestsUntil, now >= until {
            listenerRestsUntil = nil
            restEnded = true
        }
        if listenerRestsUntil == nil, restEnded || ready.contains(listener) { accept(now: now, into: &events) }
        giveTurn(now: now, into: &events)
        for c in connections where c.fd >= 0 {
            if let deadline = c.deadline, deadline <= now { overdue(c) }
        }
        for c in connections where c.isFinished {
            if c.isPage { events.append(.disconnected(id: c.id, reason: c.closeReason)) }
            c.isPage = false
            shut(c)
        }
        connections.removeAll { $0.fd < 0 }
        return events
    }

    /// A head not whole in time, or an answer not taken: the connection goes.
    private func overdue(_ c: PhoneConnection) {
        if case .closing = c.phase, c.isPage, c.closeReason == nil {
            c.closeReason = "phone \(c.peer): the page did not take the last \(c.outbox.count) bytes within \(settings.closingTimeout) s; closed the connection"
        }
        shut(c)
    }

    /// Pings a quiet page; drops one that answered nothing for `silenceLimit`.
    private func keepAlive(_ c: PhoneConnection, now: Double) {
        guard c.fd >= 0, c.isWebSocket else { return }
        if now - c.lastHeard >= settings.silenceLimit {
            queue(WebSocketFrame.encode(.close, [0x03, 0xe9]), on: c)
            c.phase = .closing(deadline: now + settings.closingTimeout)
            c.closeReason = c.closeReason ?? "phone \(c.peer): nothing heard for \(settings.silenceLimit) s, not even a pong (Wi-Fi lost, or the phone asleep?); closed the connection"
        } else if now - max(c.lastHeard, c.lastPinged) >= settings.pingInterval {
            c.lastPinged = now
            queue(WebSocketFrame.encode(.ping, []), on: c)
        }
    }

    /// Shows `text` on the page of connection `id` (the recognized gesture).
    public func show(gesture text: String, on id: Int) {
        guard let c = connections.first(where: { $0.id == id && $0.isWebSocket }) else { return }
        var w = JSONWriter()
        w.raw("{\"gesture\":")
        w.string(text)
        w.raw("}")
        queue(WebSocketFrame.encode(.text, w.bytes), on: c)
    }

    // MARK: Output

    func queue(_ bytes: [UInt8], on c: PhoneConnection) {
        guard c.fd >= 0 else { return }
        if c.outbox.count + bytes.count > PhoneConnection.maxOutbox {
            // The page stopped reading: it loses its connection, not the engine its memory.
            if c.isPage, c.closeReason == nil {
                c.closeReason = "phone \(c.peer): the page stopped reading: more than \(PhoneConnection.maxOutbox / 1024) KiB waited for it; closed the connection"
            }
            c.outbox.removeAll()
            shut(c)
            return
        }
        c.outbox += bytes
        flush(c)
    }

    func flush(_ c: PhoneConnection) {
        while !c.outbox.isEmpty, c.fd >= 0 {
            switch c.write() {
            case .again:
                return
            case .ended:
                c.outbox.removeAll()
                return shut(c)
            case .bytes(let n):
                c.outbox.removeFirst(n)
            }
        }
    }

    func shut(_ c: PhoneConnection) {
        c.close()
    }

    func refused(_ kind: Refusal, _ what: String, into events: inout [PhoneEvent]) {
        say(kind, "refused \(what)", into: &events)
    }

    /// Says `text`, but only the first few times for each kind: a scanner on
    /// the LAN must not fill the terminal, nor hide that a page was turned away.
    func say(_ kind: Refusal, _ text: String, into events: inout [PhoneEvent]) {
        let count = (refusalsReported[kind] ?? 0) + 1
        refusalsReported[kind] = count
        if count <= PhoneServer.refusalsToReport {
            events.append(.note(text + (count == PhoneServer.refusalsToReport ? " (further ones are not reported)" : "")))
        }
    }
}
