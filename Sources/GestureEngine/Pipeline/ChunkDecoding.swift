import GestureCore
import GestureInput

/// One file's reads through its decoder, into chunks: what both producers
/// do, on whichever thread decodes.
struct ChunkDecoding {
    static let readSize = 1 << 16

    let source: Source
    let file: InputFile
    let verbose: Bool

    /// Reads once and decodes what came into `chunk`, with the decoder's news;
    /// at the file's end its last frames, `end` set. `handOn` takes a chunk
    /// past its budget in the middle of the read and gives the next to fill
    /// (nil: the consumer stopped); without it one chunk takes the whole read.
    /// The chunk that ends the read, or nil when the consumer stopped.
    func decodeRead(into first: DecodedChunk, buffer: UnsafeMutableRawBufferPointer,
                    handOn: ((DecodedChunk) -> DecodedChunk?)?) -> DecodedChunk? {
        var chunk = first
        var stopped = false
        let output = DecoderOutput(
            frame: { frame in
                chunk.append(frame)
                guard let handOn, chunk.isFull, !stopped else { return }
                chunk.endsRead = false
                if let next = handOn(chunk) { chunk = next } else { stopped = true }
            },
            deviceNamed: { chunk.appendName($1, device: $0) },
            mouse: { chunk.appendMouse($1, device: $0) })
        let read = file.read(into: buffer)
        if let n = read, n > 0 {
            chunk.startsRead = true
            source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: output)
            chunk.bytes = n
        } else if read == nil {
            chunk.readError = file.lastErrorDescription
            chunk.end = true
        } else {
            source.decoder.finish(into: output)
            chunk.end = true
        }
        if stopped { return nil }
        chunk.diagnostics = source.decoder.diagnostics
        source.decoder.diagnostics.removeAll()
        chunk.errorCount = source.decoder.errorCount
        chunk.eventCount = source.decoder.eventCount
        chunk.announcement = Engine.announcement(of: source, verbose: verbose, atEnd: chunk.end)
        return chunk
    }
}

/// Where a replay's chunks come from: decoded on a second thread, or on the
/// engine's own. The consumer is the same (`Session.replay`).
protocol ChunkProducer: AnyObject {
    /// The next chunk's frames and what came with them; the last has `end` set.
    func next() -> DecodedChunk
    /// Gives a chunk's storage back to be filled again.
    func recycle(_ chunk: DecodedChunk)
    /// The producer stops; the decoder is the engine's again.
    func finish()
}

/// Chunks decoded on the engine's own thread, a read at a time: for a paced
/// replay, a merged one, or where no second thread could be made.
final class InlineChunks: ChunkProducer {
    private let decoding: ChunkDecoding
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkDecoding.readSize, alignment: 16)
    private let chunk = DecodedChunk()

    init(_ decoding: ChunkDecoding) {
        self.decoding = decoding
    }

    deinit {
        buffer.deallocate()
    }

    func next() -> DecodedChunk {
        chunk.clear()
        // Without a hand-on, the read's frames all go in the one chunk.
        return decoding.decodeRead(into: chunk, buffer: buffer, handOn: nil) ?? chunk
    }

    func recycle(_ chunk: DecodedChunk) {}

    func finish() {}
}
