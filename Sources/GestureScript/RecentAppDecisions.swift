/// Whether a rule's `app` patterns match one application id.
enum AppDecision: UInt8, Equatable, Sendable {
    /// Not matched yet: the rule does not run meanwhile.
    case unknown
    case no
    case yes
}

/// What the rules' `app` patterns gave for the ids focused lately: focus goes
/// back and forth among a few applications, and deciding again costs steps.
/// The id focused longest ago makes room, so a window that keeps changing
/// its id pushes out its own ids, and the cache keeps working after it.
struct RecentAppDecisions {
    static let capacity = 64

    /// Per id, indexed by rule; shorter than the rules when rules came later.
    private var entries: [String: [AppDecision]] = [:]
    /// Oldest first.
    private var order: [String] = []

    var count: Int { entries.count }

    /// What is known for `id`, which becomes the most recent.
    mutating func take(_ id: String) -> [AppDecision] {
        guard let known = entries[id] else { return [] }
        if let at = order.lastIndex(of: id) { order.remove(at: at) }
        order.append(id)
        return known
    }

    mutating func keep(_ decisions: [AppDecision], for id: String) {
        if entries.updateValue(decisions, forKey: id) != nil {
            if let at = order.lastIndex(of: id) { order.remove(at: at) }
        } else if order.count >= Self.capacity {
            entries[order.removeFirst()] = nil
        }
        order.append(id)
    }
}
