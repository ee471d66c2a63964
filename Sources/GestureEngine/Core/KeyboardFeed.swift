import GestureCore

/// The keyboards as the frame path sees them: the keys held, and the
/// touchpad touches that typing leaves out (filters, and the touchpads
/// leaving touches out now).
final class KeyboardFeed {
    let inputs: KeyInputs
    var typingFilters: [Int: TypingFilter] = [:]
    /// Touchpads with touches being left out now.
    var ignoringOn: Set<Int> = []

    init(_ inputs: KeyInputs) {
        self.inputs = inputs
    }
}
