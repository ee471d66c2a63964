import Glibc

/// A regular file read whole, up to a limit: the one way gesturemap reads a
/// file it did not open as input (shapes, expectations, rules read again,
/// tablet descriptions). Opened without waiting, so a FIFO in its place is
/// refused, never waited on; past the limit it is refused, never cut.
/// Standard input (`import -`) is read the same way, whatever it is.
public enum BoundedFile {
    public static func read(_ path: String, limit: Int) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(FileError(path: path, errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileError(path: path, errno: errno)) }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else { return .failure(FileError(path: path, .notRegular(kind))) }
        return readToEnd(fd, named: path, limit: limit)
    }

    /// Standard input, to its end, up to a limit.
    public static func readStandardInput(limit: Int) -> Result<[UInt8], FileError> {
        readToEnd(0, named: "stdin", limit: limit)
    }

    private static func readToEnd(_ fd: Int32, named path: String, limit: Int) -> Result<[UInt8], FileError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: path, errno: errno))
            }
            if n == 0 { return .success(bytes) }
            guard bytes.count + n <= limit else { return .failure(FileError(path: path, .tooLarge(limit: limit))) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
