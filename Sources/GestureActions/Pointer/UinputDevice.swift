import CEvdev
import CLibevdev
import Glibc

/// A virtual input device made through libevdev's uinput API: the pointer and
/// the touchpad the rules act through. The kernel removes it, and ends every
/// button and contact it held, when its descriptor closes, however gesturemap ends.
final class UinputDevice {
    /// What the device says it can send, which decides how the desktop reads it.
    struct Description {
        var name: String
        var product: UInt16
        var keys: [UInt16] = []
        var relative: [UInt16] = []
        var absolute: [(code: UInt16, info: input_absinfo)] = []
        var properties: [UInt32] = []
    }

    private let fd: Int32
    private let device: OpaquePointer
    /// Its /dev/input/eventN, when sysfs shows it.
    let node: String?

    init(_ description: Description, path: String, user: VirtualDeviceError.User) throws(VirtualDeviceError) {
        let fd = gm_uinput_open(path)
        guard fd >= 0 else { throw VirtualDeviceError(opening: path, errno: -fd, user: user) }
        guard let evdev = libevdev_new() else {
            close(fd)
            throw .failed(user, path, "out of memory")
        }
        defer { libevdev_free(evdev) }
        libevdev_set_name(evdev, description.name)
        libevdev_set_id_bustype(evdev, Int32(BUS_VIRTUAL))
        libevdev_set_id_vendor(evdev, 0x1d6b) // Linux Foundation: a virtual device
        libevdev_set_id_product(evdev, Int32(description.product))
        libevdev_set_id_version(evdev, 1)
        for code in description.keys { libevdev_enable_event_code(evdev, UInt32(EV_KEY), UInt32(code), nil) }
        for code in description.relative { libevdev_enable_event_code(evdev, UInt32(EV_REL), UInt32(code), nil) }
        for (code, info) in description.absolute {
            var info = info
            libevdev_enable_event_code(evdev, UInt32(EV_ABS), UInt32(code), &info)
        }
        for property in description.properties { libevdev_enable_property(evdev, property) }
        var made: OpaquePointer?
        let r = libevdev_uinput_create_from_device(evdev, fd, &made)
        guard r >= 0, let made else {
            close(fd)
            throw VirtualDeviceError(opening: path, errno: -r, user: user)
        }
        self.fd = fd
        device = made
        node = libevdev_uinput_get_devnode(made).map { String(cString: $0) }
    }

    deinit {
        libevdev_uinput_destroy(device)
        close(fd)
    }

    /// Writes the events and the SYN_REPORT that closes them into one packet.
    func write(_ events: [VirtualEvent]) -> Bool {
        for e in events where libevdev_uinput_write_event(device, UInt32(e.type), UInt32(e.code), e.value) < 0 { return false }
        return libevdev_uinput_write_event(device, UInt32(EV_SYN), UInt32(SYN_REPORT), 0) >= 0
    }
}

/// One event of a packet to a virtual device.
public struct VirtualEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }
}

/// Why a virtual pointer or touchpad could not be made or written.
public enum VirtualDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The part of the rule API that needs the device, as messages name it.
    public enum User: String, Sendable {
        case pointer = "pointer", touchpad = "touchpad"
    }

    case missing(User, String)
    case denied(User, String)
    case failed(User, String, String)
    case stopped(User)

    init(opening path: String, errno: Int32, user: User) {
        switch errno {
        case ENOENT, ENODEV, ENXIO: self = .missing(user, path)
        case EACCES, EPERM: self = .denied(user, path)
        default: self = .failed(user, path, String(cString: strerror(errno)))
        }
    }

    public var description: String {
        switch self {
        case let .missing(user, path):
            return "\(user.rawValue) needs \(path), which does not exist; load the uinput module (sudo modprobe uinput, and list it in /etc/modules-load.d/), give yourself access with the udev rule examples/udev/70-gesturemap.rules, or run with --dry-run to print the \(user.rawValue) events instead"
        case let .denied(user, path):
            return "\(user.rawValue) needs write access to \(path); the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat, or run with --dry-run to print the \(user.rawValue) events instead"
        case let .failed(user, path, reason):
            return "\(user.rawValue) could not set up a virtual \(user.rawValue) on \(path): \(reason)"
        case let .stopped(user):
            return "the virtual \(user.rawValue) stopped taking events"
        }
    }
}
