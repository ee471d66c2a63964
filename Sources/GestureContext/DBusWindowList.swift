import CContext
import GestureCore

/// The JSON list that `WindowsChanged` carries, read within caps: at most
/// `maxWindows` windows, ids of at most `GM_DBUS_ID_CAP` bytes (longer ones are
/// left out), titles cut at `GM_DBUS_TITLE_CAP` bytes on a character boundary.
/// The text is counted before it is parsed, so a list of a hundred thousand
/// tiny values costs a scan, not a tree.
public enum DBusWindowList {
    public static let maxWindows = 256
    /// Commas and colons a list of `maxWindows` windows of four keys needs, and room.
    static let maxSeparators = maxWindows * 16
    static let maxDepth = 4

    public enum Failure: Error, Equatable {
        case notAList
        case tooBig(TooBig)
    }

    /// Why a list is refused unread.
    public enum TooBig: Error, Equatable, CustomStringConvertible {
        case tooDeep
        case tooManyValues
        case tooManyWindows(Int)

        public var description: String {
            switch self {
            case .tooDeep: return "it nests deeper than \(DBusWindowList.maxDepth) levels"
            case .tooManyValues: return "it has more than \(DBusWindowList.maxSeparators) values; at most \(DBusWindowList.maxWindows) windows are read"
            case .tooManyWindows(let count): return "it lists \(count) windows; at most \(DBusWindowList.maxWindows)"
            }
        }
    }

    public static func parse(_ text: String) -> Result<[WindowInfo], Failure> {
        do {
            try precheck(text)
        } catch {
            return .failure(.tooBig(error))
        }
        guard let items = (try? JSONValue.parse(text))?.array else { return .failure(.notAList) }
        if items.count > maxWindows { return .failure(.tooBig(.tooManyWindows(items.count))) }
        let windows: [WindowInfo] = items.compactMap { item in
            guard let id = item["id"]?.string, id.utf8.count <= Int(GM_DBUS_ID_CAP) else { return nil }
            let title = cut(item["title"]?.string ?? "", to: Int(GM_DBUS_TITLE_CAP))
            let app = AppInfo(id: id, title: title, pid: item["pid"]?.integer.flatMap { $0 > 0 ? $0 : nil })
            return WindowInfo(app: app, focused: item["focused"]?.bool == true)
        }
        return .success(windows)
    }

    /// Throws when the text is too much to parse.
    static func precheck(_ text: String) throws(TooBig) {
        var separators = 0, depth = 0, inString = false, escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { throw .tooDeep }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                separators += 1
                if separators > maxSeparators { throw .tooManyValues }
            default: break
            }
        }
    }

    /// At most `limit` bytes of `text`, whole characters only.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > limit { break }
            used += size
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
