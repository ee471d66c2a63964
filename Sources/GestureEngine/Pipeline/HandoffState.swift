/// The decode-ahead hand-off as a state machine, with no threads and no
/// locks: what each side asks for, and what it must then do (wait, or wake
/// the other). `ChunkHandoff` runs it under a lock; tests run it alone.
///
/// The producer waits when the consumer is `capacity` items behind, and is
/// woken only once the consumer is down to `resumeAt`: a wakeup for each item
/// cost more than a tenth of a replay in the scheduler.
struct HandoffState<Item> {
    let capacity: Int
    let resumeAt: Int
    private var ready: [Item] = []
    private var spare: [Item] = []
    private var phase = Phase.running(waiting: .nobody)

    enum Waiting: Equatable { case nobody, producer, consumer }

    enum Phase: Equatable {
        case running(waiting: Waiting)
        /// The consumer stopped taking items: the producer stops too.
        case closed
    }

    enum Put: Equatable {
        /// Stored; `wakeConsumer` when the consumer waits for it.
        case stored(wakeConsumer: Bool)
        /// Full: the producer waits to be woken, then asks again.
        case wait
        /// The consumer stopped: nothing more is wanted.
        case refused
    }

    enum Take {
        case item(Item, wakeProducer: Bool)
        /// Nothing ready: the consumer waits to be woken, then asks again.
        case wait
    }

    init(capacity: Int, resumeAt: Int) {
        self.capacity = capacity
        self.resumeAt = resumeAt
    }

    var readyCount: Int { ready.count }

    mutating func put(_ item: Item) -> Put {
        guard case .running(let waiting) = phase else { return .refused }
        guard ready.count < capacity else {
            phase = .running(waiting: .producer)
            return .wait
        }
        ready.append(item)
        guard waiting == .consumer else { return .stored(wakeConsumer: false) }
        phase = .running(waiting: .nobody)
        return .stored(wakeConsumer: true)
    }

    mutating func take() -> Take {
        guard !ready.isEmpty else {
            if case .running = phase { phase = .running(waiting: .consumer) }
            return .wait
        }
        let item = ready.removeFirst()
        guard phase == .running(waiting: .producer), ready.count <= resumeAt else { return .item(item, wakeProducer: false) }
        phase = .running(waiting: .nobody)
        return .item(item, wakeProducer: true)
    }

    /// The consumer stops: what is ready is dropped; true when the producer
    /// waits and must be woken to see it.
    mutating func close() -> Bool {
        let wasWaiting = phase == .running(waiting: .producer)
        phase = .closed
        ready.removeAll()
        return wasWaiting
    }

    /// An item given back for reuse; at most `capacity + 1` are kept.
    mutating func recycle(_ item: Item) {
        if spare.count < capacity + 1 { spare.append(item) }
    }

    /// A spare item, if one was given back.
    mutating func reuse() -> Item? {
        spare.popLast()
    }
}
