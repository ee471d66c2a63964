import Glibc
import GestureSystem

/// udev's database of devices: a `c<major>:<minor>` file per character device,
/// of `E:KEY=VALUE` properties and `G:`/`Q:` tags. One reader for every use
/// (size hints, libinput's fuzz, the uaccess tag), and one place that moves it
/// for tests (`GESTUREMAP_UDEV_DATA`, with `GESTUREMAP_SYSFS` for the device numbers).
public struct UdevDatabase: Sendable {
    /// The database's folder.
    public var root: String
    /// Where the sysfs `class/input/<name>/dev` files that give a node's numbers are.
    public var sysfs: String

    public init(root: String = UdevDatabase.defaultRoot, sysfs: String = UdevDatabase.defaultSysfs) {
        self.root = root
        self.sysfs = sysfs
    }

    public static var defaultRoot: String { environment("GESTUREMAP_UDEV_DATA") ?? "/run/udev/data" }
    public static var defaultSysfs: String { environment("GESTUREMAP_SYSFS") ?? "/sys" }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A device's entry, as udev wrote it.
    public struct Entry: Equatable, Sendable {
        /// `E:KEY=VALUE`, in the order written (a later key replaces an earlier one).
        public var properties: [String: String] = [:]
        /// `G:` and `Q:` lines: the tags.
        public var tags: Set<String> = []

        public init(text: String) {
            for line in text.split(separator: "\n") {
                if line.hasPrefix("E:") {
                    let entry = line.dropFirst(2)
                    guard let eq = entry.firstIndex(of: "=") else { continue }
                    properties[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
                } else if line.hasPrefix("G:") || line.hasPrefix("Q:") {
                    tags.insert(String(line.dropFirst(2)))
                }
            }
        }
    }

    /// The entry of the character device `major:minor`, or nil when udev has none.
    public func entry(major: UInt32, minor: UInt32) -> Entry? {
        entry(id: "\(major):\(minor)")
    }

    /// The entry of an input node (`/dev/input/event5`), found through sysfs; nil when none.
    public func entry(ofNode node: String) -> Entry? {
        let name = node.split(separator: "/").last.map(String.init) ?? node
        return entry(devFile: sysfs + "/class/input/\(name)/dev")
    }

    /// The entry of the device whose sysfs `dev` file ("13:69") is at `path`; nil when none.
    public func entry(devFile path: String) -> Entry? {
        guard case .success(let numbers) = BoundedFile.read(path, limit: 64) else { return nil }
        return entry(id: String(decoding: numbers.filter { $0 != 0x0A && $0 != 0x20 }, as: UTF8.self))
    }

    private func entry(id: String) -> Entry? {
        guard case .success(let data) = BoundedFile.read(root + "/c" + id, limit: 1 << 16) else { return nil }
        return Entry(text: String(decoding: data, as: UTF8.self))
    }
}
