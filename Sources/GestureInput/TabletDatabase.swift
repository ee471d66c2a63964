import Glibc
import Synchronization
import GestureSystem

/// The physical size of graphics tablets from libwacom's database (Debian's
/// libwacom-common), looked up by bus and ids. Wacom's finger-touch devices
/// often give the kernel no resolution, and they are three times the size
/// libinput assumes for a touchpad, so a guess would make every stroke slow.
/// The files describe the model, so the lookup serves recordings as well as
/// live devices. Without the package installed, it finds nothing.
///
/// The database is hundreds of files and has no index by id: a lookup reads
/// nothing for another vendor's device, and for a Wacom one parses only the
/// files that name its product, stopping at the first that gives a size.
public final class TabletDatabase: Sendable {
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var width: Double
        public var height: Double
    }

    public let directories: [String]
    private let found = Mutex<[DeviceID: Entry?]>([:])
    private let parsed = Mutex(0)

    /// Where libwacom keeps its `.tablet` files; the first is moved by
    /// `GESTUREMAP_LIBWACOM_DATA` for tests.
    public static var directories: [String] {
        if let moved = getenv("GESTUREMAP_LIBWACOM_DATA") { return [String(cString: moved)] }
        return ["/etc/libwacom", "/usr/share/libwacom"]
    }

    public static let shared = TabletDatabase(directories: directories)

    public init(directories: [String]) {
        self.directories = directories
    }

    /// Wacom's own vendor id. Its tablets are products of one size each; other
    /// vendors' entries (N-Trig, Elan...) describe a digitizer built into
    /// laptops of many sizes, so their size is no better than a guess.
    public static let wacomVendor: UInt16 = 0x056A

    public func size(of id: DeviceID) -> Entry? {
        guard id.vendor == TabletDatabase.wacomVendor else { return nil }
        if let known = found.withLock({ $0[id] }) { return known }
        let entry = search(id)
        found.withLock { $0[id] = entry }
        return entry
    }

    /// Files parsed so far: a lookup's cost, for tests.
    public var filesParsed: Int { parsed.withLock { $0 } }

    private func search(_ id: DeviceID) -> Entry? {
        // DeviceMatch writes ids as four lowercase hex digits: a file that does
        // not hold "056a:0027" cannot describe product 0x0027.
        let needle = Array((TabletDatabase.hex4(id.vendor) + ":" + TabletDatabase.hex4(id.product)).utf8)
        for directory in directories {
            guard let names = Directory.names(in: directory)?.filter({ $0.hasSuffix(".tablet") }) else { continue }
            // Files named after the product (isdv4-e6.tablet) first: most often
            // the only one read.
            let product = "-" + String(id.product, radix: 16) + "."
            let ordered = names.sorted { ($0.contains(product) ? 0 : 1, $0) < ($1.contains(product) ? 0 : 1, $1) }
            for name in ordered {
                guard let bytes = TabletDatabase.read(directory + "/" + name), TabletDatabase.contains(bytes, needle) else { continue }
                parsed.withLock { $0 += 1 }
                let text = String(decoding: bytes, as: UTF8.self)
                if let match = TabletDatabase.parse(text).first(where: { $0.0 == id }) { return match.1 }
            }
        }
        return nil
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether `needle` (lowercase) is in `bytes`, ignoring the case of ASCII letters.
    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count)
        where needle.indices.allSatisfy({ lower(bytes[start + $0]) == needle[$0] }) {
            return true
        }
        return false
    }

    /// The `[Device]` section's `Name`, `DeviceMatch` (`usb:056a:0027;...`) and
    /// `Width`/`Height` in inches, as millimetres.
    static func parse(_ text: String) -> [(DeviceID, Entry)] {
        var section = ""
        var name = ""
        var matches: [DeviceID] = []
        var width = 0.0, height = 0.0
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingPrefix(" ")
            if line.hasPrefix("[") { section = String(line); continue }
            guard section == "[Device]", let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq]
            let value = String(line[line.index(after: eq)...])
            switch key {
            case "Name": name = value
            case "Width": width = Double(value) ?? 0
            case "Height": height = Double(value) ?? 0
            case "DeviceMatch": matches = value.split(separator: ";").compactMap(deviceID)
            default: break
            }
        }
        guard width > 0, height > 0, width < 100, height < 100 else { return [] }
        let entry = Entry(name: name, width: width * 25.4, height: height * 25.4)
        return matches.map { ($0, entry) }
    }

    /// `usb:056a:0027` (a fourth field, a device name, may follow).
    static func deviceID(_ match: Substring) -> DeviceID? {
        let parts = match.split(separator: ":")
        guard parts.count >= 3, let vendor = UInt16(parts[1], radix: 16), let product = UInt16(parts[2], radix: 16) else { return nil }
        let bus: UInt16
        switch parts[0] {
        case "usb": bus = 0x03
        case "bluetooth": bus = 0x05
        case "serial": bus = 0x13
        case "i2c": bus = 0x18
        default: return nil
        }
        return DeviceID(bus: bus, vendor: vendor, product: product)
    }

    /// A description file, read without waiting (never a FIFO); one past a
    /// MiB (they are a few hundred bytes) is no description.
    private static func read(_ path: String) -> [UInt8]? {
        try? BoundedFile.read(path, limit: 1 << 20).get()
    }
}
