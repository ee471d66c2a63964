import GestureCore

/// What sway's or i3's IPC socket says about the focus, without the socket:
/// its bytes go in; out come the focused application and the requests to
/// send. I3IPCBackend does the I/O; the fuzz target drives this directly.
struct I3Focus {
    let path: String
    private(set) var current: AppInfo?
    private var currentID: Int?
    private var buffer: [UInt8] = []
    /// Requests sent and not yet answered, oldest first.
    private var awaiting: [(request: I3IPC.Request, sent: Double)] = []
    /// The focus moved while a GET_TREE was out: one more after it.
    private var treeAgain = false
    /// A reply to a request has come: the socket is a compositor's, and it answers.
    private(set) var hasReplied = false

    init(path: String) { self.path = path }

    struct Step {
        var changed = false
        var send: [(I3IPC.Request, String)] = []
    }

    /// When the oldest request still unanswered went out.
    var oldestRequest: Double? { awaiting.first?.sent }

    /// The first value, and the events from then on.
    mutating func start(at now: Double) -> [(I3IPC.Request, String)] {
        awaiting = [(.getTree, now), (.subscribe, now)]
        return [(.getTree, ""), (.subscribe, "[\"window\",\"workspace\"]")]
    }

    /// Bytes from the socket; throws when the compositor says something that ends the connection.
    mutating func feed(_ chunk: [UInt8], at now: Double) throws(AppSourceLost) -> Step {
        buffer += chunk
        var step = Step()
        while let message = try I3IPC.next(&buffer) {
            if !message.isEvent {
                try reply(message, at: now, into: &step)
                continue
            }
            guard let event = try? JSONValue.parse(message.text) else { continue }
            switch I3IPC.Event(rawValue: message.type & ~I3IPC.eventBit) {
            case .window?: step.changed = window(event) || step.changed
            case .workspace?:
                // Focus moving to an empty workspace leaves no window focused,
                // and no window event says so: ask for the tree.
                if event["change"]?.string == "focus" { askTree(at: now, into: &step) }
            case .shutdown?: throw AppSourceLost("the compositor is shutting down")
            case nil: break
            }
        }
        return step
    }

    private mutating func reply(_ message: I3IPC.Message, at now: Double, into step: inout Step) throws(AppSourceLost) {
        guard let index = awaiting.firstIndex(where: { $0.request.rawValue == message.type }) else { return }
        hasReplied = true
        switch awaiting.remove(at: index).request {
        case .subscribe:
            guard (try? JSONValue.parse(message.text))?["success"]?.bool == true else {
                throw AppSourceLost("\(path) refused the subscription to window events: \(TerminalText.escaped(String(message.text.prefix(200))))")
            }
        case .getTree:
            let tree: JSONValue
            do { tree = try JSONValue.parse(message.text) } catch {
                throw AppSourceLost("\(path): GET_TREE's answer is not JSON (\(error.description))")
            }
            if treeAgain {
                treeAgain = false
                askTree(at: now, into: &step)
            }
            let focus = I3IPC.focused(in: tree)
            step.changed = set(focus?.app, id: focus?.id) || step.changed
        default:
            break
        }
    }

    private mutating func askTree(at now: Double, into step: inout Step) {
        if awaiting.contains(where: { $0.request == .getTree }) {
            treeAgain = true
        } else {
            awaiting.append((.getTree, now))
            step.send.append((.getTree, ""))
        }
    }

    private mutating func window(_ event: JSONValue) -> Bool {
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

    private mutating func set(_ app: AppInfo?, id: Int?) -> Bool {
        currentID = id
        guard app != current else { return false }
        current = app
        return true
    }
}
