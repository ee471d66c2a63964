/// The head of an HTTP/1.1 request, as much of it as `serve` reads: the
/// method, the path, the query's fields and the headers (names lowercased).
public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]

    /// Longer heads are refused: a page's request is a few hundred bytes.
    public static let maxHeadLength = 8192

    public enum Parse: Equatable, Sendable {
        /// The blank line has not come yet.
        case incomplete
        /// The head, and how many bytes it took.
        case request(HTTPRequest, length: Int)
        case invalid(String)
    }

    /// Reads a head from the start of `bytes`.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> Parse {
        guard let end = headEnd(bytes) else {
            return bytes.count > maxHeadLength ? .invalid("the request's head is longer than \(maxHeadLength) bytes") : .incomplete
        }
        guard end - bytes.startIndex <= maxHeadLength else { return .invalid("the request's head is longer than \(maxHeadLength) bytes") }
        guard bytes[bytes.startIndex..<end].allSatisfy({ $0 == 0x0d || $0 == 0x0a || $0 == 0x09 || (0x20..<0x7f).contains($0) }) else {
            return .invalid("the request's head has bytes that are not printable ASCII")
        }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), requestLine[0].allSatisfy({ $0.isUppercase }),
              !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") else {
            return .invalid("the request line is not METHOD /PATH HTTP/1.x")
        }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                return .invalid("a header line has no name and colon")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            let trimmed = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            // Repeated headers join with commas, as RFC 9110 has them.
            headers[name] = headers[name].map { $0 + ", " + trimmed } ?? trimmed
        }
        let target = requestLine[1]
        let path = target.firstIndex(of: "?").map { target[..<$0] } ?? target
        let request = HTTPRequest(method: String(requestLine[0]), path: String(path), query: query(of: target), headers: headers)
        return .request(request, length: end + 4 - bytes.startIndex)
    }

    /// The fields after the target's "?" ("/ws?k=1f&x" gives k = "1f", x = "").
    static func query(of target: Substring) -> [String: String] {
        guard let question = target.firstIndex(of: "?") else { return [:] }
        var query: [String: String] = [:]
        for field in target[target.index(after: question)...].split(separator: "&") {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
        }
        return query
    }

    /// The query of the request line once that line is whole, before the
    /// rest of the head: enough to tell a client with the token from a
    /// stranger while the head is still coming. Nil while the line is not in.
    /// The line ends at the first CR LF, as `parse` has it, so both read the same query.
    public static func requestLineQuery(_ bytes: ArraySlice<UInt8>) -> [String: String]? {
        let window = bytes.prefix(maxHeadLength)
        var end: Int?
        var i = window.startIndex
        while i + 1 < window.endIndex, end == nil {
            if window[i] == 0x0d, window[i + 1] == 0x0a { end = i }
            i += 1
        }
        guard let end else { return nil }
        let line = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return [:] }
        return query(of: parts[1])
    }

    /// Where the blank line that ends the head begins (the index of its CR LF CR LF).
    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var i = bytes.startIndex
        let last = min(bytes.endIndex - 4, bytes.startIndex + maxHeadLength)
        while i <= last {
            if bytes[i] == 0x0d, bytes[i + 1] == 0x0a, bytes[i + 2] == 0x0d, bytes[i + 3] == 0x0a { return i }
            i += 1
        }
        return nil
    }

    /// `Connection: Upgrade` and `Upgrade: websocket`, as RFC 6455 section 4.1 asks.
    public var asksForWebSocket: Bool {
        let connection = headers["connection"]?.lowercased() ?? ""
        let upgrade = headers["upgrade"]?.lowercased() ?? ""
        return connection.split(separator: ",").contains { $0.trimmingSpaces == "upgrade" } && upgrade == "websocket"
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
