import CEvdev
import CLibevdev
import Glibc

/// A virtual input device, made through libevdev's uinput API: the rules'
/// keyboard, pointer and touchpad from a description, a shared device's clone
/// from the device's own libevdev. The kernel removes it, and ends every key,
/// button and contact it held, when its descriptor closes, however gesturemap ends.
public final class UinputDevice {
    /// What the device says it is and can send, which decides how the desktop reads it.
    public struct Description: Sendable {
        public var name: String
        public var bustype = UInt16(BUS_VIRTUAL)
        /// The Linux Foundation's: a virtual device.
        public var vendor: UInt16 = 0x1d6b
        public var product: UInt16
        public var version: UInt16 = 1
        public var keys: [UInt16] = []
        public var relative: [UInt16] = []
        public var absolute: [(code: UInt16, info: input_absinfo)] = []
        public var properties: [UInt32] = []

        public init(name: String, product: UInt16) {
            self.name = name
            self.product = product
        }
    }

    /// /dev/uinput, or `GESTUREMAP_UINPUT`.
    public static var path: String {
        if let p = getenv("GESTUREMAP_UINPUT") { return String(cString: p) }
        return "/dev/uinput"
    }

    public let user: UinputUser
    /// Its /dev/input/eventN, when sysfs shows it.
    public let node: String?
    private let fd: Int32
    private let device: OpaquePointer
    private var bytes: [UInt8] = []

    public convenience init(_ description: Description, uinput: String = UinputDevice.path, user: UinputUser) throws(UinputAccessError) {
        guard let evdev = libevdev_new() else { throw .failed(user, uinput: uinput, reason: "out of memory") }
        defer { libevdev_free(evdev) }
        libevdev_set_name(evdev, description.name)
        libevdev_set_id_bustype(evdev, Int32(description.bustype))
        libevdev_set_id_vendor(evdev, Int32(description.vendor))
        libevdev_set_id_product(evdev, Int32(description.product))
        libevdev_set_id_version(evdev, Int32(description.version))
        for code in description.keys { libevdev_enable_event_code(evdev, UInt32(EV_KEY), UInt32(code), nil) }
        for code in description.relative { libevdev_enable_event_code(evdev, UInt32(EV_REL), UInt32(code), nil) }
        for (code, info) in description.absolute {
            var info = info
            libevdev_enable_event_code(evdev, UInt32(EV_ABS), UInt32(code), &info)
        }
        for property in description.properties { libevdev_enable_property(evdev, property) }
        try self.init(copying: evdev, phys: nil, uinput: uinput, user: user)
    }

    /// A device made like `evdev` (a libevdev handle: its name, ids,
    /// properties, event codes and axes), with `phys` as sysfs's phys.
    public init(copying evdev: OpaquePointer, phys: String?, uinput: String = UinputDevice.path, user: UinputUser) throws(UinputAccessError) {
        let fd = open(uinput, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw UinputAccessError(errno: errno, user: user, uinput: uinput) }
        // libevdev copies no phys; uinput takes it before the device is made.
        if let phys {
            let r = gm_uinput_set_phys(fd, phys)
            guard r >= 0 else {
                close(fd)
                throw UinputAccessError(errno: -r, user: user, uinput: uinput)
            }
        }
        var made: OpaquePointer?
        let r = libevdev_uinput_create_from_device(evdev, fd, &made)
        guard r >= 0, let made else {
            close(fd)
            throw UinputAccessError(errno: -r, user: user, uinput: uinput)
        }
        self.user = user
        self.fd = fd
        device = made
        node = libevdev_uinput_get_devnode(made).map { String(cString: $0) }
    }

    deinit {
        // Destroys the device; the descriptor is ours, not libevdev's, to close.
        libevdev_uinput_destroy(device)
        close(fd)
    }

    /// Writes the events in one write, as they are (a packet ends in its own
    /// SYN_REPORT); the kernel stamps them with the time it gets them.
    public func write(_ events: [EvdevEvent]) throws(UinputAccessError) {
        guard !events.isEmpty else { return }
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(events.count * RawEventDecoder.recordSize)
        for e in events { e.appendRecord(to: &bytes) }
        let failure: Int32? = bytes.withUnsafeBytes { all in
            var left = UnsafeRawBufferPointer(all)
            while !left.isEmpty {
                let n = Glibc.write(fd, left.baseAddress, left.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                left = UnsafeRawBufferPointer(rebasing: left[n...])
            }
            return nil
        }
        if let failure { throw .stopped(user, reason: String(cString: strerror(failure))) }
    }
}
