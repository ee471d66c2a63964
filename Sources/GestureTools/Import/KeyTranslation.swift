import GestureActions

/// The other tools' ways of naming keys, said as gesturemap's `key()` combinations,
/// only where pressing them through `key()` is exactly what the tool did.
enum KeyTranslation {
    /// X keysyms that xdotool types with Shift added (it looks the keysym up and
    /// presses the level it is on); `key()` presses the key alone, so these stay commands.
    static let shiftedKeysyms: Set<String> = [
        "exclam", "at", "numbersign", "dollar", "percent", "asciicircum", "ampersand", "asterisk",
        "parenleft", "parenright", "underscore", "plus", "braceleft", "braceright", "colon",
        "quotedbl", "less", "greater", "question", "bar", "asciitilde",
    ]

    /// `xdotool key COMBO...` as the combinations to press one after another, or
    /// nil when it is anything else (an option, a keysym xdotool would shift, a
    /// name gesturemap does not know).
    static func xdotoolKeys(_ argv: [String]) -> [String]? {
        guard argv.count >= 3, argv[0] == "xdotool", argv[1] == "key" else { return nil }
        var combos: [String] = []
        for combo in argv.dropFirst(2) {
            guard !combo.hasPrefix("-"), let translated = xdotoolCombo(combo) else { return nil }
            combos.append(translated)
        }
        return combos
    }

    /// One xdotool combination: X keysym names as written (xdotool and `key()`
    /// read the same names), xdotool's own aliases for the modifiers.
    static func xdotoolCombo(_ combo: String) -> String? {
        let parts = combo.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var out: [String] = []
        for part in parts {
            // xdotool's aliases: meta is X's Meta_L (on the Alt key), not the logo key.
            if part.lowercased() == "meta" {
                out.append("Meta_L")
                continue
            }
            // A capital letter is a shifted keysym to xdotool; to key() it is the letter's key.
            if part.count == 1, let c = part.first, c.isUppercase { return nil }
            if shiftedKeysyms.contains(part) { return nil }
            out.append(part)
        }
        let joined = out.joined(separator: "+")
        guard case .success = KeyCombo.parse(joined) else { return nil }
        return joined
    }

    /// A fusuma sendkey combination (`LEFTCTRL+T`): the kernel's key names,
    /// with or without `KEY_`, which fusuma-plugin-sendkey upper-cases. Written
    /// with `KEY_` so that `key()` reads them as the kernel's, never as X's.
    static func sendkeyCombo(_ combo: String) -> Result<String, KeyComboError> {
        let parts = combo.split(separator: "+", omittingEmptySubsequences: false).map {
            let name = String($0).trimmed(of: " \t").uppercased()
            return name.hasPrefix("KEY_") ? name : "KEY_" + name
        }
        let joined = parts.joined(separator: "+")
        switch KeyCombo.parse(joined) {
        case .success: return .success(joined)
        case .failure(let error): return .failure(error)
        }
    }

    /// Touchégg's `<modifiers>` and `<keys>`: X keysyms joined with `+`, which it
    /// presses modifiers first and releases in reverse, as `key()` does.
    static func toucheggCombo(modifiers: String, keys: String) -> Result<String, KeyComboError>? {
        let names = (modifiers.split(separator: "+") + keys.split(separator: "+"))
            .map { String($0).trimmed(of: " \t\n\r") }
            .filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        let joined = names.joined(separator: "+")
        switch KeyCombo.parse(joined) {
        case .success: return .success(joined)
        case .failure(let error): return .failure(error)
        }
    }
}
