import CLibevdev
import GestureInput

/// Where pointer and touchpad packets go: a uinput device, or (for tests)
/// something readable.
public protocol PacketSink: AnyObject {
    /// Sends one packet (the events and their SYN_REPORT); false when the device stopped.
    func send(_ events: [VirtualEvent]) -> Bool
}

/// One of the rules' virtual devices, a `UinputDevice`: the pointer (a mouse
/// to the desktop: motion, left, right and middle buttons, wheels with hi-res
/// scrolling) or the touchpad (multitouch, what `TouchpadPackets` sends).
public final class VirtualPointingDevice: PacketSink {
    private let device: UinputDevice
    public var node: String? { device.node }

    public static let pointerName = "gesturemap virtual pointer"
    public static let touchpadName = "gesturemap virtual touchpad"

    public static func pointer(path: String = UinputDevice.path) throws(UinputAccessError) -> VirtualPointingDevice {
        var description = UinputDevice.Description(name: pointerName, product: 0x6d68)
        description.keys = [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE].map { UInt16($0) }
        description.relative = [REL_X, REL_Y, REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES].map { UInt16($0) }
        description.properties = [UInt32(INPUT_PROP_POINTER)]
        return try VirtualPointingDevice(description, path: path, user: .pointer)
    }

    public static func touchpad(path: String = UinputDevice.path) throws(UinputAccessError) -> VirtualPointingDevice {
        var description = UinputDevice.Description(name: touchpadName, product: 0x6d69)
        description.keys = TouchpadPackets.keys
        description.absolute = TouchpadPackets.axes
        description.properties = [UInt32(INPUT_PROP_POINTER), UInt32(INPUT_PROP_BUTTONPAD)]
        return try VirtualPointingDevice(description, path: path, user: .touchpad)
    }

    private init(_ description: UinputDevice.Description, path: String, user: UinputUser) throws(UinputAccessError) {
        device = try UinputDevice(description, uinput: path, user: user)
    }

    /// The events, then the SYN_REPORT that closes them, in one write.
    public func send(_ events: [VirtualEvent]) -> Bool {
        var packet = events.map { EvdevEvent(time: 0, type: $0.type, code: $0.code, value: $0.value) }
        packet.append(EvdevEvent(time: 0, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
        return (try? device.write(packet)) != nil
    }
}
