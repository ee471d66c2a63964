import GestureContext

/// The way out of sharing, on the keyboard: Backspace, Escape and Enter held
/// together (keyd's panic sequence) suspend sharing, and again resume it. Read
/// as the keys arrive, not at the touches' time: it must work while a claim
/// holds every touch, or while no touch comes at all. Keys, not modifiers, so
/// that no remapping of Ctrl or Alt and no held modifier stands in its way.
struct EscapeChord {
    /// KEY_BACKSPACE, KEY_ESC, KEY_ENTER.
    static let keys: Set<UInt16> = [14, 1, 28]
    static let name = "Backspace+Escape+Enter"

    private var held: Set<UInt16> = []
    /// All of them are down now: it fired, and fires again only once one went up.
    private var complete = false

    /// One key event as it came; true when it completes the chord.
    mutating func key(_ event: KeyEvent) -> Bool {
        guard Self.keys.contains(event.code) else { return false }
        switch event.action {
        case .pressed: held.insert(event.code)
        case .released: held.remove(event.code)
        case .repeated: return false
        }
        let all = held == Self.keys
        defer { complete = all }
        return all && !complete
    }
}
