import CContext
import GestureSystem

/// wlroots compositors (river, labwc, Wayfire, niri, sway) through
/// zwlr_foreign_toplevel_manager_v1: the toplevel whose state is `activated`.
/// The protocol gives no pid.
///
/// Nothing is waited for: the globals and the first list of toplevels are
/// asked for at connection and arrive through `handleReadable()`. A
/// compositor that has not sent them within 2 s is stuck: the connection is
/// dropped, said once, and made again later.
final class WlrootsBackend: AppBackend {
    private let connection: OpaquePointer
    private(set) var current: AppInfo?
    private let openedAt: Double
    static let answerTimeout = 2.0

    init(display: String?) throws(AppSourceLost) {
        var error = ErrorText()
        guard let connection = gm_wl_open(display, &error.bytes, error.bytes.count) else {
            throw AppSourceLost(error.message)
        }
        self.connection = connection
        openedAt = MonotonicClock.now()
    }

    deinit { gm_wl_close(connection) }

    var fd: Int32 { gm_wl_fd(connection) }

    var hasAnswered: Bool { gm_wl_ready(connection) != 0 }

    var deadline: Double? { gm_wl_ready(connection) != 0 ? nil : openedAt + WlrootsBackend.answerTimeout }

    func tick(now: Double) throws(AppSourceLost) -> Bool {
        guard let deadline, now >= deadline else { return false }
        throw AppSourceLost("the compositor did not send its list of windows within \(Int(WlrootsBackend.answerTimeout)) s (stopped or swamped?)")
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        var error = ErrorText()
        let result = gm_wl_dispatch(connection, &error.bytes, error.bytes.count)
        if result < 0 { throw AppSourceLost(error.message) }
        guard result > 0, gm_wl_ready(connection) != 0 else { return false }
        let app = windows().first(where: \.focused)?.app
        guard app != current else { return false }
        current = app
        return true
    }

    func windows() -> [WindowInfo] {
        var list = [gm_window](repeating: .blank, count: 512)
        let count = Int(gm_wl_windows(connection, &list, Int32(list.count)))
        return list.prefix(min(count, list.count)).map(\.info)
    }

    func close() {}
}
