#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes whole lines to a file descriptor, each with one `write(2)` so lines
/// from gesturemap never interleave with others on a shared pipe.
///
/// Where emitted lines go: stdout in a run, a recording in tests.
public protocol LineSink: AnyObject {
    func write(line: String)
}

/// Line-buffered by contract: a line is out before the next gesture is read.
public final class LineWriter: LineSink {
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// Set once a write fails (a closed pipe): later lines are dropped quietly.
    public private(set) var broken = false

    public init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func write(line: String) {
        var copy = line
        copy.withUTF8 { write(line: $0) }
    }

    public func write(line bytes: UnsafeBufferPointer<UInt8>) {
        guard !broken else { return }
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        flush()
    }

    /// Bytes that are already whole lines (synth's and record's output).
    public func write(bytes: [UInt8]) {
        guard !broken else { return }
        buffer.append(contentsOf: bytes)
        flush()
    }

    public func flush() {
        guard !buffer.isEmpty, !broken else { return }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    broken = true
                    return
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
