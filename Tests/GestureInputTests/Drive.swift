import GestureCore
import GestureInput

/// Feeds `bytes` to `decoder` in chunks of `chunk` bytes (all at once when nil),
/// then finishes it.
func drive<D: TouchDecoder>(_ decoder: inout D, _ bytes: [UInt8], chunk: Int?) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    bytes.withUnsafeBytes { all in
        let size = max(1, chunk ?? all.count)
        var start = 0
        while start < all.count {
            let end = min(all.count, start + size)
            decoder.feed(UnsafeRawBufferPointer(rebasing: all[start..<end])) { frames.append($0) }
            start = end
        }
    }
    decoder.finish { frames.append($0) }
    return frames
}
