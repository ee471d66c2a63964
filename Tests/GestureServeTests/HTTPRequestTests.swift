import Testing
@testable import GestureServe

@Suite("HTTP request heads")
struct HTTPRequestTests {
    static func parse(_ text: String) -> HTTPRequest.Parse { HTTPRequest.parse(Array(text.utf8)[...]) }

    @Test("a WebSocket upgrade: path, query, headers lowercased, and how long the head was")
    func upgrade() {
        let text = "GET /ws?k=abc&x HTTP/1.1\r\nHost: 10.0.0.2:8023\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nrest"
        guard case let .request(request, length) = Self.parse(text) else { Issue.record("not parsed"); return }
        #expect(request.method == "GET")
        #expect(request.path == "/ws")
        #expect(request.query == ["k": "abc", "x": ""])
        #expect(request.headers["sec-websocket-key"] == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(request.asksForWebSocket)
        #expect(length == text.utf8.count - 4)
    }

    @Test("a head not yet ended waits for more; one past the cap is refused")
    func incompleteAndTooLong() {
        #expect(Self.parse("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        let long = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: HTTPRequest.maxHeadLength)
        #expect(Self.parse(long) == .invalid("the request's head is longer than 8192 bytes"))
    }

    @Test("bad request lines and headers are refused with what is wrong", arguments: [
        ("GET /\r\n\r\n", "the request line is not METHOD /PATH HTTP/1.x"),
        ("GET http://x/ HTTP/1.1\r\n\r\n", "the request line is not METHOD /PATH HTTP/1.x"),
        ("GET / HTTP/1.1\r\nno colon\r\n\r\n", "a header line has no name and colon"),
        ("GET / HTTP/1.1\r\nX: \u{1}\r\n\r\n", "the request's head has bytes that are not printable ASCII"),
    ])
    func invalid(text: String, message: String) {
        #expect(Self.parse(text) == .invalid(message))
    }

    @Test("a plain GET is no WebSocket")
    func plain() {
        guard case let .request(request, _) = Self.parse("GET /?k=1 HTTP/1.1\r\nConnection: keep-alive\r\n\r\n") else { Issue.record("not parsed"); return }
        #expect(!request.asksForWebSocket)
    }
}
