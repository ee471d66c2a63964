import CLibevdev

/// Where pointer and touchpad packets go: a uinput device, or (for --dry-run
/// and tests) something readable.
public protocol PacketSink: AnyObject {
    /// Sends one packet (the events and their SYN_REPORT); false when the device stopped.
    func send(_ events: [VirtualEvent]) -> Bool
}

/// A uinput relative pointer: motion, the left, right and middle buttons, and
/// wheels with hi-res scrolling. The desktop reads it as a mouse.
public final class VirtualPointer: PacketSink {
    private let device: UinputDevice
    public var node: String? { device.node }

    public static let name = "gesturemap virtual pointer"

    public init(path: String = VirtualKeyboard.path) throws(VirtualDeviceError) {
        var description = UinputDevice.Description(name: Self.name, product: 0x6d68)
        description.keys = [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE].map { UInt16($0) }
        description.relative = [REL_X, REL_Y, REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES].map { UInt16($0) }
        description.properties = [UInt32(INPUT_PROP_POINTER)]
        device = try UinputDevice(description, path: path, user: .pointer)
    }

    public func send(_ events: [VirtualEvent]) -> Bool { device.write(events) }
}

/// A uinput multitouch touchpad (`TouchpadPackets` says what it sends): the
/// desktop's own touchpad gestures, from any surface.
public final class VirtualTouchpad: PacketSink {
    private let device: UinputDevice
    public var node: String? { device.node }

    public static let name = "gesturemap virtual touchpad"

    public init(path: String = VirtualKeyboard.path) throws(VirtualDeviceError) {
        var description = UinputDevice.Description(name: Self.name, product: 0x6d69)
        description.keys = TouchpadPackets.keys
        description.absolute = TouchpadPackets.axes
        description.properties = [UInt32(INPUT_PROP_POINTER), UInt32(INPUT_PROP_BUTTONPAD)]
        device = try UinputDevice(description, path: path, user: .touchpad)
    }

    public func send(_ events: [VirtualEvent]) -> Bool { device.write(events) }
}
