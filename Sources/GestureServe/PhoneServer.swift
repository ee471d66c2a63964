#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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
    private let listener: Int32
    /// `--cert`/`--key`: every connection speaks TLS.
    private let tlsContext: UnsafeMutableRawPointer?
    private var connections: [PhoneConnection] = []
    private var nextID = 0
    /// Refusals are reported, but only so many of each kind: a scanner on
    /// the LAN must not fill the terminal, nor hide that a page was turned away.
    private var refusalsReported: [Refusal: Int] = [:]
    static let refusalsToReport = 5

    private enum Refusal {
        case token, busy
    }

    public struct StartError: Error, Equatable {
        public var message: String
    }

    /// Binds and listens at `address` (port 0: one the system picks, read back).
    public init(settings: ServeSettings, address: ListenAddress, token: PairingToken) throws(StartError) {
        self.settings = settings
        self.token = token
        if let cert = settings.certificate, let key = settings.privateKey {
            var error = [CChar](repeating: 0, count: 512)
            guard let context = gm_tls_context_new(cert, key, &error, error.count) else {
                let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw StartError(message: "\(why) (--cert \(TerminalText.escaped(cert)) --key \(TerminalText.escaped(key)))")
            }
            tlsContext = context
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

    public var pagesConnected: Int { connections.filter(\.isPage).count }

    // MARK: The loop's side

    /// What to poll: the listener while there is room, every connection for
    /// input, and for output while it has some to send.
    public var descriptors: [(fd: Int32, events: Int16)] {
        var list: [(Int32, Int16)] = []
        let pending = connections.count - pagesConnected
        if pending < settings.maxPendingRequests { list.append((listener, Int16(POLLIN))) }
        for c in connections { list.append((c.fd, Int16(POLLIN) | (c.outbox.isEmpty && !c.tlsWantsWrite ? 0 : Int16(POLLOUT)))) }
        return list
    }

    /// Seconds until the next request head is overdue or a page is due a ping, or nil.
    public func timeout(now: Double) -> Double? {
        // Bytes TLS already decrypted wake no poll(): serve them at once.
        if connections.contains(where: \.hasDecryptedBytes) { return 0 }
        var earliest: Double?
        for c in connections {
            if case .request(_, let deadline) = c.phase { earliest = min(earliest ?? deadline, deadline) }
            if c.isWebSocket {
                let due = min(max(c.lastHeard, c.lastPinged) + settings.pingInterval, c.lastHeard + settings.silenceLimit)
                earliest = min(earliest ?? due, due)
            }
        }
        return earliest.map { max(0, $0 - now) }
    }

    /// Serves the descriptors that poll said are ready (and overdue requests);
    /// `now` is the engine's monotonic clock.
    public func serve(ready: Set<Int32>, now: Double) -> [PhoneEvent] {
        var events: [PhoneEvent] = []
        if ready.contains(listener) { accept(now: now, into: &events) }
        for c in connections {
            if ready.contains(c.fd) || c.hasDecryptedBytes {
                if !c.outbox.isEmpty { flush(c) }
                receive(c, now: now, into: &events)
            } else if case .request(_, let deadline) = c.phase, deadline <= now {
                shut(c)
            }
            if c.isWebSocket { keepAlive(c, now: now) }
        }
        for c in connections where c.isFinished {
            if c.isPage { events.append(.disconnected(id: c.id, reason: c.closeReason)) }
            c.isPage = false
            shut(c)
        }
        connections.removeAll { $0.fd < 0 }
        return events
    }

    /// Pings a quiet page; drops one that answered nothing for `silenceLimit`.
    private func keepAlive(_ c: PhoneConnection, now: Double) {
        if now - c.lastHeard >= settings.silenceLimit {
            queue(WebSocketFrame.encode(.close, [0x03, 0xe9]), on: c)
            c.phase = .closing
            c.closeReason = "phone \(c.peer): nothing heard for \(settings.silenceLimit) s, not even a pong (Wi-Fi lost, or the phone asleep?); closed the connection"
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

    // MARK: Connections

    private func accept(now: Double, into events: inout [PhoneEvent]) {
        while true {
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return }
            var tls: UnsafeMutableRawPointer?
            if let tlsContext {
                tls = gm_tls_session_new(tlsContext, fd)
                if tls == nil {
                    close(fd)
                    continue
                }
            }
            // Non-blocking and closed in the programs the rules start, as the listener is.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let value = UInt32(bigEndian: peer.sin_addr.s_addr)
            let octets = [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
            let name = ListenAddress(octets: octets, port: UInt16(bigEndian: peer.sin_port)).description
            nextID += 1
            let connection = PhoneConnection(fd: fd, id: nextID, peer: name, deadline: now + settings.requestTimeout)
            connection.tls = tls
            connections.append(connection)
            if connections.count - pagesConnected >= settings.maxPendingRequests { return }
        }
    }

    private func receive(_ c: PhoneConnection, now: Double, into events: inout [PhoneEvent]) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        // A bounded amount a turn: one page cannot keep the loop from the others.
        for _ in 0..<4 {
            guard c.fd >= 0 else { return }
            let n = c.read(into: &buffer)
            if n == PhoneConnection.again { return }
            if n <= 0 { return shut(c) }
            let chunk = buffer[0..<n]
            switch c.phase {
            case .request(var head, let deadline):
                head += chunk
                c.phase = .request(head: head, deadline: deadline)
                answer(c, head: head, now: now, into: &events)
            case .webSocket(let session, let rate, var inbox):
                inbox += chunk
                c.phase = .webSocket(session: session, rate: rate, inbox: inbox)
                readFrames(c, now: now, into: &events)
            case .closing:
                // The answer is on its way; what else the client says is read and dropped.
                continue
            }
        }
    }

    private func answer(_ c: PhoneConnection, head: [UInt8], now: Double, into events: inout [PhoneEvent]) {
        let request: HTTPRequest
        let headLength: Int
        switch HTTPRequest.parse(head[...]) {
        case .incomplete: return
        case .invalid:
            return respond(c, HTTPResponse.badRequest)
        case .request(let r, let length):
            request = r
            headLength = length
        }
        guard token.matches(request.query["k"].map { Substring($0) }) else {
            refused(.token, "a request for \(TerminalText.escaped(request.path)) from \(c.peer) without the token", into: &events)
            return respond(c, HTTPResponse.forbidden)
        }
        guard request.method == "GET" else { return respond(c, HTTPResponse.methodNotAllowed) }
        switch request.path {
        case "/":
            respond(c, HTTPResponse.page(TouchPage.html))
        case "/ws":
            guard request.asksForWebSocket, let key = request.headers["sec-websocket-key"], WebSocketHandshake.isValidKey(key),
                  request.headers["sec-websocket-version"] == "13" else {
                return respond(c, HTTPResponse.badRequest)
            }
            guard pagesConnected < settings.maxClients else {
                refused(.busy, "a page from \(c.peer): \(settings.maxClients) already connected (--max-clients)", into: &events)
                return respond(c, HTTPResponse.busy(settings.maxClients))
            }
            let name = "phone \(c.peer)"
            // Frames sent right behind the handshake came in the same read.
            let early = Array(head[headLength...])
            c.phase = .webSocket(session: PageSession(deviceName: name), rate: RateBucket(rate: settings.maxMessagesPerSecond, now: now), inbox: early)
            queue(HTTPResponse.switchingProtocols(accept: WebSocketHandshake.accept(key: key)), on: c)
            c.isPage = true
            c.lastHeard = now
            c.lastPinged = now
            events.append(.connected(id: c.id, name: name))
            if !early.isEmpty { readFrames(c, now: now, into: &events) }
        default:
            respond(c, HTTPResponse.notFound)
        }
    }

    private func readFrames(_ c: PhoneConnection, now: Double, into events: inout [PhoneEvent]) {
        guard case .webSocket(var session, var rate, let inbox) = c.phase else { return }
        var offset = 0
        defer {
            if case .webSocket = c.phase { c.phase = .webSocket(session: session, rate: rate, inbox: Array(inbox[offset...])) }
        }
        while c.fd >= 0, case .webSocket = c.phase {
            switch WebSocketFrame.parse(inbox[offset...], maxPayload: settings.maxMessageBytes) {
            case .incomplete:
                return
            case .invalid(let message):
                return fail(c, message)
            case let .frame(opcode, payload, length):
                offset += length
                c.lastHeard = now
                if rate.take(now: now) == false {
                    return fail(c, "sent more than \(settings.maxMessagesPerSecond) messages a second")
                }
                switch opcode {
                case .ping:
                    queue(WebSocketFrame.encode(.pong, payload), on: c)
                case .pong:
                    break
                case .close:
                    queue(WebSocketFrame.encode(.close, Array(payload.prefix(2))), on: c)
                    c.phase = .closing
                    return
                case .binary:
                    return fail(c, "sent a binary message (the page sends JSON text)")
                case .text:
                    let text = String(decoding: payload, as: UTF8.self)
                    let lines = PageMessage.parse(text).flatMap { session.lines(for: $0, arrival: now) }
                    switch lines {
                    case .success(let bytes): events.append(.input(id: c.id, ndjson: bytes))
                    case .failure(let error): return fail(c, error.message)
                    }
                }
            }
        }
    }

    /// A page that broke the protocol: reported once, with what it sent, and closed (1008, policy violation).
    private func fail(_ c: PhoneConnection, _ message: String) {
        queue(WebSocketFrame.encode(.close, [0x03, 0xf0]), on: c)
        c.phase = .closing
        c.closeReason = "phone \(c.peer): \(message); closed the connection"
    }

    private func respond(_ c: PhoneConnection, _ bytes: [UInt8]) {
        queue(bytes, on: c)
        c.phase = .closing
    }

    private func queue(_ bytes: [UInt8], on c: PhoneConnection) {
        guard c.fd >= 0 else { return }
        if c.outbox.count + bytes.count > PhoneConnection.maxOutbox {
            // The page stopped reading: it loses its connection, not the engine its memory.
            c.outbox.removeAll()
            shut(c)
            return
        }
        c.outbox += bytes
        flush(c)
    }

    private func flush(_ c: PhoneConnection) {
        while !c.outbox.isEmpty, c.fd >= 0 {
            let n = c.write()
            if n == PhoneConnection.again { return }
            if n <= 0 {
                c.outbox.removeAll()
                return shut(c)
            }
            c.outbox.removeFirst(n)
        }
    }

    private func shut(_ c: PhoneConnection) {
        c.close()
    }

    private func refused(_ kind: Refusal, _ what: String, into events: inout [PhoneEvent]) {
        let count = (refusalsReported[kind] ?? 0) + 1
        refusalsReported[kind] = count
        if count <= PhoneServer.refusalsToReport {
            events.append(.note("refused \(what)" + (count == PhoneServer.refusalsToReport ? " (further ones are not reported)" : "")))
        }
    }
}
