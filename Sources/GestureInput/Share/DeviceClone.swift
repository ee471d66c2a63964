import CEvdevReader
import Glibc
import GestureSystem

/// A shared device's copy for the desktop: a uinput device made like it (name,
/// ids, properties, axes), which the desktop reads while gesturemap holds the
/// device itself. The kernel removes it when its descriptor closes, however
/// gesturemap ends, and ends whatever contacts and keys it held.
public final class DeviceClone {
    private let clone: OpaquePointer
    /// Its /dev/input/eventN.
    public let node: String?
    private var bytes: [UInt8] = []

    /// What the clone's phys (sysfs's `phys`, libevdev_get_phys) starts with,
    /// the original's node after it: so anyone can tell gesturemap's clones from
    /// the devices they copy, which have the same name and ids.
    public static let physPrefix = "gesturemap-clone-of:"

    /// A clone of `device`, which must be reading (`beginReading()`), made through `uinput`.
    public init(of device: InputDevice, uinput: String) throws(CloneError) {
        guard let reader = device.reader else { throw .failed(device.path, "it is not being read") }
        // libinput's udev rule moved the device's fuzz into LIBINPUT_FUZZ_* and set the
        // kernel's to 0: the clone gets it back, and the same rule moves it again there.
        for (code, fuzz) in DeviceClone.libinputFuzz(of: device.path) { gm_evdev_reader_set_fuzz(reader, UInt32(code), fuzz) }
        var error: Int32 = 0
        guard let made = gm_evdev_clone_new(reader, uinput, DeviceClone.physPrefix + device.path, &error) else {
            switch error {
            case EACCES, EPERM: throw .uinputDenied(device: device.path, uinput: uinput)
            case ENOENT, ENODEV, ENXIO: throw .noUinput(device: device.path, uinput: uinput)
            default: throw .failed(device.path, String(cString: strerror(error)))
            }
        }
        clone = made
        node = gm_evdev_clone_devnode(made).map { String(cString: $0) }
    }

    deinit { gm_evdev_clone_free(clone) }

    /// The fuzz libinput's udev rule kept for each axis of the device at `node`
    /// (`E:LIBINPUT_FUZZ_35=8` in udev's database), or none.
    static func libinputFuzz(of node: String, udev: UdevDatabase = UdevDatabase()) -> [(code: UInt16, fuzz: Int32)] {
        guard let entry = udev.entry(ofNode: node) else { return [] }
        return fuzz(in: entry)
    }

    /// `LIBINPUT_FUZZ_<axis code in hex>=<fuzz>` properties, by axis code.
    static func fuzz(in entry: UdevDatabase.Entry) -> [(code: UInt16, fuzz: Int32)] {
        entry.properties.compactMap { key, value in
            guard key.hasPrefix("LIBINPUT_FUZZ_"), let code = UInt16(key.dropFirst("LIBINPUT_FUZZ_".count), radix: 16),
                  let fuzz = Int32(value), fuzz > 0 else { return nil }
            return (code, fuzz)
        }.sorted { $0.code < $1.code }
    }

    /// Writes whole packets; the kernel stamps them with the time it gets them.
    public func write(_ events: [EvdevEvent]) throws(CloneError) {
        guard !events.isEmpty else { return }
        let size = RawEventDecoder.recordSize
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(events.count * size)
        for e in events { e.appendRecord(to: &bytes) }
        let r = bytes.withUnsafeBytes { gm_evdev_clone_write(clone, $0.baseAddress, events.count) }
        if r < 0 { throw .writeFailed(node ?? "the clone", String(cString: strerror(-r))) }
    }
}

/// Why a device cannot be shared.
public enum CloneError: Error, Equatable, Sendable {
    /// `device`: a node, or words for several ("each touch device").
    case uinputDenied(device: String, uinput: String)
    case noUinput(device: String, uinput: String)
    case failed(String, String)
    case writeFailed(String, String)

    public var message: String {
        switch self {
        case let .uinputDenied(device, uinput):
            return "--share needs write access to \(uinput) to give the desktop its copy of \(device); the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, \(CloneError.copyRule)) and log in again at the seat, or run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"
        case let .noUinput(device, uinput):
            return "--share needs \(uinput) to give the desktop its copy of \(device), and there is none; load the uinput module (sudo modprobe uinput, and list it in /etc/modules-load.d/), or run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"
        case let .failed(path, reason):
            return "cannot make the desktop's copy of \(path): \(reason)"
        case let .writeFailed(node, reason):
            return "cannot write to \(node), the desktop's copy of the device: \(reason)"
        }
    }

    /// Putting the udev rule in place, from where this binary's install or checkout holds it.
    public static var copyRule: String {
        guard let rule = InstalledFiles.example("udev/70-gesturemap.rules") else {
            return "copy examples/udev/70-gesturemap.rules from gesturemap's source to /etc/udev/rules.d/ and run sudo udevadm trigger"
        }
        return "sudo cp \(rule) /etc/udev/rules.d/ && sudo udevadm trigger"
    }
}
