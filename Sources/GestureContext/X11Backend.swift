import CContext
import GestureSystem

/// X11 through libxcb (loaded at run time): the window named by the root's
/// _NET_ACTIVE_WINDOW, followed with PropertyNotify; the input focus when no
/// window manager keeps that property.
///
/// The loop never waits for the X server: the focus is looked up by
/// `X11FocusQuery`, whose requests are sent at once and whose answers are taken
/// as they arrive. A server that stops answering (stopped, or swamped) is said
/// once; the focus stays what it was until it answers again. The connection is
/// kept, not made again: the server answers in order, so a new one would wait
/// behind the same queue, and xcb's connection setup is the one exchange that
/// must wait.
final class X11Backend: AppBackend {
    private let connection: OpaquePointer
    private var query: X11FocusQuery
    /// Requests sent and not yet answered, oldest first, with their sequence numbers.
    private var waiting: [(sequence: UInt32, request: X11FocusQuery.Request)] = []
    /// When the oldest waiting request was sent, or last answered.
    private var waitingSince: Double?
    /// Lateness is said once a connection.
    private var saidSlow = false
    private var notices: [String] = []
    private(set) var current: AppInfo?
    private var focusedWindow: UInt32?
    /// Events or answers were taken into xcb's queues while windows were
    /// listed, where poll() on the socket never sees them.
    private(set) var hasPendingWork = false
    static let answerTimeout = GM_X11_ANSWER_SECONDS

    init(display: String?) throws(AppSourceLost) {
        var error = ErrorText()
        guard let connection = gm_x11_open(display, &error.bytes, error.bytes.count) else {
            throw AppSourceLost(error.message)
        }
        self.connection = connection
        query = X11FocusQuery(root: gm_x11_root(connection))
        try follow(query.changed())
    }

    deinit { gm_x11_close(connection) }

    var fd: Int32 { gm_x11_fd(connection) }

    /// Whether a window manager keeps _NET_ACTIVE_WINDOW (else the input focus is followed).
    var followsActiveWindow: Bool { query.followsActiveWindow }

    /// Set while an answer is awaited and its lateness not yet said.
    var deadline: Double? {
        guard !saidSlow, !waiting.isEmpty, let since = waitingSince else { return nil }
        return since + X11Backend.answerTimeout
    }

    func tick(now: Double) throws(AppSourceLost) -> Bool {
        guard let deadline, now >= deadline else { return false }
        saidSlow = true
        let focus = current.map { "\"\($0.id)\"" } ?? "nil"
        notices.append("the X server has not answered for \(Int(X11Backend.answerTimeout)) s (stopped or swamped?); g.app stays \(focus) until it does")
        return false
    }

    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// Takes every event and answer that has arrived, until neither is left:
    /// xcb reads the socket for both into its own queues.
    func handleReadable() throws(AppSourceLost) -> Bool {
        hasPendingWork = false
        let before = current
        while true {
            let news = gm_x11_drain(connection)
            guard news >= 0 else { throw AppSourceLost("the X server closed the connection") }
            if concerns(news) { try follow(query.changed()) }
            let answered = try takeAnswers()
            if news == 0 && !answered { break }
        }
        return current != before
    }

    /// Which events mean the focus (or its title) may have changed.
    private func concerns(_ news: Int32) -> Bool {
        if news & Int32(GM_X11_ACTIVE_CHANGED) != 0 || news & Int32(GM_X11_TITLE_CHANGED) != 0 { return true }
        return news & Int32(GM_X11_FOCUS_MOVED) != 0 && !query.followsActiveWindow
    }

    /// True when at least one answer was taken.
    private func takeAnswers() throws(AppSourceLost) -> Bool {
        var took = false
        while let (sequence, request) = waiting.first {
            let (status, answer) = take(sequence, request)
            switch status {
            case 0: return took
            case -1: throw AppSourceLost("the X server closed the connection")
            default: break
            }
            waiting.removeFirst()
            waitingSince = MonotonicClock.now()
            took = true
            try follow(query.answered(answer))
        }
        return took
    }

    private func take(_ sequence: UInt32, _ request: X11FocusQuery.Request) -> (Int32, X11FocusQuery.Answer) {
        switch request {
        case .property:
            var value = gm_x11_property_value()
            let status = gm_x11_property_answer(connection, sequence, &value)
            guard status == 1 else { return (status, .refused) }
            guard value.type != 0 else { return (status, .property(nil)) }
            let bytes = withUnsafeBytes(of: &value.value) { Array($0.prefix(Int(min(value.length, 4096)))) }
            return (status, .property(X11FocusQuery.Value(format: value.format, bytes: bytes)))
        case .inputFocus:
            var window: UInt32 = 0
            let status = gm_x11_focus_answer(connection, sequence, &window)
            return (status, status == 1 ? .focus(window: window) : .refused)
        case .tree:
            var tree = gm_x11_tree()
            let status = gm_x11_tree_answer(connection, sequence, &tree)
            guard status == 1 else { return (status, .refused) }
            let children = withUnsafeBytes(of: &tree.children) { raw in
                (0..<Int(min(tree.count, 256))).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) }
            }
            return (status, .tree(parent: tree.parent, children: children))
        }
    }

    /// Sends what a step asks and takes in what it found.
    private func follow(_ step: X11FocusQuery.Step) throws(AppSourceLost) {
        if let outcome = step.outcome {
            switch outcome {
            case .focused(let window, let app):
                focusedWindow = window
                current = app
            case .nothing:
                focusedWindow = nil
                current = nil
            }
            gm_x11_watch(connection, focusedWindow ?? 0)
        }
        for request in step.requests {
            let sequence: UInt32
            switch request {
            case .property(let window, let property): sequence = gm_x11_ask_property(connection, window, property.rawValue)
            case .inputFocus: sequence = gm_x11_ask_input_focus(connection)
            case .tree(let window): sequence = gm_x11_ask_tree(connection, window)
            }
            if waiting.isEmpty { waitingSince = MonotonicClock.now() }
            waiting.append((sequence, request))
        }
        if step.outcome != nil || !step.requests.isEmpty {
            guard gm_x11_send(connection) == 0 else { throw AppSourceLost("the X server closed the connection") }
        }
    }

    /// For `gesturemap apps`: waits for the answers, at most two seconds.
    func windows() -> [WindowInfo] {
        var list = [gm_window](repeating: .blank, count: 512)
        let listing = WindowListing(gm_x11_windows(connection, &list, Int32(list.count)))
        // Listing reads the socket: events and answers that came meanwhile sit in xcb's queues.
        hasPendingWork = true
        let count: Int
        switch listing {
        case .listed(let n): count = min(n, list.count)
        case .connectionLost: count = 0
        case .timedOut:
            notices.append("the X server did not answer within \(Int(X11Backend.answerTimeout)) s while listing windows")
            count = 0
        }
        return list.prefix(count).map { window in
            var info = window.info
            info.focused = focusedWindow.map { UInt64($0) == window.handle } ?? false
            return info
        }
    }

    func close() {}

    /// What gm_x11_windows says with its count, -1 and -2.
    enum WindowListing: Equatable {
        case listed(Int)
        case connectionLost
        case timedOut

        init(_ code: Int32) {
            switch code {
            case -2: self = .timedOut
            case ..<0: self = .connectionLost
            default: self = .listed(Int(code))
            }
        }
    }
}
