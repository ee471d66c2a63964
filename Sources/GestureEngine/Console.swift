import Glibc

/// Messages for people, on stderr, unbuffered: stdout carries only JSON lines.
// Invariant: only the engine's loop thread says anything; other threads hand their messages to it.
public final class Console: @unchecked Sendable {
    public let fd: Int32
    /// Tests capture messages here instead of writing them.
    public var capture: ((String) -> Void)?
    /// Runs before a message is written: stdout's held lines go out first.
    var beforeMessage: (() -> Void)?

    public init(fd: Int32 = 2) {
        self.fd = fd
    }

    /// A line kept at the bottom of a terminal (a progress bar): messages are
    /// written above it, and it is cleared, not left behind, when it ends.
    private var statusLine: String?

    public func say(_ message: String) {
        beforeMessage?()
        if let capture {
            capture(message)
            return
        }
        var line = statusLine == nil ? "" : Console.clearLine
        line += message
        line.append("\n")
        if let statusLine { line += statusLine }
        writeAll(line)
    }

    /// Shows `text` as the status line, or clears it when nil.
    func status(_ text: String?) {
        guard capture == nil else { return }
        if text == nil && statusLine == nil { return }
        statusLine = text
        writeAll(Console.clearLine + (text ?? ""))
    }

    /// Carriage return, then erase to the end of the line.
    static let clearLine = "\r\u{1B}[K"

    /// The terminal's width, 80 when it cannot say.
    var columns: Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func writeAll(_ text: String) {
        var line = text
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
