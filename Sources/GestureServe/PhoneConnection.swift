/// One TCP connection to the server, from its request head to a page's
/// WebSocket; its buffers are bounded by the caps in `ServeSettings`.
final class PhoneConnection {
    /// -1 once closed.
    var fd: Int32
    let id: Int
    /// "192.168.1.23:40112": what the device is named after.
    let peer: String
    /// The peer's IPv4 address alone: the unit that caps and turns are shared by.
    let peerAddress: UInt32
    /// The address the client reached, which its Host and Origin must name.
    let served: ServedAddress
    /// When it was accepted (engine clock).
    let since: Double
    var phase: Phase
    var outbox: [UInt8] = []
    /// Its request line carried the token: no stranger's connection takes its slot.
    var proven = false
    /// Its WebSocket opened and the engine was told: it must be told of the end too.
    var isPage = false
    /// Why it was closed, for the engine to report once.
    var closeReason: String?
    /// Its TLS session (`--cert`), and whether TLS waits for the socket to take bytes before it reads on.
    var tls: UnsafeMutableRawPointer?
    var tlsWantsWrite = false
    /// Its TLS hello is in and waits for a turn (HandshakeTurns); it is not read meanwhile.
    var waitsForTurn = false
    /// Once a page: when it last sent anything, and when it was last pinged (engine clock).
    var lastHeard = 0.0
    var lastPinged = 0.0

    enum Phase {
        /// Reading the request head, which must come whole by `deadline`.
        case request(head: [UInt8], deadline: Double)
        /// A page's WebSocket: its session, rate and the start of a frame not yet whole.
        case webSocket(session: PageSession, rate: RateBucket, inbox: [UInt8])
        /// The answer is in the outbox; the connection closes once it is
        /// sent, or at `deadline` if the client does not take it.
        case closing(deadline: Double)
    }

    /// Outgoing bytes beyond this mean the page stopped reading: it is dropped.
    static let maxOutbox = 1 << 16

    init(fd: Int32, id: Int, peer: ListenAddress, served: ServedAddress, now: Double, deadline: Double) {
        self.fd = fd
        self.id = id
        self.peer = peer.description
        let o = peer.octets
        peerAddress = UInt32(o[0]) << 24 | UInt32(o[1]) << 16 | UInt32(o[2]) << 8 | UInt32(o[3])
        self.served = served
        since = now
        phase = .request(head: [], deadline: deadline)
    }

    var isWebSocket: Bool {
        if case .webSocket = phase { return true }
        return false
    }

    var isRequest: Bool {
        if case .request = phase { return true }
        return false
    }

    /// When it must be done with its phase: its head in, or its answer taken.
    var deadline: Double? {
        switch phase {
        case .request(_, let deadline), .closing(let deadline): deadline
        case .webSocket: nil
        }
    }

    /// Nothing more to send or read: the connection can go.
    var isFinished: Bool {
        if fd < 0 { return true }
        if case .closing = phase { return outbox.isEmpty }
        return false
    }

    /// As `HeadSlots` sees it, while it sends its head.
    var head: HeadSlots.Head {
        HeadSlots.Head(id: id, peer: peerAddress, since: since, proven: proven)
    }
}
