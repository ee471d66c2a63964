/// "ctrl+alt+Right" → the KEY_* codes to press, in order.
public struct KeyCombo: Equatable, Sendable {
    public var keys: [(name: String, code: UInt16)]

    public static func == (a: KeyCombo, b: KeyCombo) -> Bool {
        a.keys.map(\.code) == b.keys.map(\.code)
    }

    /// Friendly names for keys whose kernel names people do not type.
    static let aliases: [String: String] = [
        "ctrl": "KEY_LEFTCTRL", "control": "KEY_LEFTCTRL", "rctrl": "KEY_RIGHTCTRL",
        "alt": "KEY_LEFTALT", "ralt": "KEY_RIGHTALT", "altgr": "KEY_RIGHTALT",
        "shift": "KEY_LEFTSHIFT", "rshift": "KEY_RIGHTSHIFT",
        "super": "KEY_LEFTMETA", "meta": "KEY_LEFTMETA", "win": "KEY_LEFTMETA", "windows": "KEY_LEFTMETA",
        "logo": "KEY_LEFTMETA", "cmd": "KEY_LEFTMETA",
        "next": "KEY_PAGEDOWN", "pgdn": "KEY_PAGEDOWN", "prior": "KEY_PAGEUP", "pgup": "KEY_PAGEUP",
        "escape": "KEY_ESC", "return": "KEY_ENTER", "del": "KEY_DELETE", "ins": "KEY_INSERT",
        "bs": "KEY_BACKSPACE", "spacebar": "KEY_SPACE", "caps": "KEY_CAPSLOCK",
        "printscreen": "KEY_SYSRQ", "print": "KEY_SYSRQ", "plus": "KEY_KPPLUS",
        "volup": "KEY_VOLUMEUP", "voldown": "KEY_VOLUMEDOWN", "play": "KEY_PLAYPAUSE", "pause": "KEY_PLAYPAUSE",
    ]

    /// Reads a combination, or says which part is not a key.
    public static func parse(_ text: String) -> Result<KeyCombo, KeyComboError> {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        guard !text.isEmpty, !parts.contains(where: \.isEmpty) else {
            return .failure(KeyComboError(message: "key(\"\(text)\"): write keys joined by +, as in \"ctrl+alt+Right\" or \"PageDown\""))
        }
        var keys: [(String, UInt16)] = []
        for part in parts {
            let lower = part.lowercased()
            let name = aliases[lower] ?? (lower.hasPrefix("key_") ? part.uppercased() : "KEY_" + part.uppercased())
            guard let code = keyCodes[name] else {
                return .failure(KeyComboError(message: "unknown key \"\(part)\" in key(\"\(text)\"); names are those of linux/input-event-codes.h without KEY_ (PageDown, Left, A, F5, Esc) or ctrl, alt, shift, super"))
            }
            keys.append((name, code))
        }
        return .success(KeyCombo(keys: keys))
    }

    /// Presses in order, releases in reverse, a SYN_REPORT after each.
    public var events: [(type: UInt16, code: UInt16, value: Int32)] {
        var out: [(UInt16, UInt16, Int32)] = []
        for key in keys {
            out.append((1, key.code, 1))
            out.append((0, 0, 0))
        }
        for key in keys.reversed() {
            out.append((1, key.code, 0))
            out.append((0, 0, 0))
        }
        return out
    }

    /// Every key name the table knows: a virtual keyboard enables them all, so
    /// every key a rule can name can be typed.
    public static var allCodes: [UInt16] { Array(Set(keyCodes.values)).sorted() }

    public static func name(of code: UInt16) -> String? {
        keyCodes.first { $0.value == code }?.key
    }
}

public struct KeyComboError: Error, Equatable, Sendable {
    public var message: String
}

extension Substring {
    func trimmingWhitespace() -> String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
