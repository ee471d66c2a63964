/// A button of a real mouse, as the rules name it (`button = "right"`,
/// `config{ stroke_button = "middle" }`); the raw values are those names.
/// Its evdev code is the input layer's business (`MouseButtonName`).
public enum MouseButton: String, CaseIterable, Sendable {
    case left, right, middle, side, extra

    public static let names = allCases.map(\.rawValue)

    /// How `config{}` keeps it: its place in `allCases`.
    public var configValue: Double { Double(Self.allCases.firstIndex(of: self) ?? 1) }

    public init?(configValue: Double) {
        guard let i = Int(exactly: configValue), Self.allCases.indices.contains(i) else { return nil }
        self = Self.allCases[i]
    }
}
