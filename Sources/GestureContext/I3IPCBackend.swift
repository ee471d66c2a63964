import GestureCore
/// sway and i3: the focus from their IPC socket's window events, the first
/// value from GET_TREE.
final class I3IPCBackend: AppBackend {
    private let socketPath: String
    private let socket: UnixSocket
    private var buffer: [UInt8] = []
    private(set) var current: AppInfo?
    private var currentID: Int?

    var fd: Int32 { socket.fd }

    init(socket path: String) throws(AppSourceLost) {
        socketPath = path
        socket = try UnixSocket(path: path)
        if let focus = try I3IPCBackend.focus(on: socket, buffer: &buffer) {
            current = focus.app
            currentID = focus.id
        }
        let subscribed = try I3IPCBackend.request(.subscribe, "[\"window\",\"workspace\"]", on: socket, buffer: &buffer)
        guard (try? JSONValue.parse(subscribed.text))?["success"]?.bool == true else {
            throw AppSourceLost("\(path) refused the subscription to window events: \(subscribed.text)")
        }
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        guard let chunk = try socket.receive() else { return false }
        if chunk.isEmpty { throw AppSourceLost("\(socketPath) closed (the compositor exited?)") }
        buffer += chunk
        var changed = false
        while let message = try I3IPC.next(&buffer) {
            guard message.isEvent, let event = try? JSONValue.parse(message.text) else { continue }
            switch I3IPC.Event(rawValue: message.type & ~I3IPC.eventBit) {
            case .window?: changed = window(event) || changed
            case .workspace?:
                // Focus moving to an empty workspace leaves no window focused,
                // and no window event says so: ask for the tree.
                if event["change"]?.string == "focus" { changed = try refresh() || changed }
            case .shutdown?: throw AppSourceLost("the compositor is shutting down")
            case nil: break
            }
        }
        return changed
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

    private func refresh() throws(AppSourceLost) -> Bool {
        let side = try UnixSocket(path: socketPath)
        var scratch: [UInt8] = []
        let focus = try I3IPCBackend.focus(on: side, buffer: &scratch)
        return set(focus?.app, id: focus?.id)
    }

    func windows() -> [WindowInfo] {
        guard let side = try? UnixSocket(path: socketPath) else { return [] }
        var scratch: [UInt8] = []
        guard let reply = try? I3IPCBackend.request(.getTree, "", on: side, buffer: &scratch),
              let tree = try? JSONValue.parse(reply.text) else { return [] }
        return I3IPC.windows(in: tree).map { WindowInfo(app: I3IPC.app(of: $0.container), focused: $0.focused) }
    }

    func close() {}

    private static func focus(on socket: UnixSocket, buffer: inout [UInt8]) throws(AppSourceLost) -> (app: AppInfo, id: Int?)? {
        let reply = try request(.getTree, "", on: socket, buffer: &buffer)
        do {
            return I3IPC.focused(in: try JSONValue.parse(reply.text))
        } catch {
            throw AppSourceLost("\(socket.path): GET_TREE's answer is not JSON (\(error.description))")
        }
    }

    /// Sends a request and waits (up to 2 s) for its reply; events before it are dropped.
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
