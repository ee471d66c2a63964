import Glibc
import CEvdev
import CEvdevReader
import GestureSystem

/// Why a device could not be used, worded for the person at the terminal.
public enum DeviceError: Error, Equatable, Sendable {
    case notFound(String)
    case permissionDenied(String)
    case notEvdev(String, String)
    case failed(String, String)

    public var message: String {
        switch self {
        case .notFound(let path): return "\(path): no such device"
        case .permissionDenied(let path):
            return "\(path): permission denied; the udev rule 70-gesturemap.rules lets the user logged in at the seat read touch devices: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat adds its user to the gesturemap group instead (sudo usermod -aG gesturemap USER)"
        case let .notEvdev(path, reason): return "\(path): not an evdev input device (\(reason))"
        case let .failed(path, reason): return "\(path): \(reason)"
        }
    }

    static func from(errno code: Int32, path: String) -> DeviceError {
        switch code {
        case ENOENT, ENODEV, ENXIO: return .notFound(path)
        case EACCES, EPERM: return .permissionDenied(path)
        case ENOTTY, EINVAL: return .notEvdev(path, String(cString: strerror(code)))
        default: return .failed(path, String(cString: strerror(code)))
        }
    }
}

/// An open /dev/input/event* node, described through its ioctls.
public final class InputDevice {
    public let path: String
    public let fd: Int32
    public let description: EvdevDescription
    /// Its events are stamped with CLOCK_MONOTONIC (EVIOCSCLOCKID succeeded).
    public private(set) var monotonicClock = false

    /// Opens the node and reads its name, properties and axes. Non-blocking: the
    /// engine's loop polls it.
    public init(path: String) throws(DeviceError) {
        let fd = gm_evdev_open(path, 1)
        guard fd >= 0 else { throw DeviceError.from(errno: -fd, path: path) }
        var name = [CChar](repeating: 0, count: 256)
        let n = gm_evdev_name(fd, &name, name.count)
        guard n >= 0 else {
            close(fd)
            throw DeviceError.from(errno: -n, path: path)
        }
        var description = EvdevDescription(name: String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        var bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0
        if gm_evdev_id(fd, &bus, &vendor, &product, &version) >= 0 {
            description.id = DeviceID(bus: bus, vendor: vendor, product: product)
        }
        var props = [UInt8](repeating: 0, count: 8)
        if gm_evdev_properties(fd, &props, props.count) >= 0 {
            for (i, byte) in props.enumerated() { description.properties |= UInt64(byte) << UInt64(8 * i) }
        }
        var absBits = [UInt8](repeating: 0, count: 8)
        if gm_evdev_bits(fd, UInt32(EV.abs), &absBits, absBits.count) >= 0 {
            for code in [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID]
            where absBits[Int(code) / 8] & (1 << (code % 8)) != 0 {
                var value: Int32 = 0, minimum: Int32 = 0, maximum: Int32 = 0, resolution: Int32 = 0
                if gm_evdev_absinfo(fd, UInt32(code), &value, &minimum, &maximum, &resolution) >= 0 {
                    description.axes[code] = AxisInfo(minimum: Double(minimum), maximum: Double(maximum),
                                                      resolution: resolution > 0 ? Double(resolution) : nil)
                    description.initialValues[code] = value
                }
            }
        }
        var keyBits = [UInt8](repeating: 0, count: 96)
        if gm_evdev_bits(fd, UInt32(EV.key), &keyBits, keyBits.count) >= 0 {
            hasTouchKey = keyBits[Int(BTN.touch) / 8] & (1 << (BTN.touch % 8)) != 0
            hasPen = keyBits[0x140 / 8] & 1 != 0  // BTN_TOOL_PEN
            if hasTouchKey { description.keys.insert(BTN.touch) }
            if keyBits[Int(BTN.toolFinger) / 8] & (1 << (BTN.toolFinger % 8)) != 0 { description.keys.insert(BTN.toolFinger) }
        }
        var relBits = [UInt8](repeating: 0, count: 2)
        let moves = gm_evdev_bits(fd, UInt32(EV.rel), &relBits, relBits.count) >= 0 && relBits[0] & 0b11 == 0b11
        let hasLeft = keyBits[Int(BTN.left) / 8] & (1 << (BTN.left % 8)) != 0
        // A keyboard is never taken for a mouse: a receiver's one node for both, or a keyboard with a pointing stick.
        let types = Self.typingKeys.contains { keyBits[Int($0) / 8] & (1 << ($0 % 8)) != 0 }
        isKeyboard = types
        isMouse = moves && hasLeft && !types && description.axes[ABS.x] == nil && description.axes[ABS.mtPositionX] == nil
        self.path = path
        self.fd = fd
        self.description = description
    }

    private var hasTouchKey = false
    private var hasPen = false
    /// A mouse, trackball or pointing stick: relative X and Y and a left
    /// button, no absolute axes, and no key a keyboard types with.
    public private(set) var isMouse = false
    /// It has keys a keyboard types with: never taken from the desktop as a mouse.
    public private(set) var isKeyboard = false
    /// KEY_Q, KEY_A, KEY_Z, KEY_SPACE, KEY_ENTER: a device with any of them types.
    static let typingKeys: [UInt16] = [16, 30, 44, 57, 28]

    deinit {
        if let reader { gm_evdev_reader_free(reader) }
        close(fd)
    }

    /// Reports finger contacts: multitouch position axes, or a touch key with
    /// position axes, and no pen (a stylus is not a finger).
    public var isTouch: Bool {
        guard !hasPen else { return false }
        if description.axes[ABS.mtPositionX] != nil { return true }
        return description.axes[ABS.x] != nil && (hasTouchKey || description.isDirect)
    }

    /// "touchscreen", "touchpad" or "mouse", as udev's input_id tells them apart.
    public var kindName: String { isMouse ? "mouse" : description.isTouchscreen ? "touchscreen" : "touchpad" }

    /// Asks for CLOCK_MONOTONIC timestamps, so deadlines and event times share a clock.
    public func useMonotonicClock() throws(DeviceError) {
        let r = gm_evdev_clock_monotonic(fd)
        guard r >= 0 else { throw DeviceError.from(errno: -r, path: path) }
        monotonicClock = true
    }

    /// Exclusive use: other readers (the desktop) stop seeing its events.
    public func grab() throws(DeviceError) {
        let r = gm_evdev_grab(fd, 1)
        guard r >= 0 else {
            if -r == EBUSY { throw DeviceError.failed(path, "another program has grabbed it") }
            throw DeviceError.from(errno: -r, path: path)
        }
    }

    /// The device's state now, as libevdev keeps it: its slots' values, its
    /// axes and keys, as events (times 0). Empty before `beginReading()`.
    public func currentState() -> [EvdevEvent] {
        guard let reader else { return [] }
        let size = RawEventDecoder.recordSize
        let capacity = 8192
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * size, alignment: 8)
        defer { buffer.deallocate() }
        let n = Int(gm_evdev_reader_state(reader, buffer.baseAddress, capacity))
        return EvdevEvent.records(UnsafeRawBufferPointer(rebasing: buffer[0..<(max(0, n) * size)]))
    }

    /// Lets other readers (the desktop) have its events again.
    public func ungrab() {
        _ = gm_evdev_grab(fd, 0)
    }

    /// libevdev's copy of the device's state, from `beginReading()` on.
    private(set) var reader: OpaquePointer?

    /// The reader's libevdev handle, which a clone is made from; the reader's to free.
    var libevdev: OpaquePointer? { reader.map { gm_evdev_reader_device($0) } }

    /// Reads through libevdev from now on: it keeps the device's state, so
    /// that after SYN_DROPPED it can bring the reader's up to date.
    public func beginReading() throws(DeviceError) {
        guard reader == nil else { return }
        var error: Int32 = 0
        guard let made = gm_evdev_reader_new(fd, &error) else {
            throw DeviceError.failed(path, "libevdev cannot read it: \(String(cString: strerror(error)))")
        }
        reader = made
    }

    /// What a read found.
    public enum ReadOutcome: Equatable {
        /// This many bytes of `struct input_event` records; after a
        /// SYN_DROPPED, the device's state follows (`DropRecovery.kernelState`).
        case bytes(Int)
        /// Nothing is waiting.
        case nothing
        case unplugged
        case failed(Int32)
    }

    /// The records waiting, as many as fit in `buffer`.
    public func readEvents(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        guard let reader else { return .failed(EBADF) }
        let size = RawEventDecoder.recordSize
        let n = gm_evdev_reader_read(reader, buffer.baseAddress, buffer.count / size)
        if n > 0 { return .bytes(Int(n) * size) }
        if n == 0 { return .nothing }
        return -n == ENODEV ? .unplugged : .failed(-n)
    }
}

/// Finds touch devices among the input device nodes.
public enum DeviceScanner {
    /// /dev/input, or `GESTUREMAP_INPUT_DIR` (tests point it at a directory of FIFOs).
    public static var directory: String {
        if let dir = getenv("GESTUREMAP_INPUT_DIR") { return String(cString: dir) }
        return "/dev/input"
    }

    public struct Scan: Sendable {
        public var touch: [String] = []
        /// Mice, trackballs and pointing sticks (`InputDevice.isMouse`), not
        /// gesturemap's own virtual pointer; counted in `others` too.
        public var mice: [String] = []
        public var others: Int = 0
        public var problems: [DeviceError] = []
        public var directoryMissing = false
    }

    /// Every `event*` node, in numeric order, sorted into touch devices, other
    /// devices, and nodes that could not be opened.
    public static func scan(_ dir: String = directory) -> Scan {
        var result = Scan()
        guard let names = eventNodes(in: dir) else {
            result.directoryMissing = true
            return result
        }
        for name in names {
            let path = dir + "/" + name
            do {
                let device = try InputDevice(path: path)
                if device.isTouch, !isOwnTouchpad(path, device) { result.touch.append(path) } else { result.others += 1 }
                if device.isMouse, !isOwnPointer(path, device) { result.mice.append(path) }
            } catch {
                result.problems.append(error)
            }
        }
        return result
    }

    /// The `event*` node names in `dir`, in numeric order; empty when it is missing.
    public static func nodeNames(in dir: String) -> [String] { eventNodes(in: dir) ?? [] }

    /// The name of the virtual touchpad the rules' `touchpad.*` drive
    /// (GestureActions' VirtualPointingDevice.touchpadName, held equal by a test).
    public static let ownTouchpadName = "gesturemap virtual touchpad"

    /// gesturemap's own virtual touchpad: never found as a device to read, or
    /// its gestures would come back to the rules that made them. Named on the
    /// command line, it is read as any device.
    public static func isOwnTouchpad(_ path: String, _ device: InputDevice) -> Bool {
        device.description.name == ownTouchpadName && isVirtual(path)
    }

    /// The name of the virtual pointer the rules' `pointer.*` drive
    /// (VirtualPointingDevice.pointerName, held equal by a test).
    public static let ownPointerName = "gesturemap virtual pointer"

    /// gesturemap's own virtual pointer: never found as a mouse to share, or
    /// the clicks the rules make would come back to them.
    public static func isOwnPointer(_ path: String, _ device: InputDevice) -> Bool {
        device.description.name == ownPointerName && isVirtual(path)
    }

    /// A device made by a program (uinput), not by a driver: sysfs keeps it
    /// under /sys/devices/virtual.
    public static func isVirtual(_ node: String) -> Bool {
        let name = node.split(separator: "/").last.map(String.init) ?? node
        guard let resolved = FileSystem.resolvedPath("/sys/class/input/" + name) else { return false }
        return resolved.hasPrefix("/sys/devices/virtual/")
    }

    private static func eventNodes(in dir: String) -> [String]? {
        guard var names = Directory.names(in: dir)?.filter({ $0.hasPrefix("event") }) else { return nil }
        names.sort { (Int($0.dropFirst(5)) ?? 0, $0) < (Int($1.dropFirst(5)) ?? 0, $1) }
        return names
    }

    /// Why no touch device can be used, and what to do about it.
    public static func explainNone(_ scan: Scan, directory dir: String = directory) -> String {
        if scan.directoryMissing {
            return "\(dir) does not exist: this system shows no input devices (a container or a VM without them?); give a recording or pipe events in instead"
        }
        if let denied = scan.problems.first(where: { if case .permissionDenied = $0 { return true } else { return false } }) {
            return "no touch device can be read: " + denied.message
        }
        if scan.others > 0 {
            return "no touch devices in \(dir) (\(scan.others) other input device\(scan.others == 1 ? "" : "s")); is the touchscreen connected and its driver loaded?"
        }
        return "no input devices in \(dir)"
    }

    /// The user may not read the devices there: no waiting will fix that.
    public static func accessDenied(_ scan: Scan) -> Bool {
        scan.problems.contains { if case .permissionDenied = $0 { return true } else { return false } }
    }

    /// A service that may not read the devices yet says once why, and waits
    /// for access (logind's grant at login, or a group).
    public static func explainWaitingForAccess(_ scan: Scan) -> String {
        let why = scan.problems.first { if case .permissionDenied = $0 { return true } else { return false } }
        return "no touch device can be read yet (\(why?.message ?? "permission denied")); waiting for access, which logind gives the user at the seat at login"
    }

    /// A run that waits for a touch device to be plugged in says once what it found.
    public static func explainWaiting(_ scan: Scan, directory dir: String = directory) -> String {
        let found: String
        if scan.directoryMissing {
            found = "\(dir) does not exist yet (no input device since boot)"
        } else if scan.others > 0 {
            found = "no touch device in \(dir) yet (\(scan.others) other input device\(scan.others == 1 ? "" : "s"))"
        } else {
            found = "no input device in \(dir) yet"
        }
        return found + "; waiting for a touch device to be plugged in"
    }
}
