#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file operations the author tools need, on paths as people type them.
public enum FileSystem {
    public enum Kind { case missing, file, directory, other }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// What a path is, whatever it is called: device and inode.
    public struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    public static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The names in a directory, sorted, without `.` and `..`; nil if it cannot be read.
    public static func entries(of directory: String) -> [String]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A regular file's bytes, up to `limit`, or the reason it cannot be read.
    /// Opened without waiting, so a FIFO in its place is refused, not waited on.
    public static func read(_ path: String, limit: Int) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(FileError(path: path, errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileError(path: path, errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(FileError(path: path, detail: "not a regular file (\(describe(mode: info.st_mode)))"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: path, errno: errno))
            }
            if n == 0 { return .success(bytes) }
            guard bytes.count + n <= limit else {
                return .failure(FileError(path: path, detail: "larger than \(describe(bytes: limit))"))
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }

    /// `DIR/.NAME.XXXXXX` for mkstemp, NUL-terminated. The name is cut (at a
    /// character's start) so that the temporary one fits in NAME_MAX too: a
    /// target whose own name is 254 bytes long is writable, so its
    /// temporary file must be as well.
    static func temporaryTemplate(directory: String, name: String) -> [CChar] {
        let nameMax = 255
        let room = nameMax - ".".utf8.count - ".XXXXXX".utf8.count
        var kept = Array(name.utf8)
        if kept.count > room {
            var cut = room
            // Not inside a character: UTF-8 continuation bytes are 0b10xxxxxx.
            while cut > 0, kept[cut] & 0xC0 == 0x80 { cut -= 1 }
            kept.removeSubrange(cut...)
        }
        let bytes = Array(directory.utf8) + Array("/.".utf8) + kept + Array(".XXXXXX".utf8) + [0]
        return bytes.map { CChar(bitPattern: $0) }
    }

    /// Replaces a file's contents all at once: a temporary file beside it,
    /// renamed over it. The temporary file is made by mkstemp (a new name,
    /// O_EXCL, never through a link someone planted), gets the mode the target
    /// had (or a new file's, under the umask), and is removed if anything fails.
    /// A link at `path` is itself replaced, never the file it points to.
    public static func replace(_ path: String, with bytes: [UInt8]) -> FileError? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = temporaryTemplate(directory: directory, name: name)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { return FileError(path: path, errno: errno) }
        let temporary = template
        func fail(_ code: Int32) -> FileError {
            close(fd)
            unlink(temporary)
            return FileError(path: path, errno: code)
        }
        var info = stat()
        let mode: mode_t
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        guard fchmod(fd, mode) == 0 else { return fail(errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return fail(errno)
            }
            offset += n
        }
        guard close(fd) == 0 else {
            let error = FileError(path: path, errno: errno)
            unlink(temporary)
            return error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileError(path: path, errno: errno)
            unlink(temporary)
            return error
        }
        return nil
    }
}

public struct FileError: Error, Sendable {
    public var path: String
    public var errno: Int32
    /// What is wrong when no errno says it (a FIFO, a file past its limit).
    public var detail: String?

    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }

    public init(path: String, detail: String) {
        self.path = path
        errno = 0
        self.detail = detail
    }

    public var message: String { "\(path): \(detail ?? String(cString: strerror(errno)))" }
}
