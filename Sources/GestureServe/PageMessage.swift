import GestureCore

/// What the page sends, one JSON text a WebSocket message:
///
///     {"type":"surface","width":390,"height":844,"ratio":3}
///     {"type":"touchstart","t":5123.4,"touches":[[0,120.5,300],[1,180,310]]}
///
/// `touches` are the event's changed touches as [identifier, x, y] in CSS px
/// from the page's top-left corner; `t` is the event's timeStamp in ms.
public enum PageMessage: Equatable, Sendable {
    case surface(width: Double, height: Double, ratio: Double)
    case touches(PageTouchKind, time: Double, [PageTouch])

    /// More changed touches than any phone reports in one event.
    public static let maxTouches = 20

    public static func parse(_ text: String) -> Result<PageMessage, PageMessageError> {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { return .failure(PageMessageError("not JSON: \(error.description)")) }
        guard let type = value["type"]?.string else { return .failure(PageMessageError("no \"type\" string")) }
        if type == "surface" {
            guard let width = value["width"]?.number, let height = value["height"]?.number, let ratio = value["ratio"]?.number,
                  (1...100_000).contains(width), (1...100_000).contains(height), (0.1...20).contains(ratio) else {
                return .failure(PageMessageError("a surface needs width and height 1 to 100000 (CSS px) and ratio 0.1 to 20"))
            }
            return .success(.surface(width: width, height: height, ratio: ratio))
        }
        guard let kind = PageTouchKind(rawValue: type) else {
            return .failure(PageMessageError("unknown type \"\(TerminalText.escaped(String(type.prefix(40))))\"; the page sends surface, touchstart, touchmove, touchend, touchcancel"))
        }
        // Relative to the page's load in today's browsers; since 1970 in old ones (1.7e12).
        guard let time = value["t"]?.number, (0...1e13).contains(time) else {
            return .failure(PageMessageError("\(type) needs \"t\", the event's timeStamp in ms (0 to 1e13)"))
        }
        guard let list = value["touches"]?.array, !list.isEmpty, list.count <= maxTouches else {
            return .failure(PageMessageError("\(type) needs \"touches\", 1 to \(maxTouches) [identifier, x, y] arrays"))
        }
        var touches: [PageTouch] = []
        for item in list {
            guard let fields = item.array, fields.count == 3, let id = fields[0].number, let x = fields[1].number, let y = fields[2].number,
                  id == id.rounded(), (-2_147_483_648...4_294_967_295).contains(id),
                  (-100_000...100_000).contains(x), (-100_000...100_000).contains(y) else {
                return .failure(PageMessageError("a touch is [identifier (an integer), x, y (CSS px, at most 100000 from the corner)]"))
            }
            touches.append(PageTouch(identifier: Int64(id), x: x, y: y))
        }
        return .success(.touches(kind, time: time, touches))
    }
}

public enum PageTouchKind: String, Sendable {
    case touchstart, touchmove, touchend, touchcancel
}

public struct PageTouch: Equatable, Sendable {
    public var identifier: Int64
    public var x: Double
    public var y: Double
}

public struct PageMessageError: Error, Equatable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
