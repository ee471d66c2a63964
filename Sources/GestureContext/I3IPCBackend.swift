import GestureCore
import GestureSystem
/// sway and i3: the focus from their IPC socket's window events, the first
/// value from GET_TREE. Requests go out on the same socket and their replies
/// come back among the events, in order: nothing waits for them.
final class I3IPCBackend: AppBackend {
    private let socketPath: String
    private let socket: UnixSocket
    private var focus: I3Focus
    static let answerTimeout = 2.0

    var current: AppInfo? { focus.current }
    var fd: Int32 { socket.fd }
    var hasAnswered: Bool { focus.hasReplied }
    var deadline: Double? { focus.oldestRequest.map { $0 + I3IPCBackend.answerTimeout } }

    init(socket path: String) throws(AppSourceLost) {
        socketPath = path
        socket = try UnixSocket(path: path)
        focus = I3Focus(path: path)
        try send(focus.start(at: MonotonicClock.now()))
    }

    private func send(_ requests: [(I3IPC.Request, String)]) throws(AppSourceLost) {
        for (request, payload) in requests { try socket.send(I3IPC.encode(request.rawValue, payload)) }
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        guard let chunk = try socket.receive() else { return false }
        if chunk.isEmpty { throw AppSourceLost("\(socketPath) closed (the compositor exited?)") }
        let step = try focus.feed(chunk, at: MonotonicClock.now())
        try send(step.send)
        return step.changed
    }

    /// Overdue replies: the compositor is stuck, so the connection is made again later.
    func tick(now: Double) throws(AppSourceLost) -> Bool {
        if let deadline, now >= deadline {
            throw AppSourceLost("\(socketPath) did not answer within \(Int(I3IPCBackend.answerTimeout)) s")
        }
        return false
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
        let deadline = MonotonicClock.now() + 2
        while true {
            while let message = try I3IPC.next(&buffer) {
                if message.type == type.rawValue { return message }
            }
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { throw AppSourceLost("\(socket.path) did not answer within 2 s") }
            guard let chunk = try socket.receive(waiting: left) else { continue }
            if chunk.isEmpty { throw AppSourceLost("\(socket.path) closed before answering") }
            buffer += chunk
        }
    }
}
