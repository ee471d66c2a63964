import CContext

/// X11 through libxcb (loaded at run time): the window named by the root's
/// _NET_ACTIVE_WINDOW, followed with PropertyNotify; the input focus when no
/// window manager keeps that property.
final class X11Backend: AppBackend {
    private let connection: OpaquePointer
    private(set) var current: AppInfo?

    init(display: String?) throws(AppSourceLost) {
        var error = ErrorText()
        guard let connection = gm_x11_open(display, &error.bytes, error.bytes.count) else {
            throw AppSourceLost(error.message)
        }
        self.connection = connection
        current = try focused()
        _ = try handleReadable()
    }

    deinit { gm_x11_close(connection) }

    var fd: Int32 { gm_x11_fd(connection) }

    /// Whether a window manager keeps _NET_ACTIVE_WINDOW (else the input focus is followed).
    var followsActiveWindow: Bool { gm_x11_uses_active_window(connection) != 0 }

    /// Reading the focus waits for replies, and xcb keeps the events that come
    /// meanwhile in its own queue, where poll() on the socket never sees them:
    /// so it drains again after every read, until nothing is left.
    func handleReadable() throws(AppSourceLost) -> Bool {
        var app = current
        while true {
            switch gm_x11_drain(connection) {
            case -1: throw AppSourceLost("the X server closed the connection")
            case 0:
                guard app != current else { return false }
                current = app
                return true
            default:
                app = try focused()
            }
        }
    }

    private func focused() throws(AppSourceLost) -> AppInfo? {
        var window = gm_window.blank
        switch gm_x11_focused(connection, &window) {
        case -1: throw AppSourceLost("the X server closed the connection")
        case 0: return nil
        default: return window.app
        }
    }

    func windows() -> [WindowInfo] {
        var list = [gm_window](repeating: .blank, count: 512)
        let count = Int(gm_x11_windows(connection, &list, Int32(list.count)))
        return list.prefix(min(count, list.count)).map(\.info)
    }

    func close() {}
}
