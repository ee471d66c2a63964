import GestureCore

/// The address a connection reached, as the printed URL names it, and the
/// checks that a request meant it: its Host must be that address (a name,
/// even one that leads here, is what DNS rebinding hands another site), and
/// a WebSocket's Origin, when a browser sends one, must be the page's own.
/// The token stays the real guard; these refuse what slipped past it.
public struct ServedAddress: Equatable, Sendable {
    /// The local address the connection arrived on (for 0.0.0.0, the interface's).
    public var address: ListenAddress
    public var tls: Bool

    public init(address: ListenAddress, tls: Bool) {
        self.address = address
        self.tls = tls
    }

    /// "http://192.168.1.23:8023": the page's origin, as a browser writes it.
    public var origin: String { "\(tls ? "https" : "http")://\(authority)" }

    /// "192.168.1.23:8023", or the host alone on the scheme's own port.
    private var authority: String {
        address.port == (tls ? 443 : 80) ? address.host : address.description
    }

    /// Why `host` (the Host header, nil when there is none) is not this address; nil when it is.
    public func hostProblem(_ host: String?) -> String? {
        guard let host else { return "it has no Host header, and the URL names \(address)" }
        let named = host.lowercased()
        if named == address.description || named == authority { return nil }
        return "its Host is \(TerminalText.quoted(String(host.prefix(80)))), not \(address)"
            + " (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"
    }

    /// Why `origin` (the Origin header, nil when there is none) is not the page's; nil when it is or is absent.
    public func originProblem(_ origin: String?) -> String? {
        guard let origin else { return nil }
        let named = origin.lowercased()
        if named == self.origin || named == "\(tls ? "https" : "http")://\(address)" { return nil }
        return "its Origin is \(TerminalText.quoted(String(origin.prefix(80)))), not \(self.origin) (a script of another site)"
    }
}
