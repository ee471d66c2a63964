/// The modifier keys held while a gesture starts: `g.modifiers` and the rule
/// option `modifiers = "ctrl+shift"`. Left and right keys count alike.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ctrl = Modifiers(rawValue: 1)
    public static let shift = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
    /// The Windows/Command/logo key: "super" or "meta" in rules.
    public static let `super` = Modifiers(rawValue: 8)

    /// In a fixed order, as `g.modifiers` lists them and messages name them.
    public static let named: [(name: String, modifier: Modifiers)] = [("ctrl", .ctrl), ("shift", .shift), ("alt", .alt), ("super", .super)]

    static let aliases: [String: Modifiers] = [
        "ctrl": .ctrl, "control": .ctrl, "shift": .shift, "alt": .alt,
        "super": .super, "meta": .super, "logo": .super, "win": .super,
    ]

    /// The names of the held modifiers: ["ctrl", "shift"].
    public var names: [String] { Modifiers.named.filter { contains($0.modifier) }.map(\.name) }

    /// The modifier a key code is, if any (KEY_LEFTCTRL, KEY_RIGHTALT...).
    public init?(keyCode code: UInt16) {
        switch code {
        case KeyCode.leftCtrl, KeyCode.rightCtrl: self = .ctrl
        case KeyCode.leftShift, KeyCode.rightShift: self = .shift
        case KeyCode.leftAlt, KeyCode.rightAlt: self = .alt
        case KeyCode.leftMeta, KeyCode.rightMeta: self = .super
        default: return nil
        }
    }

    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// "ctrl", "ctrl+shift", "Super + Alt"; "" or "none" is no modifier.
    public static func parse(_ text: String) throws(ParseError) -> Modifiers {
        let trimmed = text.filter { $0 != " " }.lowercased()
        if trimmed.isEmpty || trimmed == "none" { return [] }
        var result: Modifiers = []
        for part in trimmed.split(separator: "+", omittingEmptySubsequences: false) {
            guard let modifier = aliases[String(part)] else {
                let shown = part.isEmpty ? "an empty name" : "\"\(part)\""
                throw ParseError(message: "modifiers \"\(text)\": \(shown) is not a modifier; use ctrl, shift, alt or super, joined with +")
            }
            result.insert(modifier)
        }
        return result
    }
}

/// Linux key codes (<linux/input-event-codes.h>) the context needs by name.
public enum KeyCode {
    public static let esc: UInt16 = 1
    public static let tab: UInt16 = 15
    public static let q: UInt16 = 16
    public static let p: UInt16 = 25
    public static let leftCtrl: UInt16 = 29
    public static let leftShift: UInt16 = 42
    public static let rightShift: UInt16 = 54
    public static let kpAsterisk: UInt16 = 55
    public static let leftAlt: UInt16 = 56
    public static let space: UInt16 = 57
    public static let capsLock: UInt16 = 58
    public static let f1: UInt16 = 59
    public static let rightCtrl: UInt16 = 97
    public static let rightAlt: UInt16 = 100
    public static let leftMeta: UInt16 = 125
    public static let rightMeta: UInt16 = 126
    public static let compose: UInt16 = 127
    public static let fn: UInt16 = 0x1d0
    /// KEY_MAX + 1: key state bitmaps are this many bits.
    public static let count = 0x300
}
