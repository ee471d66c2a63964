/// What the arena keeps when traced: every transition and decision, in order,
/// for the caller to print and clear. Untraced, an entry costs one check.
struct TraceLog: Sendable {
    var isOn = false
    var records: [TraceRecord] = []

    @inline(__always)
    mutating func add(_ entry: TraceEntry, at time: Double, device: Int) {
        if isOn { records.append(TraceRecord(time: time, device: device, entry: entry)) }
    }
}
