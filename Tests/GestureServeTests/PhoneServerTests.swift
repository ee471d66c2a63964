import Glibc
import Testing
@testable import GestureServe

@Suite("The server over loopback", .serialized)
struct PhoneServerTests {
    static let token = String(repeating: "ab", count: 16)

    static func upgrade(_ client: LoopbackClient, token: String = token) {
        client.send("GET /ws?k=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A client whose WebSocket the server opened, past the 101, and its connection's id.
    static func openedPage(_ server: PhoneServer) -> (client: LoopbackClient, id: Int)? {
        let client = LoopbackClient(port: server.address.port)
        upgrade(client)
        let events = LoopbackClient.pump(server)
        _ = client.receive(atLeast: 129)
        guard case let .connected(id, _) = events.first else { return nil }
        return (client, id)
    }

    /// Why pages were disconnected, for those that were told why.
    static func reasons(_ events: [PhoneEvent]) -> [String] {
        events.compactMap { if case let .disconnected(_, reason) = $0 { return reason }; return nil }
    }

    @Test("without the token, or with a wrong one: 403, an empty body, the connection closed, the refusal noted", arguments: [
        "GET / HTTP/1.1\r\n\r\n", "GET /?k=abab HTTP/1.1\r\n\r\n", "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        "GET /favicon.ico?k=\(String(repeating: "ab", count: 15))abac HTTP/1.1\r\n\r\n",
    ])
    func forbidden(request: String) throws {
        let server = try PhoneServer.loopback()
        let client = LoopbackClient(port: server.address.port)
        client.send(request)
        let events = LoopbackClient.pump(server)
        #expect(Self.text(client.receive(atLeast: 1000)) == "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let path = request.split(separator: " ")[1].split(separator: "?")[0]
        guard case .note(let note) = events.first else { Issue.record("no note: \(events)"); return }
        #expect(note.hasPrefix("refused a request for \(path) from 127.0.0.1:") && note.hasSuffix(" without the token"))
        #expect(server.pagesConnected == 0)
    }

    @Test("with the token: the page, with a policy that lets it fetch nothing")
    func page() throws {
        let server = try PhoneServer.loopback()
        let client = LoopbackClient(port: server.address.port)
        client.send("GET /?k=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\n\r\n")
        _ = LoopbackClient.pump(server)
        let reply = Self.text(client.receive(atLeast: 1 << 20))
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.contains("Content-Security-Policy: default-src 'none';"))
        #expect(reply.hasSuffix(TouchPage.html))
    }

    @Test("a page's WebSocket: its touches as NDJSON, a second page refused, its end reported")
    func webSocket() throws {
        let server = try PhoneServer.loopback()
        let first = LoopbackClient(port: server.address.port)
        Self.upgrade(first)
        var events = LoopbackClient.pump(server)
        #expect(Self.text(first.receive(atLeast: 129)) == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
        guard case let .connected(id, name) = events.first else { Issue.record("not connected: \(events)"); return }
        #expect(name.hasPrefix("phone 127.0.0.1:"))

        let second = LoopbackClient(port: server.address.port)
        Self.upgrade(second)
        events = LoopbackClient.pump(server)
        #expect(Self.text(second.receive(atLeast: 1000)).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(events.contains { if case .note(let n) = $0 { return n.hasSuffix(": 1 already connected (--max-clients)") }; return false })

        first.sendText(#"{"type":"surface","width":200,"height":100,"ratio":2}"#)
        first.sendText(#"{"type":"touchstart","t":10,"touches":[[3,5,6]]}"#)
        events = LoopbackClient.pump(server, now: 20)
        let records = events.compactMap { if case let .input(i, records) = $0, i == id { return records.summary }; return nil }.joined(separator: "\n")
        #expect(records.hasPrefix("device \(name) x=0.0...200.0 y=0.0...100.0 "))
        #expect(records.hasSuffix("down t=20.0 id=0 x=5.0 y=6.0\nsync t=20.0"))

        server.show(gesture: "tap", on: id)
        #expect(first.receive(atLeast: 17) == WebSocketFrame.encode(.text, Array(#"{"gesture":"tap"}"#.utf8)))

        first.hangUp()
        events = LoopbackClient.pump(server)
        #expect(events == [.disconnected(id: id, reason: nil)])
        #expect(server.pagesConnected == 0)
    }

    @Test("a page that goes and one that comes in the same turn of the loop: the newcomer takes the freed slot")
    func slotFreedInTheSameTurn() throws {
        let server = try PhoneServer.loopback()
        let (first, id) = try #require(Self.openedPage(server))
        first.hangUp()
        let second = LoopbackClient(port: server.address.port)
        Self.upgrade(second)
        // Both are ready for one serve: the first's end, then the second's request, read as it is accepted.
        var fds = server.descriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        for _ in 0..<20 where fds.filter({ $0.revents != 0 }).count < 2 {
            usleep(10_000)
            _ = poll(&fds, nfds_t(fds.count), 50)
        }
        let events = server.serve(ready: Set(fds.filter { $0.revents != 0 }.map(\.fd)), now: 1)
        #expect(Self.text(second.receive(atLeast: 12)).hasPrefix("HTTP/1.1 101"))
        #expect(events.contains(.disconnected(id: id, reason: nil)))
        #expect(server.pagesConnected == 1)
    }

    @Test("frames sent right behind the handshake, in the same packet, are read too")
    func framesWithHandshake() throws {
        let server = try PhoneServer.loopback()
        let client = LoopbackClient(port: server.address.port)
        client.send(Array(("GET /ws?k=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
            + WebSocketTests.clientFrame(1, Array(#"{"type":"surface","width":200,"height":100,"ratio":2}"#.utf8)))
        let events = LoopbackClient.pump(server)
        #expect(events.count == 2)
        guard events.count == 2, case .connected = events[0], case .input(_, let records) = events[1] else { Issue.record("\(events)"); return }
        #expect(records.summary.hasPrefix("device "))
    }

    @Test("a malformed message: the page is told 1008 and closed, the reason given once")
    func malformed() throws {
        let server = try PhoneServer.loopback()
        let client = try #require(Self.openedPage(server)).client
        client.sendText("[1,2]")
        client.sendText("also bad")
        let events = LoopbackClient.pump(server)
        let reasons = Self.reasons(events)
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasSuffix(": no \"type\" string; closed the connection") == true)
        #expect(client.receive(atLeast: 4) == [0x88, 2, 0x03, 0xf0])
        #expect(client.closedByServer)
    }

    @Test("over a real socket, a message of 4,096 bytes is taken and one of 4,097 closes the page, saying so")
    func sizeCap() throws {
        let server = try PhoneServer.loopback()
        let client = try #require(Self.openedPage(server)).client
        // Valid JSON padded with spaces to the cap: read, not refused.
        var largest = #"{"type":"surface","width":200,"height":100,"ratio":2}"#
        largest += String(repeating: " ", count: 4096 - largest.utf8.count)
        client.sendText(largest)
        let taken = LoopbackClient.pump(server)
        #expect(Self.reasons(taken).isEmpty, "\(taken)")
        #expect(server.pagesConnected == 1)
        client.sendText(largest + " ")
        let reasons = Self.reasons(LoopbackClient.pump(server))
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasSuffix(": a WebSocket message of 4097 bytes (at most 4096); closed the connection") == true, "\(reasons)")
        #expect(client.receive(atLeast: 4) == [0x88, 2, 0x03, 0xf0])
        #expect(client.closedByServer)
        #expect(server.pagesConnected == 0)
    }

    @Test("over the rate cap: closed, saying so")
    func rateCap() throws {
        var settings = ServeSettings()
        settings.maxMessagesPerSecond = 20
        let server = try PhoneServer.loopback(settings)
        let client = try #require(Self.openedPage(server)).client
        client.sendText(#"{"type":"surface","width":200,"height":100,"ratio":2}"#)
        for _ in 0..<30 { client.send(WebSocketTests.clientFrame(9, [])) }
        let reasons = Self.reasons(LoopbackClient.pump(server))
        #expect(reasons.count == 1 && reasons.first?.hasSuffix(": sent more than 20 messages a second; closed the connection") == true)
    }

    @Test("a page that stops reading loses its connection once the server's queue for it passes 64 KiB, and is told why")
    func stoppedReading() throws {
        let server = try PhoneServer.loopback()
        let (client, id) = try #require(Self.openedPage(server))
        var events: [PhoneEvent] = []
        // The kernel's buffers fill first (a few MB on loopback); then the queue.
        let name = String(repeating: "x", count: 60_000)
        for _ in 0..<2000 where server.pagesConnected == 1 {
            server.show(gesture: name, on: id)
            events = server.serve(ready: [], now: 1)
            if !events.isEmpty { break }
        }
        #expect(events == [.disconnected(id: id, reason: "phone \(client.name): the page stopped reading: more than 64 KiB waited for it; closed the connection")])
        #expect(server.pagesConnected == 0)
        // The page stays open, never reading, until the server has given up on it.
        withExtendedLifetime(client) {}
    }

    @Test("a quiet page is pinged; one that answers nothing, not even a pong, is dropped and its slot freed")
    func silentPage() throws {
        let server = try PhoneServer.loopback()
        let (client, id) = try #require(Self.openedPage(server))
        let settings = server.settings
        #expect(server.timeout(now: 1) == settings.pingInterval)
        #expect(server.serve(ready: [], now: 1 + settings.pingInterval).isEmpty)
        #expect(client.receive(atLeast: 2) == [0x89, 0])
        // A pong (or any message) counts as heard.
        client.send(WebSocketTests.clientFrame(10, []))
        _ = LoopbackClient.pump(server, now: 2 + settings.pingInterval)
        #expect(server.serve(ready: [], now: 1 + settings.silenceLimit).isEmpty)
        let events = server.serve(ready: [], now: 3 + settings.pingInterval + settings.silenceLimit)
        #expect(events.count == 1 && events.allSatisfy { if case .disconnected(id, _) = $0 { return true }; return false })
        let reason = try #require(Self.reasons(events).first)
        #expect(reason.hasPrefix("phone 127.0.0.1:"))
        #expect(reason.hasSuffix(": nothing heard for 15.0 s, not even a pong (Wi-Fi lost, or the phone asleep?); closed the connection"))
        #expect(server.pagesConnected == 0)
    }

    @Test("a request head that does not come whole in time is dropped")
    func slowRequests() throws {
        let server = try PhoneServer.loopback()
        let slow = LoopbackClient(port: server.address.port)
        slow.send("GET / HTTP/1.1\r\n")
        _ = LoopbackClient.pump(server, now: 1)
        #expect(server.timeout(now: 1) == server.settings.requestTimeout)
        _ = server.serve(ready: [], now: 1 + server.settings.requestTimeout)
        #expect(slow.closedByServer)
        #expect(server.descriptors.count == 1)
    }
}
