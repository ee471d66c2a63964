import Glibc

/// Where emitted lines go: stdout in a run, a recording in tests.
public protocol LineSink: AnyObject {
    func write(line: String)
    /// A line as UTF-8 bytes, without its newline.
    func write(line bytes: UnsafeBufferPointer<UInt8>)
    /// Why lines can no longer be written; nil while they can.
    var failure: OutputFailure? { get }
    /// A descriptor the event loop can poll (for nothing) to learn that the
    /// reader went away while no line is being written; nil when there is none.
    var hangupDescriptor: Int32? { get }
    /// Asks, without writing, whether the reader is still there.
    func checkReader()
    /// Whether lines may wait for `flush()`, for a replay that nobody waits
    /// on between its lines; turning it off writes what waits.
    func holdLines(_ hold: Bool)
    /// Writes every line that waits.
    func flush()
}

extension LineSink {
    public func write(line bytes: UnsafeBufferPointer<UInt8>) { write(line: String(decoding: bytes, as: UTF8.self)) }
    public var failure: OutputFailure? { nil }
    public var hangupDescriptor: Int32? { nil }
    public func checkReader() {}
    public func holdLines(_ hold: Bool) {}
    public func flush() {}
}

/// Why an output stopped taking lines.
public enum OutputFailure: Equatable, Sendable {
    /// The reader is gone (EPIPE): `gesturemap run | head -1`. A quiet stop.
    case readerGone
    /// Anything else (`ENOSPC`, `EIO`, `EBADF`...): reported, exit 74.
    case writeError(output: String, errno: Int32)

    /// What to tell people; nil for the quiet stop.
    public var message: String? {
        switch self {
        case .readerGone: return nil
        case .writeError(let output, let code):
            return "cannot write to \(output): \(String(cString: strerror(code)))"
        }
    }
}

/// Writes whole lines to a file descriptor, each with one `write(2)` so lines
/// from gesturemap never interleave with others on a shared pipe.
///
/// Line-buffered by contract: a line is out before the next gesture is read,
/// except in a replay of files read as fast as they can be (`holdLines`),
/// where lines wait for the end of the chunk of input that made them: one
/// `write(2)` a line cost more there than the rest of the line's handling.
/// A write of held lines stays within `PIPE_BUF`, so it is as atomic on a
/// shared pipe as one line is.
/// The first failed write ends the writer: later lines are dropped, and
/// `failure` says why, so the command can stop and choose its exit status.
public final class LineWriter: LineSink {
    public let fd: Int32
    /// How messages name the output: "standard output", or a file's path.
    public let name: String
    public private(set) var failure: OutputFailure?
    private var buffer: [UInt8] = []
    private var holding = false
    /// The most a write of held lines carries: what a pipe writes at once.
    static let heldBytes = Int(PIPE_BUF)

    public let hangupDescriptor: Int32?

    public var broken: Bool { failure != nil }

    public init(fd: Int32, name: String = "standard output") {
        self.fd = fd
        self.name = name
        // Only a descriptor open for writing now: a stdout closed at start
        // (`>&-`) may later be the number of an input, whose end is no hang-up.
        let flags = fcntl(fd, F_GETFL)
        hangupDescriptor = flags >= 0 && flags & O_ACCMODE != O_RDONLY ? fd : nil
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func write(line: String) {
        var copy = line
        copy.withUTF8 { write(line: $0) }
    }

    public func write(line bytes: UnsafeBufferPointer<UInt8>) {
        guard !broken else { return }
        if holding, !buffer.isEmpty, buffer.count + bytes.count + 1 > LineWriter.heldBytes { flush() }
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if !holding { flush() }
    }

    public func holdLines(_ hold: Bool) {
        holding = hold
        if !hold { flush() }
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
                if n > 0 {
                    offset += n
                    continue
                }
                let code = n < 0 ? errno : EIO
                switch code {
                case EINTR:
                    continue
                case EAGAIN:
                    // Someone made our stdout non-blocking (a shared file description):
                    // line-buffered output waits for room rather than losing a line.
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, -1)
                case EPIPE:
                    failure = .readerGone
                    return
                default:
                    failure = .writeError(output: name, errno: code)
                    return
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// A pipe whose reader closed polls POLLERR (a socket or terminal, POLLHUP)
    /// with no events asked for; a regular file or /dev/null never does.
    public func checkReader() {
        guard !broken else { return }
        var p = pollfd(fd: fd, events: 0, revents: 0)
        guard poll(&p, 1, 0) > 0 else { return }
        if p.revents & Int16(POLLNVAL) != 0 {
            failure = .writeError(output: name, errno: EBADF)
        } else if p.revents & Int16(POLLERR | POLLHUP) != 0 {
            failure = .readerGone
        }
    }

    /// Closes a file the writer owns; an error here (a full disk over NFS)
    /// is a failure like any other.
    public func close() {
        flush()
        if Glibc.close(fd) != 0, failure == nil, errno != EINTR {
            failure = .writeError(output: name, errno: errno)
        }
    }
}
