import GestureInput

/// A page's records as short lines, so that a test states what it expects
/// in a few words: "down t=50.5 id=0 x=10.0 y=20.0", "sync t=50.5".
extension NDJSONRecord {
    var summary: String {
        switch self {
        case let .event(kind, time, id, x, y):
            var words = ["\(kind)", "t=\(time)"]
            if kind != .sync { words.append("id=\(id)") }
            if let x { words.append("x=\(x)") }
            if let y { words.append("y=\(y)") }
            return words.joined(separator: " ")
        case let .palm(time, id):
            return "palm t=\(time) id=\(id)"
        case let .mouse(time, line):
            return "mouse t=\(time) \(line)"
        case .device(let info):
            return "device \(info.name ?? "-") x=\(info.x.minimum)...\(info.x.maximum ?? .nan) y=\(info.y.minimum)...\(info.y.maximum ?? .nan)"
                + " resolution=\(info.x.resolution ?? .nan),\(info.y.resolution ?? .nan)"
        case .blank:
            return "blank"
        case .invalid(let message):
            return "invalid: " + message
        }
    }
}

extension Array where Element == NDJSONRecord {
    var summary: String { map(\.summary).joined(separator: "\n") }
}
