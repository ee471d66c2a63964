/// A gesture held until the rules it requires to fail have failed.
struct Held: Sendable {
    var slot: SlotID
    var rule: RuleID
    var sequence: Int
    var events: [GestureEvent]
    var waitingOn: [RuleID]
}

/// The gestures held by `requires_failure_of`, in the order they were held,
/// with counts by rule. A Lua recognizer that never decides can keep every tap
/// of a long session waiting; with the counts, a frame asks "does anything
/// wait on this rule?" or "is this rule's gesture held?" in O(1), however
/// many wait, and looks through them only when a rule they wait on changed.
///
/// A value, copied on write: its storage is one reference, so the arena that
/// holds it keeps its size (a larger arena met a misaligned stack slot in
/// debug builds' async test thunks, a toolchain fault, and crashed there).
struct HeldDeliveries: Sendable {
    // Invariant: a Storage is changed only by the one value that owns it uniquely (owned() copies it first).
    private final class Storage: @unchecked Sendable {
        var entries: [Held] = []
        /// By rule: at 2 × its index, how many entries wait on it; at
        /// 2 × its index + 1, how many hold a gesture of it.
        var counts: [Int] = []
        var recheck = false

        func copy() -> Storage {
            let other = Storage()
            other.entries = entries
            other.counts = counts
            other.recheck = recheck
            return other
        }
    }

    private var storage = Storage()

    /// The storage, this value's own before it is changed.
    private mutating func owned() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    var entries: [Held] { storage.entries }
    var isEmpty: Bool { storage.entries.isEmpty }
    var count: Int { storage.entries.count }
    subscript(index: Int) -> Held { storage.entries[index] }

    /// Something that decides a wait changed outside a recognizer's transition
    /// (a rule's activity, the end of a sequence): the next resolve looks at
    /// every held gesture.
    var recheck: Bool {
        get { storage.recheck }
        set { if newValue != storage.recheck { owned().recheck = newValue } }
    }

    mutating func append(_ entry: Held) {
        let store = owned()
        store.entries.append(entry)
        Self.count(entry, by: 1, in: store)
    }

    @discardableResult
    mutating func remove(at index: Int) -> Held {
        let store = owned()
        let entry = store.entries.remove(at: index)
        Self.count(entry, by: -1, in: store)
        return entry
    }

    mutating func removeAll() {
        guard !storage.entries.isEmpty || storage.recheck || !storage.counts.isEmpty else { return }
        storage = Storage()
    }

    /// Whether any held gesture waits on one of these rules.
    func anyWaits(on rules: [RuleID]) -> Bool {
        let counts = storage.counts
        return rules.contains { 2 * $0.index < counts.count && counts[2 * $0.index] > 0 }
    }

    /// Whether a gesture of this rule is held.
    func holds(_ rule: RuleID) -> Bool {
        2 * rule.index + 1 < storage.counts.count && storage.counts[2 * rule.index + 1] > 0
    }

    /// These rules failed: no held gesture waits on them any more, and those
    /// that waited on them are looked at in the next resolve (the counts no
    /// longer say that they did).
    mutating func stopWaiting(on gone: [RuleID]) {
        guard anyWaits(on: gone) else { return }
        let store = owned()
        store.recheck = true
        for h in store.entries.indices where store.entries[h].waitingOn.contains(where: gone.contains) {
            for rule in store.entries[h].waitingOn where gone.contains(rule) { store.counts[2 * rule.index] -= 1 }
            store.entries[h].waitingOn.removeAll { gone.contains($0) }
        }
    }

    /// A later event of the gesture held for `slot`; consecutive changes
    /// collapse into the latest, so a held pan keeps its shape, not every frame.
    mutating func add(_ event: GestureEvent, toLatestOf slot: SlotID) {
        guard let h = storage.entries.lastIndex(where: { $0.slot == slot }) else { return }
        let store = owned()
        if event.phase == .changed, store.entries[h].events.last?.phase == .changed {
            store.entries[h].events[store.entries[h].events.count - 1] = event
        } else {
            store.entries[h].events.append(event)
        }
    }

    private static func count(_ entry: Held, by step: Int, in store: Storage) {
        let needed = 2 * (max(entry.rule.index, entry.waitingOn.map(\.index).max() ?? 0) + 1)
        if store.counts.count < needed { store.counts += Array(repeating: 0, count: needed - store.counts.count) }
        store.counts[2 * entry.rule.index + 1] += step
        for rule in entry.waitingOn { store.counts[2 * rule.index] += step }
    }
}
