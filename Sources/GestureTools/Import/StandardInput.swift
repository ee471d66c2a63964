import Glibc
import GestureSystem

/// Standard input read whole, up to a limit, for `import -`.
public enum StandardInput {
    public static func read(limit: Int) -> Result<[UInt8], FileError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: "stdin", errno: errno))
            }
            if n == 0 { return .success(bytes) }
            guard bytes.count + n <= limit else { return .failure(FileError(path: "stdin", .tooLarge(limit: limit))) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
