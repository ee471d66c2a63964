import GestureCore
import CContext

/// GNOME and KDE: the desktop cannot be asked directly, so a Shell extension
/// (examples/gnome-extension) or a KWin script (examples/kwin) calls gesturemap
/// on the session bus. gesturemap owns `FocusInterface.busName` and serves
/// FocusChanged(s id, s title, u pid) and WindowsChanged(s json).
final class DBusBackend: AppBackend {
    private let connection: OpaquePointer
    private let desktop: AppSourceName
    private(set) var current: AppInfo?
    private var known: [WindowInfo] = []
    private var notices: [String] = []
    private var heardFromDesktop = false
    private var lostName = false

    init(desktop: AppSourceName, address: String?) throws(AppSourceLost) {
        var error = ErrorText()
        guard let connection = gm_dbus_open(address, FocusInterface.busName, FocusInterface.objectPath,
                                            FocusInterface.interface, &error.bytes, error.bytes.count) else {
            throw AppSourceLost(error.message)
        }
        self.connection = connection
        self.desktop = desktop
        // Calls may have queued while the name was requested.
        _ = try drain()
    }

    deinit { gm_dbus_close(connection) }

    var fd: Int32 { gm_dbus_fd(connection) }

    func handleReadable() throws(AppSourceLost) -> Bool {
        if gm_dbus_read(connection) < 0 { throw AppSourceLost("the session bus closed the connection") }
        return try drain()
    }

    private func drain() throws(AppSourceLost) -> Bool {
        var changed = false
        var update = gm_dbus_update()
        while true {
            let kind = gm_dbus_next(connection, &update)
            defer { gm_dbus_update_free(&update) }
            switch kind {
            case GM_DBUS_NOTHING: return changed
            case GM_DBUS_DISCONNECTED: throw AppSourceLost("the session bus closed the connection")
            case GM_DBUS_FOCUS:
                heardFromDesktop = true
                let app = update.window.app
                let next: AppInfo? = app.id.isEmpty && app.title.isEmpty ? nil : app
                if next != current {
                    current = next
                    changed = true
                }
                known = known.map { WindowInfo(app: $0.app, focused: $0.app == next) }
            case GM_DBUS_WINDOWS:
                heardFromDesktop = true
                if let text = update.text.map({ String(cString: $0) }) {
                    if let list = DBusBackend.windows(fromJSON: text) {
                        known = list
                    } else {
                        notices.append("WindowsChanged sent text that is not a JSON list of windows")
                    }
                }
            case GM_DBUS_NAME_LOST:
                lostName = true
                notices.append("another program took \(FocusInterface.busName) on the session bus (a second gesturemap?); this one hears no focus changes until it exits")
            case GM_DBUS_NAME_ACQUIRED:
                if lostName { notices.append("has \(FocusInterface.busName) again") }
                lostName = false
            case GM_DBUS_BAD_CALL:
                notices.append("a malformed call: " + (update.text.map { String(cString: $0) } ?? "unknown"))
            default:
                break
            }
        }
    }

    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    func windows() -> [WindowInfo] {
        if known.isEmpty, let current { return [WindowInfo(app: current, focused: true)] }
        return known
    }

    /// True once the extension or script has called: `gesturemap apps` says
    /// what to install when nothing has.
    var hasHeardFromDesktop: Bool { heardFromDesktop }

    func close() {}

    /// `[{"id": ..., "title": ..., "pid": ..., "focused": ...}, ...]`
    static func windows(fromJSON text: String) -> [WindowInfo]? {
        guard let items = (try? JSONValue.parse(text))?.array else { return nil }
        return items.compactMap { item in
            guard let id = item["id"]?.string else { return nil }
            let app = AppInfo(id: id, title: item["title"]?.string ?? "", pid: item["pid"]?.integer.flatMap { $0 > 0 ? $0 : nil })
            return WindowInfo(app: app, focused: item["focused"]?.bool == true)
        }
    }
}

/// The one small D-Bus interface the GNOME extension and the KWin script call.
public enum FocusInterface {
    public static let busName = "org.gesturemap.Focus"
    public static let objectPath = "/org/gesturemap/Focus"
    public static let interface = "org.gesturemap.Focus1"
}
