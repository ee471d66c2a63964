import GestureCore

/// What the server reads from a connection: its request head, answered
/// whole, and then, for a page, its WebSocket frames.
extension PhoneServer {
    func receive(_ c: PhoneConnection, now: Double, into events: inout [PhoneEvent]) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        // A bounded amount a turn: one page cannot keep the loop from the others.
        for _ in 0..<4 {
            guard c.fd >= 0, !c.waitsForTurn else { return }
            let chunk: ArraySlice<UInt8>
            switch c.read(into: &buffer) {
            case .again: return
            case .ended: return shut(c)
            case .bytes(let n): chunk = buffer[0..<n]
            }
            switch c.phase {
            case .request(var head, let deadline):
                head += chunk
                c.phase = .request(head: head, deadline: deadline)
                if !c.proven, let query = HTTPRequest.requestLineQuery(head[...]) {
                    c.proven = token.matches(query["k"].map { Substring($0) })
                }
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
            return respond(c, HTTPResponse.badRequest, now: now)
        case .request(let r, let length):
            request = r
            headLength = length
        }
        let path = TerminalText.escaped(request.path)
        guard token.matches(request.query["k"].map { Substring($0) }) else {
            refused(.token, "a request for \(path) from \(c.peer) without the token", into: &events)
            return respond(c, HTTPResponse.forbidden, now: now)
        }
        if let problem = c.served.hostProblem(request.headers["host"]) {
            refused(.host, "a request for \(path) from \(c.peer): \(problem)", into: &events)
            return respond(c, HTTPResponse.misdirected, now: now)
        }
        if let problem = c.served.originProblem(request.headers["origin"]) {
            refused(.origin, "a request for \(path) from \(c.peer): \(problem)", into: &events)
            return respond(c, HTTPResponse.forbidden, now: now)
        }
        guard request.method == "GET" else { return respond(c, HTTPResponse.methodNotAllowed, now: now) }
        switch request.path {
        case "/":
            respond(c, HTTPResponse.page(TouchPage.html), now: now)
        case "/ws":
            guard request.asksForWebSocket, let key = request.headers["sec-websocket-key"], WebSocketHandshake.isValidKey(key),
                  request.headers["sec-websocket-version"] == "13" else {
                return respond(c, HTTPResponse.badRequest, now: now)
            }
            guard pagesConnected < settings.maxClients else {
                refused(.busy, "a page from \(c.peer): \(settings.maxClients) already connected (--max-clients)", into: &events)
                return respond(c, HTTPResponse.busy(settings.maxClients), now: now)
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
            respond(c, HTTPResponse.notFound, now: now)
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
                return fail(c, message, now: now)
            case let .frame(opcode, payload, length):
                offset += length
                c.lastHeard = now
                if rate.take(now: now) == false {
                    return fail(c, "sent more than \(settings.maxMessagesPerSecond) messages a second", now: now)
                }
                switch opcode {
                case .ping:
                    queue(WebSocketFrame.encode(.pong, payload), on: c)
                case .pong:
                    break
                case .close:
                    queue(WebSocketFrame.encode(.close, Array(payload.prefix(2))), on: c)
                    if c.fd >= 0 { c.phase = .closing(deadline: now + settings.closingTimeout) }
                    return
                case .binary:
                    return fail(c, "sent a binary message (the page sends JSON text)", now: now)
                case .text:
                    let text = String(decoding: payload, as: UTF8.self)
                    let jumped = session.firstClockJump != nil
                    let records = PageMessage.parse(text).flatMap { session.records(for: $0, arrival: now) }
                    if !jumped, let jump = session.firstClockJump {
                        events.append(.note("phone \(c.peer): the page's clock moved \(Self.seconds(jump)) from this machine's;"
                            + " its touches are timed from their arrival again (said once a page)"))
                    }
                    switch records {
                    case .success(let records): events.append(.input(id: c.id, records: records))
                    case .failure(let error): return fail(c, error.message, now: now)
                    }
                }
            }
        }
    }

    /// "2.5 s", "9999999998 s": a clock's jump, as a person reads it.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value < 1e15 else { return "\(value) s" }
        return value < 1000 ? "\((value * 10).rounded() / 10) s" : "\(Int64(value.rounded())) s"
    }

    /// A page that broke the protocol: reported once, with what it sent, and closed (1008, policy violation).
    private func fail(_ c: PhoneConnection, _ message: String, now: Double) {
        queue(WebSocketFrame.encode(.close, [0x03, 0xf0]), on: c)
        c.phase = .closing(deadline: now + settings.closingTimeout)
        c.closeReason = c.closeReason ?? "phone \(c.peer): \(message); closed the connection"
    }

    private func respond(_ c: PhoneConnection, _ bytes: [UInt8], now: Double) {
        queue(bytes, on: c)
        if c.fd >= 0 { c.phase = .closing(deadline: now + settings.closingTimeout) }
    }
}
