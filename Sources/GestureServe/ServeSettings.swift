/// What `gesturemap serve` was asked for, beyond `run`'s options.
public struct ServeSettings: Sendable, Equatable {
    /// `--listen ADDR:PORT`; nil: the first private LAN address, on the default port.
    public var listen: ListenAddress?
    /// `--max-clients N`: pages connected at once.
    public var maxClients = 1
    /// A page's message is a few hundred bytes; one with 20 touches about 700.
    public var maxMessageBytes = 4096
    /// Browsers send touchmove at the display's rate (60 to 120 Hz, 240 on a
    /// few): a page over this has gone wrong or is not the page.
    public var maxMessagesPerSecond = 500
    /// Connections still sending their request head, at most, from one
    /// address at most, and for how long. When they are full, a newcomer
    /// takes the place of one that has not shown the token (HeadSlots).
    public var maxPendingRequests = 16
    public var maxPendingFromOnePeer = 4
    public var requestTimeout = 5.0
    /// An answer, or a page's close, must be taken by the client within this.
    public var closingTimeout = 5.0
    /// When accept() fails for want of descriptors, the listener rests this long.
    public var acceptPause = 1.0
    /// TLS handshakes' costly part (the private key's signature), at most, a
    /// second: one at a time, in turns fair between addresses (HandshakeTurns).
    public var maxHandshakesPerSecond = 10.0
    /// A page is pinged when it has been quiet this long, and dropped when it
    /// has said nothing, not even a pong, for `silenceLimit`: a phone whose
    /// Wi-Fi went must not hold the only slot, nor its touches down, for ever.
    public var pingInterval = 5.0
    public var silenceLimit = 15.0
    /// `--cert FILE` and `--key FILE` (PEM): HTTPS and WSS instead of plain HTTP.
    public var certificate: String?
    public var privateKey: String?

    public init() {}
}
