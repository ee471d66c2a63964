import Glibc
import GestureActions
import GestureInput
import GestureSystem

/// The touch devices as sysfs describes them, which anyone may read: so doctor
/// lists the devices this user may not open too, and says so.
public struct TouchDeviceSurvey: Sendable {
    public struct Device: Equatable, Sendable {
        public enum Kind: String, Sendable { case touchscreen, touchpad }

        /// What made it, which decides whether a run reads it.
        public enum Origin: Equatable, Sendable {
            /// A driver's: a real device.
            case driver
            /// Made by a program through uinput: a test's, a phone bridge's, a VM's.
            case uinput
            /// The copy `run --share` gives the desktop of the device at this node (its phys says which).
            case gesturemapClone(of: String)
            /// The touchpad the rules' `touchpad.*` drive.
            case gesturemapTouchpad
        }

        public var node: String
        public var name: String
        public var kind: Kind
        public var origin: Origin

        public var isVirtual: Bool { origin != .driver }

        /// A run reads it: every touch device but gesturemap's own, as the engine finds them.
        public var isReadByRun: Bool {
            switch origin {
            case .driver, .uinput: return true
            case .gesturemapClone, .gesturemapTouchpad: return false
            }
        }

        /// The node of the device it is a clone of, when it is gesturemap's clone.
        public var cloneOf: String? {
            if case .gesturemapClone(let original) = origin { return original }
            return nil
        }
    }

    public var inputDirectory: String
    public var sysfs: String

    public init(inputDirectory: String = DeviceScanner.directory, sysfs: String = UdevDatabase.defaultSysfs) {
        self.inputDirectory = inputDirectory
        self.sysfs = sysfs
    }

    public func devices() -> [Device] {
        DeviceScanner.nodeNames(in: inputDirectory).compactMap { name in
            let base = sysfs + "/class/input/\(name)/device"
            guard let abs = bits(base + "/capabilities/abs"), let keys = bits(base + "/capabilities/key") else { return nil }
            let properties = bits(base + "/properties") ?? []
            // As the engine decides (InputDevice.isTouch): finger positions, no pen.
            let mtX = 0x35, absX = 0x00, btnTouch = 0x14a, toolFinger = 0x145, toolPen = 0x140, direct = 1
            guard !keys.contains(toolPen) else { return nil }
            let touch = abs.contains(mtX) || (abs.contains(absX) && (keys.contains(btnTouch) || properties.contains(direct)))
            guard touch else { return nil }
            let touchscreen = properties.contains(direct) || (keys.contains(btnTouch) && !keys.contains(toolFinger))
            let deviceName = text(base + "/name") ?? "unnamed"
            return Device(node: inputDirectory + "/" + name, name: deviceName, kind: touchscreen ? .touchscreen : .touchpad,
                          origin: origin(name: name, deviceName: deviceName, phys: text(base + "/phys") ?? ""))
        }
    }

    /// A device under sysfs's devices/virtual was made through uinput; gesturemap
    /// stamps its clones' phys, and names its own touchpad.
    private func origin(name: String, deviceName: String, phys: String) -> Device.Origin {
        guard isVirtual(name) else { return .driver }
        if phys.hasPrefix(DeviceClone.physPrefix) { return .gesturemapClone(of: String(phys.dropFirst(DeviceClone.physPrefix.count))) }
        if deviceName == VirtualPointingDevice.touchpadName { return .gesturemapTouchpad }
        return .uinput
    }

    /// `class/input/eventN` resolves under `devices/virtual/` in this sysfs.
    private func isVirtual(_ name: String) -> Bool {
        guard let root = FileSystem.resolvedPath(sysfs),
              let resolved = FileSystem.resolvedPath(sysfs + "/class/input/" + name) else { return false }
        return resolved.hasPrefix(root + "/devices/virtual/")
    }

    /// The bits set in a sysfs bitmap: hexadecimal words, the most significant first.
    static func parseBits(_ text: String) -> Set<Int> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).reversed()
        var set = Set<Int>()
        for (index, word) in words.enumerated() {
            guard let value = UInt64(word, radix: 16) else { continue }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { set.insert(index * 64 + bit) }
        }
        return set
    }

    private func bits(_ path: String) -> Set<Int>? { text(path).map(Self.parseBits) }

    private func text(_ path: String) -> String? {
        guard case .success(let bytes) = BoundedFile.read(path, limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmed(of: "\n ")
    }
}
