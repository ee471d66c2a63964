/// A device's state as its events leave it, at each SYN_REPORT: every slot's
/// multi-touch values, the keys and the other axes. What a clone needs to be
/// written into the same state, whatever it was told before.
public struct EvdevState: Equatable, Sendable {
    /// The slot ABS_MT_* events go to.
    public private(set) var slot = 0
    /// Slot → ABS_MT_* code → value.
    public private(set) var slots: [Int: [UInt16: Int32]] = [:]
    public private(set) var keys: [UInt16: Int32] = [:]
    /// Axes other than the multi-touch ones (ABS_X, ABS_Y, ABS_PRESSURE...).
    public private(set) var axes: [UInt16: Int32] = [:]
    /// The last event's time.
    public private(set) var time = 0.0

    public init() {}

    public mutating func apply(_ e: EvdevEvent) {
        time = e.time
        switch e.type {
        case EV.abs where e.code == ABS.mtSlot:
            slot = Int(e.value)
        case EV.abs where ABS.isMultiTouch(e.code):
            slots[slot, default: [:]][e.code] = e.value
        case EV.abs:
            axes[e.code] = e.value
        case EV.key:
            keys[e.code] = e.value
        default:
            break
        }
    }

    public func slotValue(_ slot: Int, _ code: UInt16) -> Int32? { slots[slot]?[code] }

    /// Slots with a contact (a tracking id of 0 or more).
    public var activeSlots: [Int] {
        slots.compactMap { slot, values in (values[ABS.mtTrackingID] ?? -1) >= 0 ? slot : nil }.sorted()
    }

    /// Fingers down: contacts in slots, or what BTN_TOOL_* says when it says
    /// more (a touchpad with two slots reports a third finger by key alone),
    /// or one for BTN_TOUCH on a device without slots.
    public var fingers: Int {
        var count = 0
        for values in slots.values where (values[ABS.mtTrackingID] ?? -1) >= 0 { count += 1 }
        for (code, value) in keys where value != 0 {
            if let tool = BTN.toolFingers(code) { count = max(count, tool) }
        }
        if count == 0, keys[BTN.touch] ?? 0 != 0 { count = 1 }
        return count
    }

    /// Where each contact is, in device units.
    public var positions: [Int: ShareGate.Position] {
        var out: [Int: ShareGate.Position] = [:]
        for slot in activeSlots {
            guard let x = slots[slot]?[ABS.mtPositionX], let y = slots[slot]?[ABS.mtPositionY] else { continue }
            out[slot] = ShareGate.Position(x: x, y: y)
        }
        if out.isEmpty, keys[BTN.touch] ?? 0 != 0, let x = axes[ABS.x], let y = axes[ABS.y] {
            out[-1] = ShareGate.Position(x: x, y: y)
        }
        return out
    }

    /// No key held: touch, tools and buttons all up.
    public var keysUp: Bool { keys.values.allSatisfy { $0 == 0 } }
}

extension ABS {
    /// ABS_MT_TOUCH_MAJOR (0x30) to ABS_MT_TOOL_Y (0x3d): the values each slot has.
    public static func isMultiTouch(_ code: UInt16) -> Bool { code >= 0x30 && code <= 0x3d }
}
