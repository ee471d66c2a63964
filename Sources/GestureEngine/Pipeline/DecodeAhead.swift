import GestureCore
import GestureInput
import GestureSystem
import Synchronization

/// A regular file read and decoded on a second thread while the engine
/// handles the frames decoded before: a replay as fast as the file allows then
/// takes as long as the longer of the two halves, not their sum.
///
/// The decoder belongs to the thread from `start()` to `finish()`; the engine
/// sees only what each chunk gave, in `DecodedChunk`s, in order. Nothing the
/// rules run can reach the decoder, so what a replay does is the same as when
/// one thread does both (same frames, lines, messages, and their order).
// Invariant: from start() to finish() only the decoding thread touches `decoding`; the engine's thread touches only `handoff`, which is Sendable.
final class DecodeAhead: ChunkProducer, @unchecked Sendable {
    private let decoding: ChunkDecoding
    private let handoff: ChunkHandoff
    private var thread: SystemThread?

    private init(_ decoding: ChunkDecoding, handoff: ChunkHandoff) {
        self.decoding = decoding
        self.handoff = handoff
    }

    /// Nil when no thread (or no pipe to wake it) could be made: the caller decodes on its own.
    static func started(_ decoding: ChunkDecoding) -> DecodeAhead? {
        guard let handoff = ChunkHandoff(capacity: 6, resumeAt: 2) else { return nil }
        let ahead = DecodeAhead(decoding, handoff: handoff)
        guard let thread = SystemThread({ ahead.decodeAll() }) else { return nil }
        ahead.thread = thread
        return ahead
    }

    func next() -> DecodedChunk { handoff.take() }

    func recycle(_ chunk: DecodedChunk) { handoff.recycle(chunk) }

    /// Stops the thread (at once if the run ended early) and waits for it:
    /// the decoder is the engine's again.
    func finish() {
        guard let thread else { return }
        self.thread = nil
        handoff.close()
        thread.join()
    }

    private func decodeAll() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkDecoding.readSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            // A chunk full before the read is decoded is handed on, and the
            // read goes on in the next (`DecodedChunk.storageBudget`).
            let last = decoding.decodeRead(into: handoff.blank(), buffer: buffer) { [handoff] full in
                handoff.put(full) ? handoff.blank() : nil
            }
            guard let last else { return }
            guard handoff.put(last), !last.end else { return }
        }
    }
}

/// The two threads' meeting point: `HandoffState` under a `Mutex`, and a
/// wakeup pipe for each side to wait on when the state says wait. A side
/// waits only after the state noted it waiting, and the other side signals
/// only a side so noted: a signal that comes between the two finds the pipe,
/// which keeps it, so no wakeup is lost.
final class ChunkHandoff: Sendable {
    private let state: Mutex<HandoffState<DecodedChunk>>
    private let producerMayGo: Wakeup
    private let consumerMayGo: Wakeup

    /// Nil when the system would not make the pipes.
    init?(capacity: Int, resumeAt: Int) {
        guard let producerMayGo = Wakeup(), let consumerMayGo = Wakeup() else { return nil }
        self.producerMayGo = producerMayGo
        self.consumerMayGo = consumerMayGo
        state = Mutex(HandoffState(capacity: capacity, resumeAt: resumeAt))
    }

    /// Storage to fill: a spare chunk, cleared, or a new one.
    func blank() -> DecodedChunk {
        let chunk = state.withLock { $0.reuse() } ?? DecodedChunk()
        chunk.clear()
        return chunk
    }

    /// False once the engine stopped taking chunks.
    func put(_ chunk: DecodedChunk) -> Bool {
        while true {
            switch state.withLock({ $0.put(chunk) }) {
            case .stored(let wake):
                if wake { consumerMayGo.signal() }
                return true
            case .wait:
                producerMayGo.wait()
            case .refused:
                return false
            }
        }
    }

    func take() -> DecodedChunk {
        while true {
            switch state.withLock({ $0.take() }) {
            case .item(let chunk, let wake):
                if wake { producerMayGo.signal() }
                return chunk
            case .wait:
                consumerMayGo.wait()
            }
        }
    }

    func recycle(_ chunk: DecodedChunk) {
        state.withLock { $0.recycle(chunk) }
    }

    func close() {
        // A producer noted waiting (or about to wait) is woken to see the state closed.
        if state.withLock({ $0.close() }) { producerMayGo.signal() }
    }
}
