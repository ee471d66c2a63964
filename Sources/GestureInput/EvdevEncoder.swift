import GestureCore

/// Frames back to protocol-B evdev events, in device units: what a touchscreen
/// would have sent. Used by `record --format raw|evemu` and the round-trip tests.
public struct EvdevEncoder: Sendable {
    public let converter: UnitConverter
    private var slotOfTouch: [Int: Int] = [:]
    private var slots: [(x: Int32, y: Int32)?] = []
    private var selected = -1
    private var nextTrackingID: Int32 = 1
    private var touching = false

    public init(converter: UnitConverter) {
        self.converter = converter
    }

    /// Device units for a position in millimetres (the converter, run backwards).
    public func units(_ p: Vector) -> (x: Double, y: Double) {
        (p.x / converter.xScale + converter.xOrigin, p.y / converter.yScale + converter.yOrigin)
    }

    public mutating func encode(_ frame: TouchFrame, into events: inout [EvdevEvent]) {
        let t = frame.time
        for touch in frame.touches {
            switch touch.phase {
            case .began:
                let slot = slots.firstIndex(where: { $0 == nil }) ?? slots.count
                if slot == slots.count { slots.append(nil) }
                slotOfTouch[touch.id] = slot
                select(slot, at: t, into: &events)
                events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtTrackingID, value: nextTrackingID))
                nextTrackingID = nextTrackingID == Int32.max ? 1 : nextTrackingID + 1
                let (x, y) = rounded(touch.position)
                events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtPositionX, value: x))
                events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtPositionY, value: y))
                slots[slot] = (x, y)
            case .moved:
                guard let slot = slotOfTouch[touch.id], let last = slots[slot] else { continue }
                let (x, y) = rounded(touch.position)
                guard x != last.x || y != last.y else { continue }
                select(slot, at: t, into: &events)
                if x != last.x { events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtPositionX, value: x)) }
                if y != last.y { events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtPositionY, value: y)) }
                slots[slot] = (x, y)
            case .ended, .cancelled:
                guard let slot = slotOfTouch.removeValue(forKey: touch.id) else { continue }
                select(slot, at: t, into: &events)
                events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtTrackingID, value: -1))
                slots[slot] = nil
            case .stationary:
                break
            }
        }
        let down = !slotOfTouch.isEmpty
        if down != touching {
            touching = down
            events.append(EvdevEvent(time: t, type: EV.key, code: BTN.touch, value: down ? 1 : 0))
        }
        events.append(EvdevEvent(time: t, type: EV.syn, code: SYN.report, value: 0))
    }

    private mutating func select(_ slot: Int, at t: Double, into events: inout [EvdevEvent]) {
        guard slot != selected else { return }
        selected = slot
        events.append(EvdevEvent(time: t, type: EV.abs, code: ABS.mtSlot, value: Checked.integer(slot, as: Int32.self) ?? Int32.max))
    }

    private func rounded(_ p: Vector) -> (Int32, Int32) {
        let (x, y) = units(p)
        return (Checked.clampedInteger(x, as: Int32.self) ?? 0, Checked.clampedInteger(y, as: Int32.self) ?? 0)
    }

    /// The description a file of these events needs: the converter's axes, and slots.
    public func description(name: String?) -> EvdevDescription {
        var d = EvdevDescription(name: name)
        let width = converter.surface.map { $0.width / converter.xScale } ?? 0
        let height = converter.surface.map { $0.height / converter.yScale } ?? 0
        let x = AxisInfo(minimum: converter.xOrigin, maximum: converter.xOrigin + width, resolution: 1 / converter.xScale)
        let y = AxisInfo(minimum: converter.yOrigin, maximum: converter.yOrigin + height, resolution: 1 / converter.yScale)
        d.axes[ABS.mtPositionX] = x
        d.axes[ABS.mtPositionY] = y
        d.axes[ABS.x] = x
        d.axes[ABS.y] = y
        d.axes[ABS.mtSlot] = AxisInfo(minimum: 0, maximum: 9)
        d.axes[ABS.mtTrackingID] = AxisInfo(minimum: 0, maximum: 65535)
        d.properties = 1 << UInt64(InputProperty.direct)
        return d
    }
}
