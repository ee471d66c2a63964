import Glibc

/// What standard input is, for a run that names no input. Only something
/// that carries bytes someone sent counts as input: a pipe, a FIFO, a socket
/// or a file. A character device does not: systemd gives a service
/// /dev/null, and a terminal is a person, not a recording.
public enum StandardInput: Equatable, Sendable {
    case pipe
    case socket
    case file
    /// An input device node (`run < /dev/input/event3`): read as that device.
    case inputDevice(String)
    /// /dev/null, a terminal, or another character device, by name when known.
    case characterDevice(String)
    /// Closed, or nothing fstat can describe.
    case none

    public static func inspect(_ fd: Int32 = 0) -> StandardInput {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .none }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return .pipe
        case S_IFSOCK: return .socket
        case S_IFREG: return .file
        case S_IFCHR:
            if isatty(fd) == 1 { return .characterDevice("a terminal") }
            guard let name = linkTarget(fd) else { return .characterDevice("a character device") }
            return name.hasPrefix("/dev/input/event") ? .inputDevice(name) : .characterDevice(name)
        default: return .none
        }
    }

    /// Read as the run's input.
    public var carriesEvents: Bool {
        switch self {
        case .pipe, .socket, .file, .inputDevice: return true
        case .characterDevice, .none: return false
        }
    }

    /// For `-v`: what it is and what the run does with it.
    public var choice: String {
        switch self {
        case .pipe: return "standard input is a pipe: reading events from it (name an input to read something else)"
        case .socket: return "standard input is a socket: reading events from it (name an input to read something else)"
        case .file: return "standard input is a file: reading events from it (name an input to read something else)"
        case .inputDevice(let path): return "standard input is the input device \(path): reading it as a live device"
        case .characterDevice(let name): return "standard input is \(name), not events: reading the touch devices"
        case .none: return "standard input is closed: reading the touch devices"
        }
    }

    private static func linkTarget(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
