import Glibc
import GestureCore
import CContext
import GestureSystem

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
    private var waitingForName = false
    /// Each kind of hostile traffic is said once per connection, not per message.
    private var saidRefused = false
    private var saidTooBig = false

    init(desktop: AppSourceName, address: String?) throws(AppSourceLost) {
        var error = ErrorText()
        guard let connection = gm_dbus_open(address, FocusInterface.busName, FocusInterface.objectPath,
                                            FocusInterface.interface, DBusBackend.shellName(of: desktop),
                                            &error.bytes, error.bytes.count) else {
            throw AppSourceLost(error.message)
        }
        self.connection = connection
        self.desktop = desktop
    }

    deinit { gm_dbus_close(connection) }

    /// The well-known name the desktop's shell owns; only its owner's calls count.
    static func shellName(of desktop: AppSourceName) -> String {
        desktop == .kde ? "org.kde.KWin" : "org.gnome.Shell"
    }

    var fd: Int32 { gm_dbus_fd(connection) }

    func handleReadable() throws(AppSourceLost) -> Bool {
        _ = gm_dbus_read(connection)
        defer { noteWaitingOutput() }
        return try drain()
    }

    /// Replies and requests the bus's full socket did not take are tried again
    /// every `retryWrite` seconds (the loop polls for input only), not left
    /// until the next message comes in.
    private var writeAgainAt: Double?
    static let retryWrite = 0.05

    var deadline: Double? { writeAgainAt }

    func tick(now: Double) throws(AppSourceLost) -> Bool {
        guard let at = writeAgainAt, now >= at else { return false }
        writeAgainAt = nil
        if gm_dbus_write_pending(connection) < 0 { return try drain() }
        noteWaitingOutput()
        return false
    }

    private func noteWaitingOutput() {
        let waiting = gm_dbus_write_pending(connection)
        writeAgainAt = waiting > 0 ? MonotonicClock.now() + DBusBackend.retryWrite : nil
    }

    private func drain() throws(AppSourceLost) -> Bool {
        var changed = false
        var update = gm_dbus_update()
        while true {
            let kind = gm_dbus_next(connection, &update)
            defer { gm_dbus_update_free(&update) }
            let text = update.text.map { String(cString: $0) }
            switch kind {
            case GM_DBUS_NOTHING: return changed
            case GM_DBUS_DISCONNECTED: throw AppSourceLost(text ?? "the session bus closed the connection")
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
                switch DBusWindowList.parse(text ?? "") {
                case .success(let list): known = list
                case .failure(.notAList): notices.append("WindowsChanged sent text that is not a JSON list of windows")
                case .failure(.tooBig(let why)): notices.append("WindowsChanged refused: \(why)")
                }
            case GM_DBUS_REFUSED:
                guard !saidRefused else { break }
                saidRefused = true
                let shell = DBusBackend.shellName(of: desktop)
                let caller = TerminalText.escaped(text ?? "")
                notices.append(update.number == 1
                    ? "refused a call from \(caller), which is not \(shell): only the desktop's shell may set g.app (further refusals are not reported)"
                    : "refused a call from \(caller): \(shell) is not on the session bus, so no call is taken until it is (further refusals are not reported)")
            case GM_DBUS_SHELL_TAKEN:
                let shell = DBusBackend.shellName(of: desktop)
                notices.append("\(TerminalText.escaped(text ?? "?")) took \(shell) from the shell while the shell still runs; no call is taken until the shell has it back (after a deliberate `--replace` of the shell, restart gesturemap)")
            case GM_DBUS_TOO_BIG:
                guard !saidTooBig else { break }
                saidTooBig = true
                notices.append("skipped a message of \(update.number) bytes unread: at most \(GM_DBUS_MESSAGE_CAP / 1024) KiB are taken (further ones are skipped without a word)")
            case GM_DBUS_NAME_QUEUED:
                waitingForName = true
                let holder = update.number > 0 ? DBusBackend.describeProcess(update.number) : "a program"
                notices.append("\(FocusInterface.busName) is held by \(holder) (\(TerminalText.escaped(text ?? "?")) on the session bus); this gesturemap hears no focus changes until it lets go, then takes the name")
            case GM_DBUS_NAME_LOST:
                waitingForName = true
                notices.append("lost \(FocusInterface.busName) on the session bus; no focus changes until it is back")
            case GM_DBUS_NAME_ACQUIRED:
                if waitingForName { notices.append("has \(FocusInterface.busName) now") }
                waitingForName = false
            case GM_DBUS_BAD_CALL:
                notices.append("a malformed call: " + (text ?? "unknown"))
            default:
                break
            }
        }
    }

    /// "process 1234 (gesturemap)", the name from /proc, escaped: any program may choose it.
    static func describeProcess(_ pid: Int64) -> String {
        guard let name = processName(pid), !name.isEmpty else { return "process \(pid)" }
        return "process \(pid) (\(TerminalText.escaped(name)))"
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
}

/// The one small D-Bus interface the GNOME extension and the KWin script call.
public enum FocusInterface {
    public static let busName = "org.gesturemap.Focus"
    public static let objectPath = "/org/gesturemap/Focus"
    public static let interface = "org.gesturemap.Focus1"
}

/// /proc/PID/comm without its newline; a free function, as the backend's own
/// `close()` hides the C one.
private func processName(_ pid: Int64) -> String? {
    let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 64)
    let n = read(fd, &bytes, bytes.count)
    guard n > 0 else { return nil }
    var name = String(decoding: bytes.prefix(n), as: UTF8.self)
    if name.hasSuffix("\n") { name.removeLast() }
    return name
}
