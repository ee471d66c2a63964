import Glibc

/// A non-blocking inotify descriptor and the records it has queued: the part
/// the device watcher and the rules watcher share.
final class InotifyQueue {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init?() {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Every record queued since the last call: the watch it came from and the
    /// name of the file it is about (empty for the watched path itself).
    func drain() -> [(watch: Int32, name: String)] {
        var records: [(watch: Int32, name: String)] = []
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
                records.append((wd, String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)))
                offset = nameEnd
            }
        }
        return records
    }
}
