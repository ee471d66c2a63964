import GestureInput

/// Where key events go: a uinput device, or (for --dry-run and tests) something readable.
public protocol KeySink: AnyObject {
    func write(type: UInt16, code: UInt16, value: Int32) -> Bool
}

/// The rules' virtual keyboard, a `UinputDevice`. Typing through the kernel
/// works under X11 and Wayland alike.
public final class VirtualKeyboard: KeySink {
    private let device: UinputDevice
    public var node: String? { device.node }

    private static let name = "gesturemap virtual keyboard"

    /// A desktop opens a new keyboard a little after it appears, and keys
    /// typed before that are lost: a keyboard made at start has that moment
    /// before any gesture, and one made at first use has its first keys wait
    /// (the engine's `PacketAgenda`).
    public init(path: String = UinputDevice.path, keys: [UInt16] = KeyCombo.allCodes) throws(UinputAccessError) {
        var description = UinputDevice.Description(name: Self.name, product: 0x6d67)
        description.keys = keys
        device = try UinputDevice(description, uinput: path, user: .key)
    }

    public func write(type: UInt16, code: UInt16, value: Int32) -> Bool {
        (try? device.write([EvdevEvent(time: 0, type: type, code: code, value: value)])) != nil
    }
}
