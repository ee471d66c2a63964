import GestureCore
import GestureInput

/// What one chunk of a file gave: its frames (headers, and their touches end
/// to end), the device names set before each, and the decoder's news.
///
/// Filled on the decoding thread, read on the engine's, then given back to be
/// filled again (`ChunkHandoff`). Frames and touches are kept in storage of its
/// own, written through pointers: an array's append checked its uniqueness and
/// capacity for every touch of every frame, on both threads.
///
/// A frame holds every contact down, so 64 KiB of input can make megabytes
/// of frames (64 contacts down, one moving per frame). A chunk is therefore
/// bounded by the bytes it stores, not by the input it came from: past
/// `storageBudget` it is handed on and the same read goes on in the next one
/// (`endsRead` false), so the chunks in flight and spare stay within a few
/// megabytes, whatever the input.
// Invariant: one thread at a time has a chunk (the decoding thread until it is put, the engine's from take to recycle), and ChunkHandoff's Mutex orders each passing.
final class DecodedChunk: @unchecked Sendable {
    /// Frames and touches one chunk stores before it is handed on.
    static let storageBudget = 256 << 10

    /// A frame's header, and where its touches end in `touches`.
    struct Entry: BitwiseCopyable {
        var header: TouchFrame.Header
        var touchesEnd: Int
    }

    private var entries = BitwiseBuffer<Entry>(capacity: 512)
    private var touches = BitwiseBuffer<Touch>(capacity: 2048)
    var frameCount: Int { entries.count }
    /// A device's name, set when the engine reaches frame `before`.
    private(set) var names: [(before: Int, device: Int, name: String)] = []
    /// A recorded mouse's events, each handled when the engine reaches frame `before`.
    private(set) var mouse: [(before: Int, device: Int, event: EvdevEvent)] = []
    var bytes = 0
    var diagnostics: [Diagnostic] = []
    var errorCount = 0
    var eventCount = 0
    var announcement: [String] = []
    var readError: String?
    var end = false
    /// The first chunk of a read: the engine looks at the focus before its frames.
    var startsRead = false
    /// False when the same read goes on in the next chunk: only the last
    /// carries the read's bytes, messages and news, as one read would.
    var endsRead = true

    /// Bytes of frames and touches stored.
    var storedBytes: Int { entries.bytes + touches.bytes }
    var isFull: Bool { storedBytes >= Self.storageBudget }

    init() {}

    deinit {
        entries.free()
        touches.free()
    }

    func clear() {
        entries.removeAll()
        touches.removeAll()
        names.removeAll(keepingCapacity: true)
        mouse.removeAll(keepingCapacity: true)
        bytes = 0
        diagnostics = []
        errorCount = 0
        eventCount = 0
        announcement = []
        readError = nil
        end = false
        startsRead = false
        endsRead = true
    }

    func append(_ frame: TouchFrame) {
        frame.touches.withUnsafeBufferPointer { touches.append(contentsOf: $0) }
        entries.append(Entry(header: frame.header, touchesEnd: touches.count))
    }

    /// A name the decoder gave: the engine takes it before the next frame.
    func appendName(_ name: String, device: Int) {
        names.append((frameCount, device, name))
    }

    /// A recorded mouse's event: the engine takes it before the next frame.
    func appendMouse(_ event: EvdevEvent, device: Int) {
        mouse.append((frameCount, device, event))
    }

    /// Frame `k`, its touches in `frame`'s own array (kept, so it is reused).
    func load(_ k: Int, into frame: inout TouchFrame) {
        precondition(k >= 0 && k < frameCount, "a chunk holds frames 0..<frameCount")
        let entry = entries[k]
        frame.take(entry.header)
        let start = k == 0 ? 0 : entries[k - 1].touchesEnd
        let count = entry.touchesEnd - start
        // Most frames hold as many touches as the one before: overwritten in
        // place, with no emptying and refilling of the array.
        if frame.touches.count > count {
            frame.touches.removeLast(frame.touches.count - count)
        } else if frame.touches.count < count {
            frame.touches.append(contentsOf: repeatElement(touches[start], count: count - frame.touches.count))
        }
        let from = touches.base + start
        frame.touches.withUnsafeMutableBufferPointer { into in
            for i in 0..<count { into[i] = from[i] }
        }
    }
}
