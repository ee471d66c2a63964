import GestureSystem

/// The engine's one loop: every source's descriptors in one poll(), which
/// waits until the earliest source's deadline; then every source is served,
/// in the order registered. One thread, and one time unit: seconds on the
/// monotonic clock.
final class EventLoop {
    private(set) var sources: [LoopSource] = []
    /// Asked after each source is served: a run that must stop stops there.
    var shouldStop: () -> Bool = { false }

    func add(_ source: LoopSource) {
        sources.append(source)
    }

    /// Served before `other` (appended when `other` is not registered).
    func add(_ source: LoopSource, before other: LoopSource?) {
        guard let other, let index = sources.firstIndex(where: { $0 === other }) else { return add(source) }
        sources.insert(source, at: index)
    }

    /// Whether any source keeps the loop going.
    var keepsRunning: Bool { sources.contains { $0.keepsLoopRunning } }

    enum Outcome: Equatable {
        case served
        case interrupted
        case failed(Int32)
    }

    /// Waits for any source's descriptors, up to the earliest deadline (and
    /// `limit`), then serves the sources. `pacing`: only those served while a
    /// `--realtime` replay waits.
    func round(until limit: Double? = nil, pacing: Bool = false) -> Outcome {
        let serving = pacing ? sources.filter(\.servesWhilePacing) : sources
        var requests: [PollRequest] = []
        var set = PollSet<Int>()
        for (i, source) in serving.enumerated() {
            requests.removeAll(keepingCapacity: true)
            source.descriptors(into: &requests)
            for request in requests { set.add(request.fd, i, events: request.events) }
        }
        let now = MonotonicClock.now()
        var due = limit
        for source in serving {
            if let deadline = source.deadline(now: now) { due = min(due ?? deadline, deadline) }
        }
        let timeout = due.map { PollTimeout.milliseconds($0 - now) } ?? -1
        var ready: [PollSet<Int>.Ready] = []
        switch set.wait(timeout: timeout) {
        case .ready(let found): ready = found
        case .timedOut: break
        case .interrupted: return .interrupted
        case .failed(let code): return .failed(code)
        }
        let after = MonotonicClock.now()
        for (i, source) in serving.enumerated() {
            let mine = ready.filter { $0.token == i }.map { (fd: $0.fd, events: $0.events) }
            source.serve(LoopRound(now: after, ready: mine, isIdle: ready.isEmpty))
            if shouldStop() { break }
        }
        return .served
    }
}
