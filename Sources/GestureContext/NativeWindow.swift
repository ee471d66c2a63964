import CContext

extension gm_window {
    /// An empty record for the C side to fill.
    static var blank: gm_window { gm_window() }

    var app: AppInfo {
        var copy = self
        let id = withUnsafeBytes(of: &copy.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        let title = withUnsafeBytes(of: &copy.title) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return AppInfo(id: id, title: title, pid: pid > 0 && pid <= Int64(Int32.max) ? Int(pid) : nil)
    }

    var info: WindowInfo { WindowInfo(app: app, focused: focused != 0) }
}

/// A C error buffer and the message in it.
struct ErrorText {
    var bytes = [CChar](repeating: 0, count: 512)
    var message: String {
        let raw = bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: raw, as: UTF8.self)
    }
}
