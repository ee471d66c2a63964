import Glibc
import CEvdev
import GestureSystem

/// What the system knows of a live device's size when the kernel gives no
/// resolution: the udev database's libinput hints, and for a touchscreen the
/// physical size of the display it drives. Both are read where the udev
/// database says (`UdevDatabase`: its roots move for tests' fake trees).
public struct DeviceSizeProbe: Sendable {
    /// udev's database, and the sysfs mount it finds devices through: displays
    /// are its `class/drm/card*-*` with `status` and `edid`.
    public var udev: UdevDatabase

    public init(udev: UdevDatabase = UdevDatabase()) {
        self.udev = udev
    }

    private var sysfs: String { udev.sysfs }

    /// Hints for the device open on `fd`, in the order they apply. Empty when
    /// the kernel gives a resolution: nothing needs to stand in for it.
    public func hints(fd: Int32, description: EvdevDescription) -> [SizeHint] {
        let info = description.deviceInfo
        if (info.x.resolution ?? 0) > 0 && (info.y.resolution ?? 0) > 0 { return [] }
        var hints: [SizeHint] = []
        var major: UInt32 = 0
        var minor: UInt32 = 0
        if gm_device_number(fd, &major, &minor) >= 0 {
            hints += udevHints(major: major, minor: minor)
        }
        if description.isTouchscreen, let display = displayHint() { hints.append(display) }
        return hints
    }

    // MARK: udev

    /// `LIBINPUT_ATTR_RESOLUTION_HINT=XxY` (units/mm), then
    /// `LIBINPUT_ATTR_SIZE_HINT=WxH` (mm), from the device's udev database entry.
    public func udevHints(major: UInt32, minor: UInt32) -> [SizeHint] {
        guard let entry = udev.entry(major: major, minor: minor) else { return [] }
        var resolution: SizeHint?
        var size: SizeHint?
        for key in ["LIBINPUT_ATTR_RESOLUTION_HINT", "LIBINPUT_ATTR_SIZE_HINT"] {
            guard let value = entry.properties[key], let (a, b) = Self.pair(value) else { continue }
            if key == "LIBINPUT_ATTR_RESOLUTION_HINT" {
                resolution = SizeHint(.unitsPerMillimetre(x: a, y: b), from: .udev(property: key, value: value))
            } else {
                size = SizeHint(.millimetres(width: a, height: b), from: .udev(property: key, value: value))
            }
        }
        return [resolution, size].compactMap { $0 }
    }

    /// "100x60", "40.5x30": two positive numbers; nil for anything else.
    static func pair(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = plainNumber(parts[0]), let b = plainNumber(parts[1]),
              a > 0, b > 0, a <= InputLimits.maxMillimetres, b <= InputLimits.maxMillimetres else { return nil }
        return (a, b)
    }

    private static func plainNumber(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }) else { return nil }
        return Double(text)
    }

    // MARK: Displays

    /// The display a touchscreen most likely covers: the one connected display
    /// with a size, or among several the one built-in panel (eDP, LVDS, DSI).
    /// Nil when there is none, or several and no way to tell.
    public func displayHint() -> SizeHint? {
        let drm = sysfs + "/class/drm"
        var found: [(connector: String, size: (width: Double, height: Double))] = []
        for name in directoryEntries(drm) where name.hasPrefix("card") && name.contains("-") {
            guard let status = readSmallFile(drm + "/" + name + "/status"),
                  String(decoding: status, as: UTF8.self).hasPrefix("connected"),
                  let edid = readSmallFile(drm + "/" + name + "/edid"),
                  let size = Self.edidSize(edid) else { continue }
            found.append((name, size))
        }
        let panels = found.filter { $0.connector.contains("-eDP-") || $0.connector.contains("-LVDS-") || $0.connector.contains("-DSI-") }
        guard let chosen = found.count == 1 ? found.first : panels.count == 1 ? panels.first : nil else { return nil }
        return SizeHint(.millimetres(width: chosen.size.width, height: chosen.size.height), from: .display(connector: chosen.connector))
    }

    /// The image size an EDID states: the first detailed timing descriptor's
    /// millimetres when they agree with the basic block's centimetres (bytes
    /// 21-22), else the centimetres. Nil when the EDID is not one, its checksum
    /// fails, or the size is undefined (0, as projectors give) or an aspect ratio.
    public static func edidSize(_ edid: [UInt8]) -> (width: Double, height: Double)? {
        guard edid.count >= 128, Array(edid[0..<8]) == [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00] else { return nil }
        var sum = 0
        for b in edid[0..<128] { sum += Int(b) }
        guard sum % 256 == 0 else { return nil }
        let cmWidth = Double(edid[21])
        let cmHeight = Double(edid[22])
        // EDID 1.4: one of them 0 means the other holds an aspect ratio, not a size.
        guard cmWidth > 0, cmHeight > 0 else { return nil }
        let pixelClock = Int(edid[54]) | Int(edid[55]) << 8
        if pixelClock != 0 {
            let mmWidth = Double(Int(edid[66]) | Int(edid[68] >> 4) << 8)
            let mmHeight = Double(Int(edid[67]) | Int(edid[68] & 0x0F) << 8)
            // Some panels put the aspect ratio (16 x 9) here; trust it only near the centimetres.
            if abs(mmWidth - cmWidth * 10) <= 10, abs(mmHeight - cmHeight * 10) <= 10 { return (mmWidth, mmHeight) }
        }
        return (cmWidth * 10, cmHeight * 10)
    }

    // MARK: Files

    /// A small file's bytes (sysfs and udev entries), or nil when it cannot be read.
    func readSmallFile(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        try? BoundedFile.read(path, limit: limit).get()
    }

    func directoryEntries(_ path: String) -> [String] {
        Directory.names(in: path) ?? []
    }
}
