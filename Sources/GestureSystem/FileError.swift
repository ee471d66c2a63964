import Glibc

/// Why a file could not be read or written.
public struct FileError: Error, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// A call failed with this errno.
        case system(Int32)
        /// Only regular files are read: a FIFO would be waited on, a device read for ever.
        case notRegular(FileKind)
        /// Larger than the reader takes; nothing of it was used.
        case tooLarge(limit: Int)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public init(path: String, errno code: Int32) {
        self.init(path: path, .system(code))
    }

    /// The errno when a call failed; 0 otherwise.
    public var errno: Int32 {
        if case .system(let code) = reason { return code }
        return 0
    }

    /// `PATH: REASON`, as messages give it.
    public var message: String { "\(path): \(reasonText)" }

    public var reasonText: String {
        switch reason {
        case .system(let code): return String(cString: strerror(code))
        case .notRegular(let kind): return "not a regular file (\(kind))"
        case .tooLarge(let limit): return "larger than \(Self.describe(bytes: limit))"
        }
    }

    public static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
