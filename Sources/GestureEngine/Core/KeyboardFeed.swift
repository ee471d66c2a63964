import GestureCore

/// The keyboards as the frame path sees them: the keys held. (What typing
/// leaves out of each touchpad is kept in its lane.)
final class KeyboardFeed {
    let inputs: KeyInputs

    init(_ inputs: KeyInputs) {
        self.inputs = inputs
    }
}
