/// The few answers `serve` gives, whole, with the headers that keep a
/// browser from caching the page (its URL holds the token) or framing it.
public enum HTTPResponse {
    public static func page(_ html: String) -> [UInt8] {
        response(status: "200 OK", type: "text/html; charset=utf-8", body: html, extra: [
            // Everything the page needs is in it: nothing may be fetched or sent elsewhere.
            "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
            "Referrer-Policy: no-referrer",
            "X-Frame-Options: DENY",
        ])
    }

    /// 403 with no body: without the token, nothing is served, not even why.
    public static var forbidden: [UInt8] { bare(status: "403 Forbidden") }
    public static var notFound: [UInt8] { bare(status: "404 Not Found") }
    /// A request whose Host is not the address served (DNS rebinding).
    public static var misdirected: [UInt8] { bare(status: "421 Misdirected Request") }
    public static var badRequest: [UInt8] { bare(status: "400 Bad Request") }
    public static var methodNotAllowed: [UInt8] { bare(status: "405 Method Not Allowed", extra: ["Allow: GET"]) }

    /// A page beyond `--max-clients`: the page says so to its user.
    public static func busy(_ limit: Int) -> [UInt8] {
        response(status: "503 Service Unavailable", type: "text/plain; charset=utf-8",
                 body: "gesturemap serves \(limit == 1 ? "one page" : "\(limit) pages") at a time; close the other first\n", extra: [])
    }

    public static func switchingProtocols(accept: String) -> [UInt8] {
        Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8)
    }

    private static func bare(status: String, extra: [String] = []) -> [UInt8] {
        let lines = ["HTTP/1.1 \(status)", "Content-Length: 0", "Connection: close"] + extra
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func response(status: String, type: String, body: String, extra: [String]) -> [UInt8] {
        let bytes = Array(body.utf8)
        let lines = ["HTTP/1.1 \(status)", "Content-Type: \(type)", "Content-Length: \(bytes.count)",
                     "Cache-Control: no-store", "Connection: close"] + extra
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + bytes
    }
}
