#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore
import GestureInput

/// A regular file read and decoded on a second thread while the engine
/// handles the frames decoded before: a replay as fast as the file allows then
/// takes as long as the longer of the two halves, not their sum.
///
/// The decoder belongs to the thread from `start()` to `finish()`; the engine
/// sees only what each chunk gave, in `DecodedChunk`s, in order. Nothing the
/// rules run can reach the decoder, so what a replay does is the same as when
/// one thread does both (same frames, lines, messages, and their order).
// Invariant: from start() to finish() only the decoding thread touches `source` and `file`; the engine's thread touches only `handoff`, which locks.
final class DecodeAhead: @unchecked Sendable {
    private let source: Source
    private let file: InputFile
    private let verbose: Bool
    private let devices: DeviceDirectory
    private let handoff = ChunkHandoff(capacity: 6, resumeAt: 2)
    private var thread = pthread_t()
    private var running = false

    init(source: Source, file: InputFile, verbose: Bool, devices: DeviceDirectory) {
        self.source = source
        self.file = file
        self.verbose = verbose
        self.devices = devices
    }

    /// False when no thread could be made: the caller decodes as before.
    func start() -> Bool {
        devices.beginJournal()
        let retained = Unmanaged.passRetained(self)
        let made = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<DecodeAhead>.fromOpaque(raw).takeRetainedValue().decodeAll()
            return nil
        }, retained.toOpaque())
        if made != 0 {
            retained.release()
            devices.endJournal()
            return false
        }
        running = true
        return true
    }

    /// The next chunk's frames and what came with them; the last has `end` set.
    func next() -> DecodedChunk { handoff.take() }

    /// Gives a chunk's storage back to be filled again.
    func recycle(_ chunk: DecodedChunk) { handoff.recycle(chunk) }

    /// Stops the thread (at once if the run ended early) and waits for it:
    /// the decoder is the engine's again.
    func finish() {
        guard running else { return }
        running = false
        handoff.close()
        pthread_join(thread, nil)
        devices.endJournal()
    }

    private func decodeAll() {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            var chunk = handoff.blank()
            var stopped = false
            // A chunk full before the read is decoded is handed on, and the
            // read goes on in the next (`DecodedChunk.storageBudget`).
            let add = { (frame: TouchFrame) in
                chunk.append(frame, names: self.devices)
                guard chunk.isFull, !stopped else { return }
                chunk.endsRead = false
                if self.handoff.put(chunk) { chunk = self.handoff.blank() } else { stopped = true }
            }
            let read = file.read(into: buffer)
            if let n = read, n > 0 {
                chunk.startsRead = true
                source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), emit: add)
                chunk.bytes = n
            } else if read == nil {
                chunk.readError = file.lastErrorDescription
                chunk.end = true
            } else {
                source.decoder.finish(emit: add)
                chunk.end = true
            }
            if stopped { return }
            chunk.closeNames(devices)
            chunk.diagnostics = source.decoder.diagnostics
            source.decoder.diagnostics.removeAll()
            chunk.errorCount = source.decoder.errorCount
            chunk.eventCount = source.decoder.eventCount
            chunk.announcement = Engine.announcement(of: source, verbose: verbose, atEnd: chunk.end)
            let end = chunk.end
            guard handoff.put(chunk), !end else { return }
        }
    }
}

/// The two threads' meeting point: a few chunks in flight, their storage
/// reused. The decoding thread waits when the engine is `capacity` chunks
/// behind, and is woken only once the engine is down to `resumeAt`: a wakeup
/// a chunk cost more than a tenth of the replay in the scheduler.
// Invariant: every stored property but the lets is read and written with `lock` held.
final class ChunkHandoff: @unchecked Sendable {
    private let capacity: Int
    private let resumeAt: Int
    private var ready: [DecodedChunk] = []
    private var spare: [DecodedChunk] = []
    private var closed = false
    private var producerWaits = false
    private var consumerWaits = false
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let producerMayGo = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let consumerMayGo = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int, resumeAt: Int) {
        self.capacity = capacity
        self.resumeAt = resumeAt
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
        let chunk = locked { spare.popLast() } ?? DecodedChunk()
        chunk.clear()
        return chunk
    }

    /// False once the engine stopped taking chunks.
    func put(_ chunk: DecodedChunk) -> Bool {
        locked {
            while ready.count >= capacity && !closed {
                producerWaits = true
                pthread_cond_wait(producerMayGo, lock)
            }
            guard !closed else { return false }
            ready.append(chunk)
            if consumerWaits {
                consumerWaits = false
                pthread_cond_signal(consumerMayGo)
            }
            return true
        }
    }

    func take() -> DecodedChunk {
        locked {
            while ready.isEmpty {
                consumerWaits = true
                pthread_cond_wait(consumerMayGo, lock)
            }
            let chunk = ready.removeFirst()
            if producerWaits, ready.count <= resumeAt {
                producerWaits = false
                pthread_cond_signal(producerMayGo)
            }
            return chunk
        }
    }

    func recycle(_ chunk: DecodedChunk) {
        locked { if spare.count < capacity + 1 { spare.append(chunk) } }
    }

    func close() {
        locked {
            closed = true
            ready.removeAll()
            producerWaits = false
            pthread_cond_signal(producerMayGo)
        }
    }
}
