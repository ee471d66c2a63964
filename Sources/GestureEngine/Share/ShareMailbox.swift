import GestureInput

/// The records a shared device's thread hands the engine, bounded. The desktop
/// never waits on the engine: the thread has put every record on the clone
/// before it gets here. When the engine falls `capacity` bytes behind (a
/// stdout nobody reads, a stalled machine), the reads are dropped for the
/// rules; once the engine has taken what waited, a SYN_DROPPED and the
/// device's state follow, as when the kernel's own buffer for a reader
/// overflows, and the engine cancels the touches that were in progress.
struct ShareMailbox {
    /// About 43,000 records: seconds of ten fingers at 200 Hz.
    static let capacity = 1 << 20

    enum Flow: Equatable {
        case flowing
        /// This many records were dropped since the engine fell behind.
        case dropping(records: Int)
    }

    private(set) var records: [UInt8] = []
    private(set) var flow = Flow.flowing
    /// A drop that ended (the state handed over) and was not said yet: its records.
    private(set) var unsaidDrop: Int?
    let capacity: Int

    init(capacity: Int = Self.capacity) {
        self.capacity = capacity
    }

    /// A read's records; `state` makes the device's state as records, when a drop ends.
    mutating func put(_ read: UnsafeRawBufferPointer, state: () -> [UInt8]) {
        let count = read.count / RawEventDecoder.recordSize
        switch flow {
        case .flowing:
            guard records.count + read.count <= capacity else {
                flow = .dropping(records: count)
                return
            }
            records.append(contentsOf: read)
        case .dropping(let dropped):
            guard records.isEmpty else {
                flow = .dropping(records: dropped + count)
                return
            }
            resume(state: state, dropped: dropped)
            records.append(contentsOf: read)
        }
    }

    /// The engine took what waited: a drop can end now, with nothing read since.
    mutating func resumeIfCaughtUp(state: () -> [UInt8]) {
        guard case .dropping(let dropped) = flow, records.isEmpty else { return }
        resume(state: state, dropped: dropped)
    }

    var isDropping: Bool { flow != .flowing }

    /// What the engine takes: the records, and the size of a drop that ended.
    mutating func take() -> (records: [UInt8], dropped: Int?) {
        defer {
            records.removeAll(keepingCapacity: true)
            unsaidDrop = nil
        }
        return (records, unsaidDrop)
    }

    private mutating func resume(state: () -> [UInt8], dropped: Int) {
        records += state()
        flow = .flowing
        unsaidDrop = (unsaidDrop ?? 0) + dropped
    }
}
