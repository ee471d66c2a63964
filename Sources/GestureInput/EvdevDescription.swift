/// Which model a device is: its bus (BUS_USB, ...) and ids, as the kernel's `input_id`.
public struct DeviceID: Equatable, Hashable, Sendable {
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16

    public init(bus: UInt16, vendor: UInt16, product: UInt16) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
    }
}

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
    /// The EV_KEY codes that tell a touchscreen from a touchpad (BTN_TOUCH,
    /// BTN_TOOL_FINGER), when the source lists them.
    public var keys: Set<UInt16> = []
    /// The bus and USB-style ids (evemu `I:`, evtest's "Input device ID", EVIOCGID).
    public var id: DeviceID?
    /// The EV_REL codes it reports, when the source lists them (evemu's `B: 02`): a mouse's motion.
    public var relativeAxes: Set<UInt16> = []
    /// The source lists EV_ABS codes (evemu's `B: 03`), though no `A:` line may follow.
    public var hasAbsoluteBits = false

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

    /// Slots the device tracks, at most `InputLimits.maxContacts` (a larger
    /// ABS_MT_SLOT range is no reason to reserve more).
    public var slotCount: Int? {
        guard let slot = axes[ABS.mtSlot], let max = slot.maximum,
              let span = Checked.integer(max - slot.minimum, as: Int.self), span >= 0 else { return nil }
        return min(span, InputLimits.maxContacts - 1) + 1
    }

    public var isSemiMT: Bool { properties & (1 << UInt64(InputProperty.semiMT)) != 0 }
    public var isDirect: Bool { properties & (1 << UInt64(InputProperty.direct)) != 0 }

    /// A touchscreen rather than a touchpad, decided as udev's input_id does:
    /// INPUT_PROP_DIRECT, or BTN_TOUCH without BTN_TOOL_FINGER (older
    /// touchscreen drivers set no properties). Without key bits, a touchpad.
    public var isTouchscreen: Bool {
        isDirect || (keys.contains(BTN.touch) && !keys.contains(BTN.toolFinger))
    }
}
