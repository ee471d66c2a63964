// Fuzz target: the D-Bus reader, fed what the bus would send gesturemap (the
// authentication's answer, then marshalled messages, in chunks), with every
// update it makes checked.
import CContext
import GestureContext

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let chunk = Int(input.byte() % 64) * 97 + 1
    var error = [CChar](repeating: 0, count: 256)
    guard let bus = gm_dbus_open_detached("org.gesturemap.Focus", "/org/gesturemap/Focus", "org.gesturemap.Focus1",
                                          "org.gnome.Shell", &error, error.count) else {
        fatalError("libdbus: \(String(cString: error))")
    }
    defer { gm_dbus_close(bus) }
    var rest = input.rest
    while !rest.isEmpty {
        let taken = gm_dbus_feed(bus, rest.baseAddress, min(chunk, rest.count))
        rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        if drain(bus) { break }
        // What the updates took must leave room: a reader stuck on a full buffer hangs the source.
        if taken == 0 {
            guard let next = rest.baseAddress, gm_dbus_feed(bus, next, 1) == 1 else { fatalError("the reader's buffer stays full") }
            rest = UnsafeRawBufferPointer(rebasing: rest[1...])
        }
    }
    _ = drain(bus)
    return 0
}

/// Takes every update; true once the connection counts as gone.
private func drain(_ bus: OpaquePointer) -> Bool {
    var update = gm_dbus_update()
    while true {
        let kind = gm_dbus_next(bus, &update)
        defer { gm_dbus_update_free(&update) }
        switch kind {
        case GM_DBUS_NOTHING: return false
        case GM_DBUS_DISCONNECTED:
            if update.text == nil { fatalError("a disconnection without a reason") }
            return true
        case GM_DBUS_FOCUS: check(update.window)
        case GM_DBUS_WINDOWS:
            guard let text = update.text else { fatalError("WindowsChanged without its text") }
            if case .success(let list) = DBusWindowList.parse(String(cString: text)) {
                if list.count > DBusWindowList.maxWindows { fatalError("\(list.count) windows kept") }
                for window in list where window.app.id.utf8.count > Int(GM_DBUS_ID_CAP) || window.app.title.utf8.count > Int(GM_DBUS_TITLE_CAP) {
                    fatalError("a window past the caps: \(window.app.id.utf8.count), \(window.app.title.utf8.count) bytes")
                }
            }
        case GM_DBUS_TOO_BIG:
            if update.number <= Int64(GM_DBUS_MESSAGE_CAP) { fatalError("a message of \(update.number) bytes called too big") }
        case GM_DBUS_BAD_CALL, GM_DBUS_REFUSED, GM_DBUS_SHELL_TAKEN:
            if update.text == nil { fatalError("\(kind) without its text") }
        case GM_DBUS_NAME_QUEUED, GM_DBUS_NAME_ACQUIRED, GM_DBUS_NAME_LOST: break
        default: fatalError("an update of unknown kind \(kind.rawValue)")
        }
    }
}

private func check(_ window: gm_window) {
    var w = window
    let id = withUnsafeBytes(of: &w.id) { Array($0) }
    let title = withUnsafeBytes(of: &w.title) { Array($0) }
    guard let idEnd = id.firstIndex(of: 0), let titleEnd = title.firstIndex(of: 0) else { fatalError("an unterminated string") }
    if idEnd > Int(GM_DBUS_ID_CAP) || titleEnd > Int(GM_DBUS_TITLE_CAP) { fatalError("past the caps: \(idEnd), \(titleEnd)") }
    // Cut on a character boundary: still valid UTF-8.
    for bytes in [id[..<idEnd], title[..<titleEnd]] where String(validating: bytes, as: UTF8.self) == nil {
        fatalError("not UTF-8 after the cut: \(Array(bytes))")
    }
    if !(window.pid == -1 || window.pid > 0) { fatalError("pid \(window.pid)") }
}
