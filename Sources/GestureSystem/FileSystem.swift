import Glibc

/// The few file operations the author tools need, on paths as people type them.
public enum FileSystem {
    public enum Kind { case missing, file, directory, other }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// What a path is, whatever it is called: device and inode.
    public struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The path with every link and `..` resolved; nil when it does not exist.
    /// The one call of realpath(3), kept here (never inlined into another
    /// module): a module that also imports a C library's header (libyaml's
    /// includes stdlib.h) cannot name it in the package's fortified release
    /// build, where clang finds two bodies of it.
    @_semantics("optimize.no.crossmodule")
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `DIR/.NAME.XXXXXX` for mkstemp, NUL-terminated. The name is cut (at a
    /// character's start) so that the temporary one fits in NAME_MAX too: a
    /// target whose own name is 254 bytes long is writable, so its
    /// temporary file must be as well.
    public static func temporaryTemplate(directory: String, name: String) -> [CChar] {
        let nameMax = 255
        let room = nameMax - ".".utf8.count - ".XXXXXX".utf8.count
        var kept = Array(name.utf8)
        if kept.count > room {
            var cut = room
            // Not inside a character: UTF-8 continuation bytes are 0b10xxxxxx.
            while cut > 0, kept[cut] & 0xC0 == 0x80 { cut -= 1 }
            kept.removeSubrange(cut...)
        }
        let bytes = Array(directory.utf8) + Array("/.".utf8) + kept + Array(".XXXXXX".utf8) + [0]
        return bytes.map { CChar(bitPattern: $0) }
    }

    /// Replaces a file's contents all at once: a temporary file beside it,
    /// renamed over it. The temporary file is made by mkstemp (a new name,
    /// O_EXCL, never through a link someone planted), gets the mode the target
    /// had (or a new file's, under the umask), and is removed if anything fails.
    /// A link at `path` is itself replaced, never the file it points to.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = temporaryTemplate(directory: directory, name: name)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw FileError(path: path, errno: errno) }
        let temporary = template
        func fail(_ code: Int32) -> FileError {
            close(fd)
            unlink(temporary)
            return FileError(path: path, errno: code)
        }
        var info = stat()
        let mode: mode_t
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        guard fchmod(fd, mode) == 0 else { throw fail(errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail(errno)
            }
            offset += n
        }
        guard close(fd) == 0 else {
            let error = FileError(path: path, errno: errno)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileError(path: path, errno: errno)
            unlink(temporary)
            throw error
        }
    }
}
