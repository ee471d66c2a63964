#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The physical size of graphics tablets from libwacom's database (Debian's
/// libwacom-common), looked up by bus and ids. Wacom's finger-touch devices
/// often give the kernel no resolution, and they are three times the size
/// libinput assumes for a touchpad, so a guess would make every stroke slow.
/// The files describe the model, so the lookup serves recordings as well as
/// live devices. Without the package installed, it finds nothing.
public struct TabletDatabase: Sendable {
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var width: Double
        public var height: Double
    }

    public let entries: [DeviceID: Entry]

    /// Where libwacom keeps its `.tablet` files; the first is moved by
    /// `GESTUREMAP_LIBWACOM_DATA` for tests.
    public static var directories: [String] {
        if let moved = getenv("GESTUREMAP_LIBWACOM_DATA") { return [String(cString: moved)] }
        return ["/etc/libwacom", "/usr/share/libwacom"]
    }

    /// Read once, on first need.
    public static let shared = TabletDatabase(directories: directories)

    public init(directories: [String]) {
        var found: [DeviceID: Entry] = [:]
        for directory in directories {
            guard let handle = opendir(directory) else { continue }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".tablet") { names.append(name) }
            }
            closedir(handle)
            for name in names.sorted() {
                guard let text = TabletDatabase.read(directory + "/" + name) else { continue }
                for (id, entry) in TabletDatabase.parse(text) where found[id] == nil { found[id] = entry }
            }
        }
        entries = found
    }

    /// Wacom's own vendor id. Its tablets are products of one size each; other
    /// vendors' entries (N-Trig, Elan...) describe a digitizer built into
    /// laptops of many sizes, so their size is no better than a guess.
    public static let wacomVendor: UInt16 = 0x056A

    public func size(of id: DeviceID) -> Entry? {
        id.vendor == TabletDatabase.wacomVendor ? entries[id] : nil
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

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
