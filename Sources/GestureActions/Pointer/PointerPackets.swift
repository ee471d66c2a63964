import CLibevdev
import GestureCore

/// The packets a relative pointer sends for motion in millimetres and scrolling
/// in wheel notches. What a packet cannot carry (a fraction of a count, of a
/// hi-res step, of a classic notch) is kept for the next, so many small moves add
/// up to exactly what the rules asked for.
public struct PointerPackets: Sendable {
    private var countsLeft = Vector.zero
    /// Hi-res wheel units (120 a notch) not yet sent, horizontal and vertical.
    private var wheelLeft = Vector.zero
    /// Hi-res units sent since the last classic notch, horizontal and vertical.
    private var notchProgress = (x: 0, y: 0)

    /// The most counts one packet carries on an axis: a move larger than this
    /// is clipped. The rule API refuses far smaller values first.
    public static let maxCounts = 1 << 20

    public init() {}

    /// Relative motion: `gain` counts a millimetre, y growing downward.
    public mutating func move(dx: Double, dy: Double, gain: Double) -> [VirtualEvent] {
        let x = whole(&countsLeft.x, adding: dx * gain)
        let y = whole(&countsLeft.y, adding: dy * gain)
        var events: [VirtualEvent] = []
        if x != 0 { events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_X), Int32(clamping: x))) }
        if y != 0 { events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_Y), Int32(clamping: y))) }
        return events
    }

    /// Scrolling in wheel notches: positive `dy` scrolls down (the wheel turned
    /// toward you), positive `dx` right. Hi-res units every time, and a classic
    /// notch each time the hi-res units add up to 120 one way, as a hi-res mouse does.
    public mutating func scroll(dx: Double, dy: Double) -> [VirtualEvent] {
        var events: [VirtualEvent] = []
        // REL_WHEEL counts away from the user, the opposite of "down".
        let y = -whole(&wheelLeft.y, adding: dy * 120)
        let x = whole(&wheelLeft.x, adding: dx * 120)
        if y != 0 {
            events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL_HI_RES), Int32(clamping: y)))
            let notches = Self.notches(&notchProgress.y, adding: y)
            if notches != 0 { events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL), Int32(clamping: notches))) }
        }
        if x != 0 {
            events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_HWHEEL_HI_RES), Int32(clamping: x)))
            let notches = Self.notches(&notchProgress.x, adding: x)
            if notches != 0 { events.append(VirtualEvent(UInt16(EV_REL), UInt16(REL_HWHEEL), Int32(clamping: notches))) }
        }
        return events
    }

    /// A button going down or up.
    public static func button(_ button: PointerButton, down: Bool) -> [VirtualEvent] {
        [VirtualEvent(UInt16(EV_KEY), code(of: button), down ? 1 : 0)]
    }

    public static func code(of button: PointerButton) -> UInt16 {
        switch button {
        case .left: return UInt16(BTN_LEFT)
        case .right: return UInt16(BTN_RIGHT)
        case .middle: return UInt16(BTN_MIDDLE)
        }
    }

    /// A packet as `--dry-run` prints it: each event's field and value
    /// ("dx" 15, "wheel_hi_res" -120), a button as "button" and its name, then "value".
    public static func fields(of events: [VirtualEvent]) -> [(name: String, value: Int32, button: PointerButton?)] {
        events.map { e in
            if e.type == UInt16(EV_KEY) {
                return ("button", e.value, PointerButton.allCases.first { code(of: $0) == e.code })
            }
            let name: String
            switch Int32(e.code) {
            case REL_X: name = "dx"
            case REL_Y: name = "dy"
            case REL_WHEEL: name = "wheel"
            case REL_HWHEEL: name = "hwheel"
            case REL_WHEEL_HI_RES: name = "wheel_hi_res"
            case REL_HWHEEL_HI_RES: name = "hwheel_hi_res"
            default: name = "rel_\(e.code)"
            }
            return (name, e.value, nil)
        }
    }

    /// The whole counts of `left + amount`, rounded to the nearest; the rest stays in `left`.
    private func whole(_ left: inout Double, adding amount: Double) -> Int {
        let total = left + amount
        let limit = Double(Self.maxCounts)
        let sent = total.isFinite ? min(max(total.rounded(), -limit), limit) : 0
        left = total.isFinite ? total - sent : 0
        return Int(sent)
    }

    /// Classic notches crossed by `units` more hi-res units; a change of way
    /// starts the count again, as a wheel turned back does.
    private static func notches(_ progress: inout Int, adding units: Int) -> Int {
        if progress != 0, (progress > 0) != (units > 0) { progress = 0 }
        progress += units
        let notches = progress / 120
        progress -= notches * 120
        return notches
    }
}
