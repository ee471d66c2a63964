import GestureCore

/// Who made a press or put fingers on the virtual touchpad: the gesture whose
/// handler did, a rule's own recognizer answering for a device's touches
/// (what it holds ends with them), or a call outside any gesture (a timer).
enum ActionOwner: Hashable {
    case gesture(device: Int, rule: Int, start: Double)
    case touchSequence(device: Int)
    case outside
}

/// The virtual pointer's buttons that are down, and until when. A press
/// belongs to the gesture that made it and ends with it, so no rule can leave
/// a button down: what its gesture's last handler did not release, the engine
/// does. A release with `after` keeps the button down a little longer, and a
/// press in that time takes it back, as a drag resumed.
struct HeldButtons {
    enum Hold: Equatable {
        case held(by: ActionOwner)
        case lingering(until: Double)
    }

    private(set) var holds: [PointerButton: Hold] = [:]

    /// Whether the button must go down (false: it was down, now `owner`'s).
    mutating func press(_ button: PointerButton, by owner: ActionOwner) -> Bool {
        defer { holds[button] = .held(by: owner) }
        return holds[button] == nil
    }

    /// Whether the button must go up.
    mutating func release(_ button: PointerButton) -> Bool {
        holds.removeValue(forKey: button) != nil
    }

    /// Keeps a button that is down down until `time`; false when it is up.
    mutating func linger(_ button: PointerButton, until time: Double) -> Bool {
        guard holds[button] != nil else { return false }
        holds[button] = .lingering(until: time)
        return true
    }

    /// The owner's gesture ended: the buttons it still holds go up.
    mutating func release(ownedBy owner: ActionOwner) -> [PointerButton] {
        take { if case .held(owner) = $0 { return true } else { return false } }
    }

    /// Lingering buttons whose time has come.
    mutating func releaseDue(at time: Double) -> [PointerButton] {
        take { if case .lingering(let until) = $0 { return until <= time } else { return false } }
    }

    mutating func releaseAll() -> [PointerButton] { take { _ in true } }

    /// When the first lingering button goes up.
    var nextDue: Double? {
        holds.values.compactMap { if case .lingering(let until) = $0 { return until } else { return nil } }.min()
    }

    var isEmpty: Bool { holds.isEmpty }

    private mutating func take(_ which: (Hold) -> Bool) -> [PointerButton] {
        let taken = PointerButton.allCases.filter { holds[$0].map(which) ?? false }
        for button in taken { holds[button] = nil }
        return taken
    }
}
