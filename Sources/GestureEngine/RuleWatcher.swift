#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the rules file and its required modules with inotify. Editors often
/// save by writing a new file and renaming it over the old one, so the watch is
/// on each file's directory, filtered by name.
final class RuleWatcher {
    let fd: Int32
    private var watched: [Int32: (directory: String, names: Set<String>)] = [:]
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init?() {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Watches exactly these files from now on.
    func watch(_ files: [String]) {
        for wd in watched.keys { inotify_rm_watch(fd, wd) }
        watched.removeAll()
        var byDirectory: [String: Set<String>] = [:]
        for file in files {
            let (dir, name) = split(file)
            byDirectory[dir, default: []].insert(name)
        }
        for (dir, names) in byDirectory {
            let wd = inotify_add_watch(fd, dir, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE))
            if wd >= 0 { watched[wd] = (dir, names) }
        }
    }

    /// Whether a watched file changed since the last call.
    func changed() -> Bool {
        var hit = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= n {
                let wd = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let length = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + Int(length), n)
                let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                if watched[wd]?.names.contains(name) == true { hit = true }
                offset = nameEnd
            }
        }
        return hit
    }

    private func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }
}
