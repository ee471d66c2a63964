import Glibc

/// The secret in the page's URL: 128 random bits from the kernel, as 32 hex
/// digits. Whoever has the URL may touch; nobody else gets a byte.
public struct PairingToken: Sendable, Equatable {
    public let text: String

    public init(text: String) {
        self.text = text
    }

    /// 16 bytes from /dev/urandom, the kernel's generator; nil if it cannot be read.
    public static func random() -> PairingToken? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(fd, $0 + filled, buffer.count - filled) } ?? -1
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for b in bytes {
            hex.append(digits[Int(b >> 4)])
            hex.append(digits[Int(b & 15)])
        }
        return PairingToken(text: String(decoding: hex, as: UTF8.self))
    }

    /// Compares in time that does not depend on where they differ, so the
    /// token cannot be guessed a digit at a time over the network.
    public func matches(_ candidate: Substring?) -> Bool {
        guard let candidate else { return false }
        let a = Array(text.utf8)
        let b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
