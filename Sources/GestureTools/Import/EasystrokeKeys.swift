import GestureActions

/// Easystroke's SendKey as a `key()` combination. It holds the modifiers of
/// its mask down (actions.cc `modkeys`: Shift_L, Control_L, Alt_L for Mod1,
/// Super_L, Hyper_L, Meta_L; Lock and Mod2 to Mod5 press nothing), then presses
/// the keycode X gives the keysym (`XKeysymToKeycode`): the key that carries
/// it, never with a Shift added.
enum EasystrokeKeys {
    static let modifierKeys: [(mask: UInt32, name: String)] = [
        (1 << 0, "shift"), (1 << 2, "ctrl"), (1 << 3, "alt"),
        (1 << 26, "super"), (1 << 27, "Hyper_L"), (1 << 28, "Meta_L"),
    ]

    /// The key a shifted punctuation keysym is on, in X's default (US) keymap:
    /// `XKeysymToKeycode(exclam)` is the 1 key, which Easystroke presses alone.
    static let shiftedKeys: [String: String] = [
        "exclam": "1", "at": "2", "numbersign": "3", "dollar": "4", "percent": "5", "asciicircum": "6",
        "ampersand": "7", "asterisk": "8", "parenleft": "9", "parenright": "0", "underscore": "minus",
        "plus": "equal", "braceleft": "bracketleft", "braceright": "bracketright", "colon": "semicolon",
        "quotedbl": "apostrophe", "less": "comma", "greater": "period", "question": "slash", "bar": "backslash",
        "asciitilde": "grave",
    ]

    /// The names of the modifiers Easystroke holds for a mask, in its order.
    static func modifierNames(_ mask: UInt32) -> [String] {
        modifierKeys.filter { mask & $0.mask != 0 }.map(\.name)
    }

    /// `ctrl+q`, or why it cannot be pressed through `key()`.
    static func combo(modifiers: UInt32, keysym: UInt32) -> Result<String, Reason> {
        guard keysym != 0 else { return .failure(Reason("the SendKey has no key (keysym 0): Easystroke presses only its modifiers")) }
        guard var name = xKeysymNumbers[keysym] else {
            return .failure(Reason("keysym 0x\(String(keysym, radix: 16)) is no key gesturemap's key() names (it knows ASCII, the function keys and the XF86 keys)"))
        }
        if name.count == 1, let c = name.unicodeScalars.first, (65...90).contains(c.value) { name = name.lowercased() }
        if let base = shiftedKeys[name] { name = base }
        let joined = (modifierNames(modifiers) + [name]).joined(separator: "+")
        switch KeyCombo.parse(joined) {
        case .success: return .success(joined)
        case .failure(let error): return .failure(Reason("\(joined): \(error.message)"))
        }
    }

    public struct Reason: Error, Equatable, Sendable {
        public var text: String
        init(_ text: String) { self.text = text }
    }
}
