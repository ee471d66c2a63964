#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the input device directory with inotify, so devices that appear (or
/// come back after an unplug) are picked up without a restart.
final class HotplugWatcher {
    let directory: String
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init?(directory: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        // IN_ATTRIB too: udev sets a node's permissions just after creating it.
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        self.directory = directory
        self.fd = fd
    }

    deinit { close(fd) }

    /// Paths of `event*` nodes that appeared or changed since the last call.
    func changedNodes() -> [String] {
        var paths: [String] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= n {
                let length = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + Int(length), n)
                let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                if name.hasPrefix("event"), !paths.contains(directory + "/" + name) { paths.append(directory + "/" + name) }
                offset = nameEnd
            }
        }
        return paths
    }
}
