#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Messages for people, on stderr, unbuffered: stdout carries only JSON lines.
public final class Console: @unchecked Sendable {
    public let fd: Int32
    /// Tests capture messages here instead of writing them.
    public var capture: ((String) -> Void)?

    public init(fd: Int32 = 2) {
        self.fd = fd
    }

    public func say(_ message: String) {
        if let capture {
            capture(message)
            return
        }
        var line = message
        line.append("\n")
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
