import Glibc
import Testing
@testable import GestureServe

/// What strangers on the LAN try against the server, over loopback sockets
/// (other addresses of 127/8 standing for other machines).
@Suite("The server against strangers", .serialized)
struct HostileClientTests {
    static let token = PhoneServerTests.token

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func notes(_ events: [PhoneEvent]) -> [String] {
        events.compactMap { if case .note(let n) = $0 { return n }; return nil }
    }

    /// Connects `count` strangers from `addresses` addresses (127.0.0.2 on), each sending one byte, served as they come.
    static func strangers(_ server: PhoneServer, count: Int, addresses: Int, now: Double) -> (clients: [LoopbackClient], events: [PhoneEvent]) {
        var clients: [LoopbackClient] = []
        var events: [PhoneEvent] = []
        for i in 0..<count {
            let c = LoopbackClient(port: server.address.port, from: UInt8(2 + i % addresses))
            c.send("G")
            clients.append(c)
            events += LoopbackClient.pump(server, now: now, rounds: 1)
        }
        return (clients, events)
    }

    @Test("strangers holding every request slot, replaced as they go, from one address or as many as there are slots: the token holder gets the page at once",
          arguments: [1, 16])
    func slotsHeld(addresses: Int) throws {
        let server = try PhoneServer.loopback()
        var (held, events) = Self.strangers(server, count: 2 * server.settings.maxPendingRequests, addresses: addresses, now: 1)
        // Those closed to make room come back, as the red team's did.
        let gone = held.filter(\.isClosedNow).count
        held += Self.strangers(server, count: gone, addresses: addresses, now: 2).clients
        #expect(gone > 0)
        #expect(server.heads.count <= server.settings.maxPendingRequests)
        #expect(Dictionary(grouping: server.heads, by: \.peer).values.allSatisfy { $0.count <= server.settings.maxPendingFromOnePeer })
        let note = try #require(Self.notes(events).first)
        #expect(note.hasPrefix("dropped a connection from 127.0.0."))
        #expect(note.hasSuffix(" that showed no token in 0.0 s, to make room for a newer one (16 requests at once, 4 from one address)"))

        let phone = LoopbackClient(port: server.address.port)
        phone.send("GET /?k=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(phone.port)\r\n\r\n")
        _ = LoopbackClient.pump(server, now: 3, rounds: 2)
        #expect(Self.text(phone.receive(atLeast: 1 << 20)).hasPrefix("HTTP/1.1 200 OK\r\n"))
        withExtendedLifetime(held) {}
    }

    @Test("a head whose request line showed the token keeps its slot while strangers from more addresses than slots arrive before its end")
    func provenHeadKept() throws {
        let server = try PhoneServer.loopback()
        let phone = LoopbackClient(port: server.address.port)
        phone.send("GET /?k=\(Self.token) HTTP/1.1\r\n")
        _ = LoopbackClient.pump(server, now: 1, rounds: 1)
        let held = Self.strangers(server, count: 3 * server.settings.maxPendingRequests, addresses: 40, now: 1.5).clients
        phone.send("Host: 127.0.0.1:\(phone.port)\r\n\r\n")
        _ = LoopbackClient.pump(server, now: 2, rounds: 2)
        #expect(Self.text(phone.receive(atLeast: 1 << 20)).hasPrefix("HTTP/1.1 200 OK\r\n"))
        withExtendedLifetime(held) {}
    }

    @Test("with the token but another Host (DNS rebinding): 421, and the reason reported")
    func wrongHost() throws {
        let server = try PhoneServer.loopback()
        let client = LoopbackClient(port: server.address.port)
        client.send("GET /?k=\(Self.token) HTTP/1.1\r\nHost: evil.example:\(client.port)\r\n\r\n")
        let events = LoopbackClient.pump(server)
        #expect(Self.text(client.receive(atLeast: 1000)) == "HTTP/1.1 421 Misdirected Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(Self.notes(events) == ["refused a request for / from \(client.name): its Host is \"evil.example:\(client.port)\", not 127.0.0.1:\(client.port)"
            + " (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"])
    }

    static func upgrade(_ client: LoopbackClient, origin: String) {
        client.send("GET /ws?k=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nOrigin: \(origin)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    }

    @Test("a WebSocket from another site's script (its Origin another's): 403, the reason reported; from the page's own origin: opened")
    func crossSiteWebSocket() throws {
        let server = try PhoneServer.loopback()
        let stranger = LoopbackClient(port: server.address.port)
        Self.upgrade(stranger, origin: "https://evil.example")
        let events = LoopbackClient.pump(server)
        #expect(Self.text(stranger.receive(atLeast: 1000)) == "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(Self.notes(events) == ["refused a request for /ws from \(stranger.name): its Origin is \"https://evil.example\", not http://127.0.0.1:\(stranger.port) (a script of another site)"])
        #expect(server.pagesConnected == 0)

        let page = LoopbackClient(port: server.address.port)
        Self.upgrade(page, origin: "http://127.0.0.1:\(page.port)")
        _ = LoopbackClient.pump(server)
        #expect(Self.text(page.receive(atLeast: 129)).hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(server.pagesConnected == 1)
    }

    @Test("a page closed while the server's queue for it is full, which then never reads: dropped at the closing deadline, its reason given")
    func closingDeadline() throws {
        let server = try PhoneServer.loopback()
        let (client, id) = try #require(PhoneServerTests.openedPage(server))
        // The kernel's buffers fill first; then some waits in the server's queue.
        for _ in 0..<5000 where server.connections.first?.outbox.isEmpty != false {
            server.show(gesture: String(repeating: "x", count: 4000), on: id)
        }
        #expect(server.connections.first.map { !$0.outbox.isEmpty } == true)
        client.sendText("[1,2]")
        var events = LoopbackClient.pump(server, now: 1, rounds: 2)
        #expect(events.isEmpty, "\(events)")
        #expect(server.timeout(now: 1) == server.settings.closingTimeout)
        events = server.serve(ready: [], now: 1 + server.settings.closingTimeout)
        #expect(events == [.disconnected(id: id, reason: "phone \(client.name): no \"type\" string; closed the connection")])
        #expect(server.connections.isEmpty)
    }
}
