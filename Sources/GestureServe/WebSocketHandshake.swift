import CCrypto

/// RFC 6455 section 4.2.2: the server proves it read the client's key by
/// answering base64(SHA-1(key + the protocol's GUID)).
public enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    public static func accept(key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = input.withUnsafeBufferPointer { i in digest.withUnsafeMutableBufferPointer { d in SHA1(i.baseAddress, i.count, d.baseAddress) } }
        return base64(digest)
    }

    /// A key is 16 bytes in base64: 24 characters ending in "==".
    public static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        let alphabet = Set(base64Alphabet)
        return bytes.count == 24 && bytes[22] == 0x3d && bytes[23] == 0x3d && bytes[0..<22].allSatisfy { alphabet.contains($0) }
    }

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let b0 = bytes[i], b1 = n > 1 ? bytes[i + 1] : 0, b2 = n > 2 ? bytes[i + 2] : 0
            out.append(base64Alphabet[Int(b0 >> 2)])
            out.append(base64Alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(n > 1 ? base64Alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : 0x3d)
            out.append(n > 2 ? base64Alphabet[Int(b2 & 63)] : 0x3d)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
