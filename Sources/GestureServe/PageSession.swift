import GestureCore
import GestureInput

/// One connected page's messages as records of the engine's native format: a device
/// header when the surface is first sized or changes (a phone turned), then
/// the touches on the engine's monotonic clock, small ids of their own.
public struct PageSession: Sendable {
    /// CSS px per millimetre on a phone: browsers choose devicePixelRatio so
    /// that a CSS px is about an Android dp, 1/160 in (docs/serve.md).
    public static let cssPixelsPerMillimetre = 160 / 25.4
    /// More touches down at once than any phone reports.
    public static let maxTouchesDown = 16

    public let deviceName: String
    public private(set) var surface: (width: Double, height: Double, ratio: Double)?
    /// Page time (s) + offset = engine time; only ever lowered, so the
    /// engine's time never runs ahead of the clock the page's touches came by.
    private var offset: Double?
    private var lastTime = -Double.infinity
    /// The page's identifiers (Safari's are large and arbitrary) to small ids.
    private var ids: [Int64: Int] = [:]

    public init(deviceName: String) {
        self.deviceName = deviceName
    }

    /// The native format's records for `message`, which arrived at engine
    /// time `arrival`; an error for a message that breaks the page's protocol.
    public mutating func records(for message: PageMessage, arrival: Double) -> Result<[NDJSONRecord], PageMessageError> {
        switch message {
        case let .surface(width, height, ratio):
            surface = (width, height, ratio)
            let resolution = PageSession.cssPixelsPerMillimetre
            return .success([.device(DeviceInfo(name: deviceName,
                                                x: AxisInfo(minimum: 0, maximum: width, resolution: resolution),
                                                y: AxisInfo(minimum: 0, maximum: height, resolution: resolution)))])
        case let .touches(kind, pageTime, touches):
            guard surface != nil else { return .failure(PageMessageError("\(kind.rawValue) before the page's surface size")) }
            let time = engineTime(pageMilliseconds: pageTime, arrival: arrival)
            var records: [NDJSONRecord] = []
            records.reserveCapacity(touches.count + 1)
            for touch in touches {
                let id: Int
                switch kind {
                case .touchstart:
                    if let known = ids[touch.identifier] {
                        id = known
                    } else {
                        guard ids.count < PageSession.maxTouchesDown else {
                            return .failure(PageMessageError("more than \(PageSession.maxTouchesDown) touches down at once"))
                        }
                        id = (0...).first { !ids.values.contains($0) } ?? 0
                        ids[touch.identifier] = id
                    }
                case .touchmove, .touchend, .touchcancel:
                    // A touch the page never started: nothing to move or end.
                    guard let known = ids[touch.identifier] else { continue }
                    id = known
                    if kind != .touchmove { ids[touch.identifier] = nil }
                }
                let positioned = kind == .touchstart || kind == .touchmove
                records.append(.event(kind.touchEvent, time: time, id: Double(id),
                                      x: positioned ? touch.x : nil, y: positioned ? touch.y : nil))
            }
            records.append(.event(.sync, time: time, id: nil, x: nil, y: nil))
            return .success(records)
        }
    }

    /// Touches still down, for a page that went away without ending them.
    public var touchesDown: Int { ids.count }

    /// A message mapped further behind its arrival than this means the
    /// page's clock jumped (or an earlier message's time was false): the
    /// mapping starts again from this message, so a single wild time cannot
    /// freeze every later one at the clock's high-water mark. Wi-Fi delays
    /// bunches by far less.
    public static let clockJumpLimit = 2.0

    /// How far the page's clock had moved from the engine's, the first time
    /// the mapping started again (for the report); nil while it never did.
    public private(set) var firstClockJump: Double?

    private mutating func engineTime(pageMilliseconds: Double, arrival: Double) -> Double {
        let page = pageMilliseconds / 1000
        var shift = min(offset ?? .infinity, arrival - page)
        let behind = arrival - (page + shift)
        if behind > PageSession.clockJumpLimit {
            firstClockJump = firstClockJump ?? behind
            shift = arrival - page
        }
        offset = shift
        let time = max(page + shift, lastTime)
        lastTime = time
        return time
    }
}

extension PageTouchKind {
    /// The native format's event for the browser's.
    var touchEvent: TouchEventKind {
        switch self {
        case .touchstart: return .down
        case .touchmove: return .move
        case .touchend: return .up
        case .touchcancel: return .cancel
        }
    }
}
