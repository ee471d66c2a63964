import GestureCore
/// The framing of sway's and i3's IPC: "i3-ipc", the payload's length and the
/// message type as 32-bit native-endian integers, then a JSON payload. Replies
/// carry the request's type; events have the high bit set.
enum I3IPC {
    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14
    static let largestPayload = 16 << 20

    enum Request: UInt32 {
        case runCommand = 0, getWorkspaces = 1, subscribe = 2, getTree = 4
    }

    static let eventBit: UInt32 = 0x8000_0000
    enum Event: UInt32 {
        case workspace = 0, window = 3, shutdown = 6
    }

    struct Message: Equatable {
        var type: UInt32
        var payload: [UInt8]
        var isEvent: Bool { type & I3IPC.eventBit != 0 }
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    static func encode(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        return magic + bytes(UInt32(body.count)) + bytes(type) + body
    }

    private static func bytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    private static func integer(_ b: ArraySlice<UInt8>) -> UInt32 {
        let i = b.startIndex
        return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    /// Takes the first whole message off the front of `buffer`; nil while only
    /// part of one has arrived.
    static func next(_ buffer: inout [UInt8]) throws(AppSourceLost) -> Message? {
        guard buffer.count >= headerSize else { return nil }
        guard Array(buffer[0..<6]) == magic else {
            throw AppSourceLost("the IPC socket sent something that is not an i3-ipc message")
        }
        let length = Int(integer(buffer[6..<10]))
        guard length <= largestPayload else { throw AppSourceLost("the IPC socket announced a \(length)-byte message") }
        guard buffer.count - headerSize >= length else { return nil }
        let message = Message(type: integer(buffer[10..<14]), payload: Array(buffer[headerSize..<headerSize + length]))
        buffer.removeFirst(headerSize + length)
        return message
    }

    /// The application shown by a window container: Wayland's app_id, or the
    /// X11 class for XWayland windows (and i3).
    static func app(of container: JSONValue) -> AppInfo {
        let id = container["app_id"]?.string ?? container["window_properties"]?["class"]?.string ?? ""
        return AppInfo(id: id, title: container["name"]?.string ?? "", pid: container["pid"]?.integer.flatMap { $0 > 0 ? $0 : nil })
    }

    static func isWindow(_ node: JSONValue) -> Bool {
        guard let type = node["type"]?.string, type == "con" || type == "floating_con" else { return false }
        let children = (node["nodes"]?.array?.count ?? 0) + (node["floating_nodes"]?.array?.count ?? 0)
        return children == 0 && (node["app_id"] != nil || node["window_properties"] != nil || node["window"]?.integer != nil)
    }

    /// Every window in a GET_TREE reply, in tree order, with the focused one marked.
    static func windows(in tree: JSONValue) -> [(container: JSONValue, focused: Bool)] {
        var out: [(JSONValue, Bool)] = []
        func walk(_ node: JSONValue, depth: Int) {
            guard depth < 100 else { return }
            if isWindow(node) { out.append((node, node["focused"]?.bool == true)) }
            for child in (node["nodes"]?.array ?? []) + (node["floating_nodes"]?.array ?? []) { walk(child, depth: depth + 1) }
        }
        walk(tree, depth: 0)
        return out
    }

    /// The focused window in a GET_TREE reply, with its container id; nil when
    /// the focus is on a workspace or output.
    static func focused(in tree: JSONValue) -> (app: AppInfo, id: Int?)? {
        guard let window = windows(in: tree).first(where: \.focused)?.container else { return nil }
        return (app(of: window), window["id"]?.integer)
    }
}
