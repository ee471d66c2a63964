/// A value a recognizer written in Lua attaches to its gesture, which handlers
/// read in `g` beside the built-in fields. Plain data only, so that the core
/// can hold it without knowing Lua.
public struct GestureField: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case integer(Int)
        case number(Double)
        case string(String)
        case boolean(Bool)
    }

    public var name: String
    public var value: Value

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    /// The fields every gesture table has: an attached field may not replace one.
    public static let reserved: Set<String> = [
        "kind", "phase", "fingers", "direction", "taps", "edge", "resting", "t", "duration", "dx", "dy",
        "distance", "velocity", "x", "y", "nx", "ny", "scale", "rotation", "device", "step", "shape", "score",
        "app", "modifiers",
    ]
}

extension Array where Element == GestureField {
    /// Sets `field`, replacing an earlier value of the same name.
    public mutating func set(_ field: GestureField) {
        if let i = firstIndex(where: { $0.name == field.name }) { self[i] = field } else { append(field) }
    }
}
