import Glibc

/// What a path is, as stat(2) says, in the words messages use.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    public var description: String {
        switch self {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .fifo: return "a FIFO"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a file"
        }
    }
}
