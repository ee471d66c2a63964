/// What an evdev source says about its device: axis ranges, slots, properties.
/// Built from evemu `N:`/`P:`/`A:` lines, an evtest header, or a live device's ioctls.
public struct EvdevDescription: Equatable, Sendable {
    public var name: String?
    /// Axes by code: (min, max, resolution).
    public var axes: [UInt16: AxisInfo] = [:]
    /// INPUT_PROP_* bits.
    public var properties: UInt64 = 0
    /// Axis values when the recording began (evtest's "Value" lines): a contact
    /// already down may never resend an axis that does not change.
    public var initialValues: [UInt16: Int32] = [:]

    public init(name: String? = nil) {
        self.name = name
    }

    public var isEmpty: Bool { name == nil && axes.isEmpty && properties == 0 }

    /// The multitouch axes when the device has them, else the single-touch ones.
    public var deviceInfo: DeviceInfo {
        DeviceInfo(name: name, x: axes[ABS.mtPositionX] ?? axes[ABS.x] ?? AxisInfo(),
                   y: axes[ABS.mtPositionY] ?? axes[ABS.y] ?? AxisInfo())
    }

    /// Whether any axis range is known, so units and a surface can be derived.
    public var hasPositionAxes: Bool {
        axes[ABS.mtPositionX] != nil || axes[ABS.x] != nil
    }

    public var slotCount: Int? {
        guard let slot = axes[ABS.mtSlot], let max = slot.maximum else { return nil }
        return Int(max - slot.minimum) + 1
    }

    public var isSemiMT: Bool { properties & (1 << UInt64(InputProperty.semiMT)) != 0 }
    public var isDirect: Bool { properties & (1 << UInt64(InputProperty.direct)) != 0 }
}
