import Glibc
import GestureCore

/// Messages for people, on stderr, unbuffered: stdout carries only JSON lines.
/// Every line for people goes out here, and here every terminal control in it
/// is written out (`TerminalText.escapedKeepingLines`), whatever outside text
/// it carries: a file's name, a config's line, a Lua error, an environment
/// variable. Only gesturemap's own drawings (`TerminalDrawing`) pass as they are.
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

    /// A message of gesturemap's own, after its name, as every one of them
    /// begins ("gesturemap: cannot open ...").
    public func note(_ message: String) {
        say(Self.name + message)
    }
    public static let name = "gesturemap: "

    public func say(_ message: String) {
        beforeMessage?()
        if let capture {
            capture(message)
            return
        }
        writeLine(TerminalText.escapedKeepingLines(message))
    }

    /// A line gesturemap drew itself, controls and all.
    public func say(_ drawing: TerminalDrawing) {
        beforeMessage?()
        if let capture {
            capture(drawing.text)
            return
        }
        writeLine(drawing.text)
    }

    /// Writes one line above the status line, if there is one.
    private func writeLine(_ message: String) {
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
        statusLine = text.map(TerminalText.escaped)
        writeAll(Console.clearLine + (statusLine ?? ""))
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
