/// What the arena's recognizers act on and in: the recognizers themselves,
/// the touches they see (the tracker), and the trace. One value the arena
/// holds, which its owners (arbitration among them) are handed in place,
/// so none of its parts is copied on the way.
struct ArenaStage: Sendable {
    var recognizers = RecognizerSet()
    var tracker = TouchTracker()
    var trace = TraceLog()

    @inline(__always)
    mutating func trace(_ entry: TraceEntry, at time: Double) {
        trace.add(entry, at: time, device: tracker.device)
    }
}
