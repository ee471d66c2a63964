import GestureCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hyprland: focus changes from its event socket (`activewindow>>CLASS,TITLE`
/// lines), the first value and the pid from its request socket (`j/activewindow`),
/// asked without waiting: the answer is one more descriptor in the loop's poll.
final class HyprlandBackend: AppBackend {
    let eventsPath: String
    let requestsPath: String
    private let events: UnixSocket
    private var pending: [UInt8] = []
    private(set) var current: AppInfo?
    /// The focused window's address, without "0x", as events give it.
    private var address: String?
    /// The one `j/activewindow` in flight; focus changes while it is out ask again after it.
    private var asking: PeerRequest?
    private var askAgain = false
    /// Whether a focus event came since the request went out: then its answer
    /// only adds what events lack (the pid), for the same window.
    private var eventsSinceAsked = false
    private var notices: [String] = []
    private var saidSlow = false
    static let answerTimeout = 2.0

    var fd: Int32 { events.fd }
    var descriptors: [Int32] { [events.fd] + (asking.map { [$0.fd] } ?? []) }
    var deadline: Double? { asking?.deadline }

    /// The instance's folder: $XDG_RUNTIME_DIR/hypr/SIG (Hyprland 0.40 on), else /tmp/hypr/SIG.
    static func directory(signature: String, runtimeDirectory: String?) -> String {
        if let runtime = runtimeDirectory {
            let candidate = "\(runtime)/hypr/\(signature)"
            if access(candidate + "/.socket2.sock", F_OK) == 0 { return candidate }
        }
        return "/tmp/hypr/\(signature)"
    }

    init(signature: String, runtimeDirectory: String?) throws(AppSourceLost) {
        let dir = HyprlandBackend.directory(signature: signature, runtimeDirectory: runtimeDirectory)
        eventsPath = dir + "/.socket2.sock"
        requestsPath = dir + "/.socket.sock"
        events = try UnixSocket(path: eventsPath)
        askActiveWindow(now: ContextClock.now())
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        var changed = try readAnswer()
        guard let chunk = try events.receive() else { return changed }
        if chunk.isEmpty { throw AppSourceLost("\(eventsPath) closed (Hyprland exited?)") }
        pending += chunk
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            changed = handle(String(decoding: pending[start..<newline], as: UTF8.self)) || changed
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > 1 << 20 { pending.removeAll() }
        return changed
    }

    /// An answer overdue: dropped, said once, and the events go on alone.
    func tick(now: Double) throws(AppSourceLost) -> Bool {
        guard let request = asking, now >= request.deadline else { return false }
        asking = nil
        if !saidSlow {
            notices.append("\(requestsPath) did not answer \(request.command) within \(Int(HyprlandBackend.answerTimeout)) s; going on without pids")
            saidSlow = true
        }
        if askAgain { askActiveWindow(now: now) }
        return false
    }

    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    static let focusEvents: Set<Substring> = ["activewindow", "activewindowv2", "windowtitle", "windowtitlev2", "closewindow"]

    private func askActiveWindow(now: Double) {
        guard asking == nil else {
            askAgain = true
            return
        }
        askAgain = false
        eventsSinceAsked = false
        do {
            asking = try PeerRequest("j/activewindow", to: requestsPath, now: now, timeout: HyprlandBackend.answerTimeout)
        } catch {
            if !saidSlow { notices.append(error.message + "; going on without pids") }
            saidSlow = true
        }
    }

    private func readAnswer() throws(AppSourceLost) -> Bool {
        guard let request = asking else { return false }
        let bytes: [UInt8]?
        do { bytes = try request.read() } catch {
            asking = nil
            notices.append(error.message)
            return false
        }
        guard let bytes else { return false }
        asking = nil
        defer { if askAgain { askActiveWindow(now: ContextClock.now()) } }
        guard let reply = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)) else {
            notices.append("\(requestsPath): the answer to \(request.command) is not JSON")
            return false
        }
        let active = HyprlandBackend.activeWindow(in: reply)
        if !eventsSinceAsked {
            askedForTitle = false
            address = active?.address
            return set(active?.app)
        }
        // Events came meanwhile: the answer adds the pid to the same window.
        guard let active, var app = current, app.id == active.app.id else { return false }
        if address == nil || address == active.address {
            address = active.address
            app.pid = active.app.pid
            if app.title.isEmpty || askedForTitle { app.title = active.app.title }
        }
        askedForTitle = false
        return set(app)
    }

    /// A `windowtitle` event (no title in it): the answer brings the title.
    private var askedForTitle = false

    private func handle(_ line: String) -> Bool {
        guard let separator = line.firstRange(of: ">>") else { return false }
        let event = line[..<separator.lowerBound]
        let data = String(line[separator.upperBound...])
        let now = ContextClock.now()
        if asking != nil && HyprlandBackend.focusEvents.contains(event) { eventsSinceAsked = true }
        switch event {
        case "activewindow":
            let (cls, title) = HyprlandBackend.split(data)
            address = nil
            if cls.isEmpty && title.isEmpty { return set(nil) }
            // The event has no pid: the request socket has it, for the same window.
            let keep = current?.id == cls ? current?.pid : nil
            askActiveWindow(now: now)
            return set(AppInfo(id: cls, title: title, pid: keep))
        case "activewindowv2":
            let value = HyprlandBackend.bare(data)
            address = value.isEmpty || value == "," ? nil : value
            return false
        case "windowtitlev2":
            let (window, title) = HyprlandBackend.split(data)
            guard var app = current, HyprlandBackend.bare(window) == address else { return false }
            app.title = title
            return set(app)
        case "windowtitle":
            guard current != nil, HyprlandBackend.bare(data) == address else { return false }
            askedForTitle = true
            askActiveWindow(now: now)
            return false
        case "closewindow":
            guard HyprlandBackend.bare(data) == address else { return false }
            address = nil
            return set(nil)
        default:
            return false
        }
    }

    private func set(_ app: AppInfo?) -> Bool {
        guard app != current else { return false }
        current = app
        return true
    }

    func windows() -> [WindowInfo] {
        guard let reply = try? request("j/clients"), let clients = reply.array else { return [] }
        return clients.map { client in
            let app = HyprlandBackend.app(client)
            let focused = address != nil && HyprlandBackend.bare(client["address"]?.string ?? "") == address
            return WindowInfo(app: app, focused: focused)
        }
    }

    func close() {}

    static func activeWindow(in reply: JSONValue) -> (app: AppInfo, address: String)? {
        guard let cls = reply["class"]?.string else { return nil }
        let address = HyprlandBackend.bare(reply["address"]?.string ?? "")
        if cls.isEmpty && address.isEmpty { return nil }
        return (HyprlandBackend.app(reply), address)
    }

    /// Waits for the answer: for `gesturemap apps`, never inside the loop.
    private func request(_ command: String) throws(AppSourceLost) -> JSONValue {
        let socket = try UnixSocket(path: requestsPath)
        try socket.send(Array(command.utf8))
        let answer = try socket.receiveAll(timeout: 2)
        do {
            return try JSONValue.parse(String(decoding: answer, as: UTF8.self))
        } catch {
            throw AppSourceLost("\(requestsPath): the answer to \(command) is not JSON")
        }
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
