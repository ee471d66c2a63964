import GestureCore
/// sway and i3: the focus from their IPC socket's window events, the first
/// value from GET_TREE. Requests go out on the same socket and their replies
/// come back among the events, in order: nothing waits for them.
final class I3IPCBackend: AppBackend {
    private let socketPath: String
    private let socket: UnixSocket
    private var buffer: [UInt8] = []
    private(set) var current: AppInfo?
    private var currentID: Int?
    /// Requests sent and not yet answered, oldest first.
    private var awaiting: [(request: I3IPC.Request, sent: Double)] = []
    /// The focus moved while a GET_TREE was out: one more after it.
    private var treeAgain = false
    static let answerTimeout = 2.0

    var fd: Int32 { socket.fd }
    var deadline: Double? { awaiting.first.map { $0.sent + I3IPCBackend.answerTimeout } }

    init(socket path: String) throws(AppSourceLost) {
        socketPath = path
        socket = try UnixSocket(path: path)
        let now = ContextClock.now()
        try send(.getTree, "", now: now)
        try send(.subscribe, "[\"window\",\"workspace\"]", now: now)
    }

    private func send(_ request: I3IPC.Request, _ payload: String, now: Double) throws(AppSourceLost) {
        try socket.send(I3IPC.encode(request.rawValue, payload))
        awaiting.append((request, now))
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        guard let chunk = try socket.receive() else { return false }
        if chunk.isEmpty { throw AppSourceLost("\(socketPath) closed (the compositor exited?)") }
        buffer += chunk
        var changed = false
        while let message = try I3IPC.next(&buffer) {
            if !message.isEvent {
                changed = try reply(message) || changed
                continue
            }
            guard let event = try? JSONValue.parse(message.text) else { continue }
            switch I3IPC.Event(rawValue: message.type & ~I3IPC.eventBit) {
            case .window?: changed = window(event) || changed
            case .workspace?:
                // Focus moving to an empty workspace leaves no window focused,
                // and no window event says so: ask for the tree.
                if event["change"]?.string == "focus" { try askTree() }
            case .shutdown?: throw AppSourceLost("the compositor is shutting down")
            case nil: break
            }
        }
        return changed
    }

    /// Overdue replies: the compositor is stuck, so the connection is made again later.
    func tick(now: Double) throws(AppSourceLost) -> Bool {
        if let deadline, now >= deadline {
            throw AppSourceLost("\(socketPath) did not answer within \(Int(I3IPCBackend.answerTimeout)) s")
        }
        return false
    }

    private func reply(_ message: I3IPC.Message) throws(AppSourceLost) -> Bool {
        guard let index = awaiting.firstIndex(where: { $0.request.rawValue == message.type }) else { return false }
        let request = awaiting.remove(at: index).request
        switch request {
        case .subscribe:
            guard (try? JSONValue.parse(message.text))?["success"]?.bool == true else {
                throw AppSourceLost("\(socketPath) refused the subscription to window events: \(TerminalText.escaped(String(message.text.prefix(200))))")
            }
            return false
        case .getTree:
            let tree: JSONValue
            do { tree = try JSONValue.parse(message.text) } catch {
                throw AppSourceLost("\(socketPath): GET_TREE's answer is not JSON (\(error.description))")
            }
            if treeAgain {
                treeAgain = false
                try send(.getTree, "", now: ContextClock.now())
            }
            let focus = I3IPC.focused(in: tree)
            return set(focus?.app, id: focus?.id)
        default:
            return false
        }
    }

    private func askTree() throws(AppSourceLost) {
        if awaiting.contains(where: { $0.request == .getTree }) {
            treeAgain = true
        } else {
            try send(.getTree, "", now: ContextClock.now())
        }
    }

    private func window(_ event: JSONValue) -> Bool {
        guard let change = event["change"]?.string, let container = event["container"] else { return false }
        let id = container["id"]?.integer
        switch change {
        case "focus":
            return set(I3IPC.app(of: container), id: id)
        case "title", "urgent", "mark":
            guard id != nil, id == currentID else { return false }
            return set(I3IPC.app(of: container), id: id)
        case "close":
            guard id != nil, id == currentID else { return false }
            return set(nil, id: nil)
        default:
            return false
        }
    }

    private func set(_ app: AppInfo?, id: Int?) -> Bool {
        currentID = id
        guard app != current else { return false }
        current = app
        return true
    }

    func windows() -> [WindowInfo] {
        guard let side = try? UnixSocket(path: socketPath) else { return [] }
        var scratch: [UInt8] = []
        guard let reply = try? I3IPCBackend.request(.getTree, "", on: side, buffer: &scratch),
              let tree = try? JSONValue.parse(reply.text) else { return [] }
        return I3IPC.windows(in: tree).map { WindowInfo(app: I3IPC.app(of: $0.container), focused: $0.focused) }
    }

    func close() {}

    /// Sends a request and waits (up to 2 s) for its reply, events before it
    /// dropped: for `gesturemap apps` on a side connection, never inside the loop.
    static func request(_ type: I3IPC.Request, _ payload: String, on socket: UnixSocket,
                        buffer: inout [UInt8]) throws(AppSourceLost) -> I3IPC.Message {
        try socket.send(I3IPC.encode(type.rawValue, payload))
        let deadline = ContextClock.now() + 2
        while true {
            while let message = try I3IPC.next(&buffer) {
                if message.type == type.rawValue { return message }
            }
            let left = deadline - ContextClock.now()
            guard left > 0 else { throw AppSourceLost("\(socket.path) did not answer within 2 s") }
            guard let chunk = try socket.receive(waiting: left) else { continue }
            if chunk.isEmpty { throw AppSourceLost("\(socket.path) closed before answering") }
            buffer += chunk
        }
    }
}
