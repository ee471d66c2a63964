#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ScriptRuntime {
    /// Where the loaded rules (the rules file and the modules it required)
    /// first call global `name` directly, found by reading their text.
    public func firstCall(ofGlobal name: String) -> (file: String, line: Int)? {
        for file in sourceFiles {
            guard let text = RuleText.read(file), let line = CallScanner.firstCall(of: name, in: text) else { continue }
            return (file, line)
        }
        return nil
    }
}

/// A rules file's bytes, read again after Lua loaded it: only a regular file,
/// without waiting (it may have been replaced by a FIFO since), and only as
/// much as a rules file can sensibly be.
enum RuleText {
    static let limit = 16 << 20

    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
