import GestureCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hyprland: focus changes from its event socket (`activewindow>>CLASS,TITLE`
/// lines), the first value and the pid from its request socket (`j/activewindow`).
final class HyprlandBackend: AppBackend {
    let eventsPath: String
    let requestsPath: String
    private let events: UnixSocket
    private var pending: [UInt8] = []
    private(set) var current: AppInfo?
    /// The focused window's address, without "0x", as events give it.
    private var address: String?

    var fd: Int32 { events.fd }

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
        if let active = try? activeWindow() {
            current = active.app
            address = active.address
        }
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        guard let chunk = try events.receive() else { return false }
        if chunk.isEmpty { throw AppSourceLost("\(eventsPath) closed (Hyprland exited?)") }
        pending += chunk
        var changed = false
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeFirst(newline + 1)
            changed = handle(line) || changed
        }
        if pending.count > 1 << 20 { pending.removeAll() }
        return changed
    }

    private func handle(_ line: String) -> Bool {
        guard let separator = line.firstRange(of: ">>") else { return false }
        let event = line[..<separator.lowerBound]
        let data = String(line[separator.upperBound...])
        switch event {
        case "activewindow":
            let (cls, title) = HyprlandBackend.split(data)
            if cls.isEmpty && title.isEmpty {
                address = nil
                return set(nil)
            }
            // The event has no pid: the request socket has it, for the same window.
            var app = AppInfo(id: cls, title: title)
            if let active = try? activeWindow(), active.app.id == cls {
                app.pid = active.app.pid
                address = active.address
            }
            return set(app)
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
            guard current != nil, HyprlandBackend.bare(data) == address, let active = try? activeWindow() else { return false }
            return set(active.app)
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

    private func activeWindow() throws(AppSourceLost) -> (app: AppInfo, address: String)? {
        let reply = try request("j/activewindow")
        guard let cls = reply["class"]?.string else { return nil }
        let address = HyprlandBackend.bare(reply["address"]?.string ?? "")
        if cls.isEmpty && address.isEmpty { return nil }
        return (HyprlandBackend.app(reply), address)
    }

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
