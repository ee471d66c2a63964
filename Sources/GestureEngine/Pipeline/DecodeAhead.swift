import Glibc
import GestureCore
import GestureInput
import GestureSystem

/// A regular file read and decoded on a second thread while the engine
/// handles the frames decoded before: a replay as fast as the file allows then
/// takes as long as the longer of the two halves, not their sum.
///
/// The decoder belongs to the thread from `start()` to `finish()`; the engine
/// sees only what each chunk gave, in `DecodedChunk`s, in order. Nothing the
/// rules run can reach the decoder, so what a replay does is the same as when
/// one thread does both (same frames, lines, messages, and their order).
// Invariant: from start() to finish() only the decoding thread touches `decoding`; the engine's thread touches only `handoff`, which locks.
final class DecodeAhead: ChunkProducer, @unchecked Sendable {
    private let decoding: ChunkDecoding
    private let handoff = ChunkHandoff(capacity: 6, resumeAt: 2)
    private var thread: SystemThread?

    private init(_ decoding: ChunkDecoding) {
        self.decoding = decoding
    }

    /// Nil when no thread could be made: the caller decodes on its own.
    static func started(_ decoding: ChunkDecoding) -> DecodeAhead? {
        let ahead = DecodeAhead(decoding)
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

/// The two threads' meeting point: `HandoffState` under a lock, with a
/// condition for each side to wait on.
// Invariant: `state` is read and written only with `lock` held.
final class ChunkHandoff: @unchecked Sendable {
    private var state: HandoffState<DecodedChunk>
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let producerMayGo = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let consumerMayGo = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int, resumeAt: Int) {
        state = HandoffState(capacity: capacity, resumeAt: resumeAt)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(producerMayGo, nil)
        pthread_cond_init(consumerMayGo, nil)
    }

    deinit {
        pthread_cond_destroy(consumerMayGo)
        pthread_cond_destroy(producerMayGo)
        pthread_mutex_destroy(lock)
        consumerMayGo.deallocate()
        producerMayGo.deallocate()
        lock.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// Storage to fill: a spare chunk, cleared, or a new one.
    func blank() -> DecodedChunk {
        let chunk = locked { state.reuse() } ?? DecodedChunk()
        chunk.clear()
        return chunk
    }

    /// False once the engine stopped taking chunks.
    func put(_ chunk: DecodedChunk) -> Bool {
        locked {
            while true {
                switch state.put(chunk) {
                case .stored(let wake):
                    if wake { pthread_cond_signal(consumerMayGo) }
                    return true
                case .wait:
                    pthread_cond_wait(producerMayGo, lock)
                case .refused:
                    return false
                }
            }
        }
    }

    func take() -> DecodedChunk {
        locked {
            while true {
                switch state.take() {
                case .item(let chunk, let wake):
                    if wake { pthread_cond_signal(producerMayGo) }
                    return chunk
                case .wait:
                    pthread_cond_wait(consumerMayGo, lock)
                }
            }
        }
    }

    func recycle(_ chunk: DecodedChunk) {
        locked { state.recycle(chunk) }
    }

    func close() {
        locked {
            // Woken either way: a producer about to wait sees the state closed.
            _ = state.close()
            pthread_cond_signal(producerMayGo)
        }
    }
}
