import GestureActions

/// Packets for the virtual pointer, touchpad and keyboard that wait for their
/// moment on the wall clock, in the order the rules sent them: a click's next
/// press 30 ms after the release before it (libinput takes a press 25 ms or
/// less after a release for a switch's bounce, and drops it), and a device's
/// first packets 200 ms after it appeared (a desktop opens a new device a
/// little after it appears; what comes before is lost). The loop sends them at
/// their deadlines: nothing waits on the loop.
struct PacketAgenda {
    enum Target: Equatable {
        case pointer, touchpad, keyboard
    }

    struct Entry: Equatable {
        var due: Double
        /// Seconds after the packet before it actually went out: a late loop
        /// never brings a press nearer the release before it.
        var gap: Double
        var target: Target
        var events: [VirtualEvent]
    }

    /// A click's next press after the release before it.
    static let clickGap = 0.03
    /// A device made at first use, before its first packet.
    static let newDeviceSettle = 0.2
    /// Packets that may wait at once; past them the rules are dropping clicks faster than they go out.
    static let capacity = 256

    /// In due order: each is due no earlier than the one before.
    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var nextDue: Double? { entries.first?.due }
    /// When the last packet queued goes out.
    var lastDue: Double? { entries.last?.due }

    /// Queues `events` to go out after what is queued already (or now), `gap`
    /// seconds later, and not before `notBefore`; false when full.
    /// `always`: a release or a lift, queued however many wait (a button is
    /// never left down for want of room).
    mutating func add(_ events: [VirtualEvent], to target: Target, now: Double, gap: Double = 0,
                      notBefore: Double = -.infinity, always: Bool = false) -> Bool {
        guard always || entries.count < Self.capacity else { return false }
        let after = max(now, entries.last?.due ?? now)
        let due = max(after + gap, notBefore)
        entries.append(Entry(due: due, gap: due - after, target: target, events: events))
        return true
    }

    /// The first entry, when it is due at `now`; the caller sends it and says
    /// when (`sent(at:)`).
    mutating func takeNext(at now: Double) -> Entry? {
        guard let first = entries.first, first.due <= now else { return nil }
        return entries.removeFirst()
    }

    /// The entry taken went out at `time`: what follows keeps its gap from
    /// then, not from when it was due (a loop that comes late, or a write that
    /// took long, never brings a press nearer the release before it).
    mutating func sent(at time: Double) {
        guard !entries.isEmpty else { return }
        entries[0].due = max(entries[0].due, time + entries[0].gap)
    }

    /// The entries due at `now`, in order, as if each went out at `now`.
    mutating func takeDue(at now: Double) -> [Entry] {
        var taken: [Entry] = []
        while let entry = takeNext(at: now) {
            taken.append(entry)
            sent(at: now)
        }
        return taken
    }

    /// Everything still waiting, in order: the run ends.
    mutating func takeAll() -> [Entry] {
        defer { entries.removeAll() }
        return entries
    }
}
