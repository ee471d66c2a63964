import Glibc

/// A byte source: a regular file, a pipe, a FIFO or a character device, read
/// through one path so device code is exercised by files in tests.
public final class InputFile {
    public let name: String
    public let fd: Int32
    public let isRegularFile: Bool
    private let ownsDescriptor: Bool

    public enum OpenError: Error, Equatable {
        case notFound(String)
        case permissionDenied(String)
        case other(String, String)

        public var message: String {
            switch self {
            case .notFound(let path): return "\(path): no such file; give a path to an NDJSON recording, or - for standard input"
            case .permissionDenied(let path): return "\(path): permission denied; check the file's permissions"
            case let .other(path, reason): return "\(path): cannot open: \(reason)"
            }
        }
    }

    /// Standard input.
    public init(standardInput: Void) {
        name = "<stdin>"
        fd = 0
        ownsDescriptor = false
        isRegularFile = InputFile.isRegular(0)
    }

    public init(path: String) throws(OpenError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .notFound(path)
            case EACCES, EPERM: throw .permissionDenied(path)
            default: throw .other(path, String(cString: strerror(code)))
            }
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .other(path, "it is a directory")
        }
        name = path
        fd = descriptor
        ownsDescriptor = true
        isRegularFile = InputFile.isRegular(descriptor)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    private static func isRegular(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A character device, such as /dev/input/event3.
    public static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }

    /// Reads up to `buffer.count` bytes; 0 at end of input, nil on an error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Whether more bytes can be read right now without waiting.
    public func hasDataReady() -> Bool {
        waitReadable(milliseconds: 0)
    }

    /// Waits up to `milliseconds` (-1: without limit) for bytes or end of input.
    public func waitReadable(milliseconds: Int32) -> Bool {
        if isRegularFile { return true }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&p, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n != 0
        }
    }

    public var lastErrorDescription: String { String(cString: strerror(errno)) }
}
