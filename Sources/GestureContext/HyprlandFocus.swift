import GestureCore

/// What Hyprland's two sockets say about the focus, without the sockets: the
/// event socket's bytes go in, the answers to `j/activewindow` go in, and out
/// come the focused application and when to ask again. HyprlandBackend does
/// the I/O; the fuzz target drives this directly.
struct HyprlandFocus {
    private(set) var current: AppInfo?
    /// The focused window's address, without "0x", as events give it.
    private(set) var address: String?
    private var pending: [UInt8] = []
    private var question = Question.none
    /// Past this, a line is no event Hyprland sends: it is dropped.
    static let longestLine = 1 << 20

    /// The one `j/activewindow` in flight, and what happened since it went out.
    private enum Question {
        case none
        /// `eventsSince`: its answer only adds what events lack (the pid, the
        /// title for `windowtitle`) to the same window. `again`: the focus
        /// moved since it went out, so ask once more after it.
        case asked(eventsSince: Bool, again: Bool, forTitle: Bool)
    }

    struct Step: Equatable {
        var changed = false
        /// Send `j/activewindow` now (none is in flight).
        var ask = false
    }

    static let focusEvents: Set<Substring> = ["activewindow", "activewindowv2", "windowtitle", "windowtitlev2", "closewindow"]

    /// The first value: ask at once.
    mutating func start() -> Step { request(forTitle: false) }

    /// Bytes from the event socket.
    mutating func feed(_ chunk: some Collection<UInt8>) -> Step {
        pending += chunk
        var step = Step()
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            step.merge(handle(String(decoding: pending[start..<newline], as: UTF8.self)))
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > HyprlandFocus.longestLine { pending.removeAll() }
        return step
    }

    /// The answer to the request in flight; nil when it failed or timed out.
    mutating func answered(_ reply: JSONValue?) -> Step {
        guard case .asked(let eventsSince, let again, let forTitle) = question else { return Step() }
        question = .none
        var step = again ? request(forTitle: false) : Step()
        guard let reply else { return step }
        let active = HyprlandFocus.activeWindow(in: reply)
        if !eventsSince {
            address = active?.address
            step.changed = set(active?.app)
            return step
        }
        // Events came meanwhile: the answer adds the pid to the same window.
        guard let active, var app = current, app.id == active.app.id, address == nil || address == active.address else { return step }
        address = active.address
        app.pid = active.app.pid
        if forTitle || app.title.isEmpty { app.title = active.app.title }
        step.changed = set(app)
        return step
    }

    private mutating func request(forTitle: Bool) -> Step {
        switch question {
        case .none:
            question = .asked(eventsSince: false, again: false, forTitle: forTitle)
            return Step(ask: true)
        case .asked(_, _, let title):
            question = .asked(eventsSince: true, again: true, forTitle: title || forTitle)
            return Step()
        }
    }

    private mutating func handle(_ line: String) -> Step {
        guard let separator = line.firstRange(of: ">>") else { return Step() }
        let event = line[..<separator.lowerBound]
        let data = String(line[separator.upperBound...])
        if case .asked(_, let again, let title) = question, HyprlandFocus.focusEvents.contains(event) {
            question = .asked(eventsSince: true, again: again, forTitle: title)
        }
        switch event {
        case "activewindow":
            let (cls, title) = HyprlandFocus.split(data)
            address = nil
            if cls.isEmpty && title.isEmpty { return Step(changed: set(nil)) }
            // The event has no pid: the request socket has it, for the same window.
            let keep = current?.id == cls ? current?.pid : nil
            var step = request(forTitle: false)
            step.changed = set(AppInfo(id: cls, title: title, pid: keep))
            return step
        case "activewindowv2":
            let value = HyprlandFocus.bare(data)
            address = value.isEmpty || value == "," ? nil : value
            return Step()
        case "windowtitlev2":
            let (window, title) = HyprlandFocus.split(data)
            guard var app = current, HyprlandFocus.bare(window) == address else { return Step() }
            app.title = title
            return Step(changed: set(app))
        case "windowtitle":
            guard current != nil, HyprlandFocus.bare(data) == address else { return Step() }
            return request(forTitle: true)
        case "closewindow":
            guard HyprlandFocus.bare(data) == address else { return Step() }
            address = nil
            return Step(changed: set(nil))
        default:
            return Step()
        }
    }

    private mutating func set(_ app: AppInfo?) -> Bool {
        guard app != current else { return false }
        current = app
        return true
    }

    static func activeWindow(in reply: JSONValue) -> (app: AppInfo, address: String)? {
        guard let cls = reply["class"]?.string else { return nil }
        let address = bare(reply["address"]?.string ?? "")
        if cls.isEmpty && address.isEmpty { return nil }
        return (app(reply), address)
    }

    static func app(_ client: JSONValue) -> AppInfo {
        AppInfo(id: client["class"]?.string ?? "", title: client["title"]?.string ?? "",
                pid: client["pid"]?.integer.flatMap { $0 > 0 ? $0 : nil })
    }

    /// "CLASS,TITLE": the class has no comma, the title may.
    static func split(_ data: String) -> (String, String) {
        guard let comma = data.firstIndex(of: ",") else { return (data, "") }
        return (String(data[..<comma]), String(data[data.index(after: comma)...]))
    }

    static func bare(_ address: String) -> String {
        address.hasPrefix("0x") ? String(address.dropFirst(2)) : address
    }
}

extension HyprlandFocus.Step {
    mutating func merge(_ other: Self) {
        changed = changed || other.changed
        ask = ask || other.ask
    }
}
