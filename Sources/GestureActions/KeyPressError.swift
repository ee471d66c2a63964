import GestureInput

/// Why a rule's `key()` typed nothing.
public enum KeyPressError: Error, Equatable, Sendable, CustomStringConvertible {
    case combo(KeyComboError)
    /// The virtual keyboard refused an event part way through the combination.
    case keyboardStopped(combo: String)

    public var description: String {
        switch self {
        case .combo(let error): return error.message
        case .keyboardStopped(let combo): return "key(\"\(combo)\"): " + UinputAccessError.stopped(.key, reason: nil).message
        }
    }
}
