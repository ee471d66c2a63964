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

    /// A whole file's bytes, or the reason it cannot be read.
    public static func read(_ path: String) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileError(path: path, errno: errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: path, errno: errno))
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Replaces a file's contents all at once: a temporary file beside it, renamed over it.
    public static func replace(_ path: String, with bytes: [UInt8]) -> FileError? {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return FileError(path: temporary, errno: errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = FileError(path: path, errno: errno)
                close(fd)
                unlink(temporary)
                return error
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

    public var message: String { "\(path): \(String(cString: strerror(errno)))" }
}
