import CLibevdev
import GestureCore

/// The packets of a virtual multitouch touchpad on which fingers land
/// together, move together and lift together: what the desktop's libinput
/// reads as a two-finger scroll or a three-, four- or five-finger swipe, with its
/// own animation following the fingers. Positions are kept in millimetres and
/// sent in the surface's units, so motion is exact to a unit.
public struct TouchpadPackets: Sendable {
    /// The surface: large, so that a long stroke from the middle stays on it.
    public static let width = 300.0, height = 200.0
    /// Units a millimetre (ABS resolution).
    public static let resolution: Int32 = 20
    /// Fingers side by side, this far apart: libinput reads fingers in a row
    /// moving one way as a swipe, not a pinch.
    public static let spacing = 18.0
    public static let maxFingers = 5

    public enum Phase: Equatable, Sendable {
        case up
        case down(fingers: Int, centre: Vector)
    }

    public private(set) var phase = Phase.up
    private var nextTrackingID: Int32 = 1

    public init() {}

    /// Fingers land around the middle of the surface.
    public mutating func begin(fingers: Int) -> [VirtualEvent] {
        var events = end()
        let count = min(max(fingers, 1), Self.maxFingers)
        let centre = Vector(Self.width / 2, Self.height / 2)
        for slot in 0..<count {
            events.append(abs(ABS_MT_SLOT, Int32(slot)))
            events.append(abs(ABS_MT_TRACKING_ID, nextTrackingID))
            nextTrackingID = nextTrackingID == Int32.max ? 1 : nextTrackingID + 1
            events += position(slot: slot, of: count, centre: centre)
        }
        events.append(key(BTN_TOUCH, 1))
        events.append(key(Self.tool(fingers: count), 1))
        events += pointerPosition(count: count, centre: centre)
        phase = .down(fingers: count, centre: centre)
        return events
    }

    /// Every finger moves by (dx, dy) mm, stopping at the surface's edge.
    public mutating func move(dx: Double, dy: Double) -> [VirtualEvent] {
        guard case let .down(count, centre) = phase, dx.isFinite, dy.isFinite else { return [] }
        let half = Self.spacing * Double(count - 1) / 2
        let moved = Vector(min(max(centre.x + dx, half + 1), Self.width - half - 1),
                           min(max(centre.y + dy, 1), Self.height - 1))
        phase = .down(fingers: count, centre: moved)
        var events: [VirtualEvent] = []
        for slot in 0..<count {
            let before = position(slot: slot, of: count, centre: centre)
            let after = position(slot: slot, of: count, centre: moved)
            guard before != after else { continue }
            events.append(abs(ABS_MT_SLOT, Int32(slot)))
            for (old, new) in zip(before, after) where old != new { events.append(new) }
        }
        if !events.isEmpty { events += pointerPosition(count: count, centre: moved) }
        return events
    }

    /// Every finger lifts; nothing when none is down.
    public mutating func end() -> [VirtualEvent] {
        guard case let .down(count, _) = phase else { return [] }
        var events: [VirtualEvent] = []
        for slot in 0..<count {
            events.append(abs(ABS_MT_SLOT, Int32(slot)))
            events.append(abs(ABS_MT_TRACKING_ID, -1))
        }
        events.append(key(BTN_TOUCH, 0))
        events.append(key(Self.tool(fingers: count), 0))
        phase = .up
        return events
    }

    public var isDown: Bool { phase != .up }

    /// BTN_TOOL_FINGER … BTN_TOOL_QUINTTAP: how many fingers the kernel says are down.
    static func tool(fingers: Int) -> Int32 {
        switch fingers {
        case 1: return BTN_TOOL_FINGER
        case 2: return BTN_TOOL_DOUBLETAP
        case 3: return BTN_TOOL_TRIPLETAP
        case 4: return BTN_TOOL_QUADTAP
        default: return BTN_TOOL_QUINTTAP
        }
    }

    /// What the device says it has.
    static var axes: [(code: UInt16, info: input_absinfo)] {
        let x = input_absinfo(value: 0, minimum: 0, maximum: Int32(width) * resolution, fuzz: 0, flat: 0, resolution: resolution)
        let y = input_absinfo(value: 0, minimum: 0, maximum: Int32(height) * resolution, fuzz: 0, flat: 0, resolution: resolution)
        let slots = input_absinfo(value: 0, minimum: 0, maximum: Int32(maxFingers - 1), fuzz: 0, flat: 0, resolution: 0)
        let ids = input_absinfo(value: 0, minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0)
        return [(UInt16(ABS_X), x), (UInt16(ABS_Y), y), (UInt16(ABS_MT_SLOT), slots),
                (UInt16(ABS_MT_POSITION_X), x), (UInt16(ABS_MT_POSITION_Y), y), (UInt16(ABS_MT_TRACKING_ID), ids)]
    }

    static var keys: [UInt16] {
        [BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP].map { UInt16($0) }
    }

    private func position(slot: Int, of count: Int, centre: Vector) -> [VirtualEvent] {
        let x = centre.x + (Double(slot) - Double(count - 1) / 2) * Self.spacing
        return [abs(ABS_MT_POSITION_X, units(x)), abs(ABS_MT_POSITION_Y, units(centre.y))]
    }

    /// The single-touch axes follow the first finger, as a touchpad's kernel driver does.
    private func pointerPosition(count: Int, centre: Vector) -> [VirtualEvent] {
        let x = centre.x - Double(count - 1) / 2 * Self.spacing
        return [abs(ABS_X, units(x)), abs(ABS_Y, units(centre.y))]
    }

    private func units(_ mm: Double) -> Int32 { Int32(clamping: Int((mm * Double(Self.resolution)).rounded())) }
    private func abs(_ code: Int32, _ value: Int32) -> VirtualEvent { VirtualEvent(UInt16(EV_ABS), UInt16(code), value) }
    private func key(_ code: Int32, _ value: Int32) -> VirtualEvent { VirtualEvent(UInt16(EV_KEY), UInt16(code), value) }
}
