import CLibevdev

/// A shared device's copy for the desktop: a uinput device made like it (name,
/// ids, properties, axes: a `UinputDevice` from the device's own libevdev),
/// which the desktop reads while gesturemap holds the device itself. The kernel removes it when its descriptor closes, however
/// gesturemap ends, and ends whatever contacts and keys it held.
public final class DeviceClone {
    private let device: UinputDevice
    /// Its /dev/input/eventN.
    public var node: String? { device.node }

    /// What the clone's phys (sysfs's `phys`, libevdev_get_phys) starts with,
    /// the original's node after it: so anyone can tell gesturemap's clones from
    /// the devices they copy, which have the same name and ids.
    public static let physPrefix = "gesturemap-clone-of:"

    /// A clone of `device`, which must be reading (`beginReading()`): made from
    /// the reader's libevdev, through `uinput`.
    public init(of device: InputDevice, uinput: String) throws(UinputAccessError) {
        let user = UinputUser.share(device: device.path)
        guard let evdev = device.libevdev else { throw .failed(user, uinput: uinput, reason: "it is not being read") }
        // libinput's udev rule moved the device's fuzz into LIBINPUT_FUZZ_* and set the
        // kernel's to 0: the clone gets it back, and the same rule moves it again there.
        for (code, fuzz) in DeviceClone.libinputFuzz(of: device.path) where libevdev_has_event_code(evdev, UInt32(EV_ABS), UInt32(code)) != 0 {
            libevdev_set_abs_fuzz(evdev, UInt32(code), fuzz)
        }
        self.device = try UinputDevice(copying: evdev, phys: DeviceClone.physPrefix + device.path, uinput: uinput, user: user)
    }

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
    public func write(_ events: [EvdevEvent]) throws(UinputAccessError) {
        try device.write(events)
    }
}
