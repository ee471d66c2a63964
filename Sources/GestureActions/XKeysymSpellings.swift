extension KeyCombo {
    /// Whether `name` is an X keysym name spelt as X spells it, letter case and
    /// `_` included, for a key that `key()` presses as X's default keymap puts
    /// it. X looks names up exactly (XStringToKeysym), while `key()` reads them
    /// in any case and with or without `_`: a tool that hands names to X, as
    /// Touchégg does, presses nothing for `right` or `Page Down`.
    public static func isXKeysymSpelling(_ name: String) -> Bool {
        xSpellings.contains(name)
    }

    static let xSpellings: Set<String> = {
        var names = Set(xKeysymNames.map(\.name))
        // X's names for the keys whose kernel names `key()` also reads (keysymdef.h).
        names.formUnion([
            "Left", "Right", "Up", "Down", "Home", "End", "Tab", "BackSpace", "Delete", "Insert",
            "space", "Page_Up", "Page_Down", "Caps_Lock", "Num_Lock", "Scroll_Lock", "Pause",
            "minus", "equal", "comma", "semicolon", "apostrophe", "grave", "backslash", "slash",
            "KP_Enter", "KP_Equal",
        ])
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { names.insert(String(UnicodeScalar(c))) }
        // A capital letter is the same key's shifted level; X presses that key without Shift.
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { names.insert(String(UnicodeScalar(c))) }
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") {
            names.insert(String(UnicodeScalar(c)))
            names.insert("KP_" + String(UnicodeScalar(c)))
        }
        for n in 1...24 { names.insert("F\(n)") }
        return names.filter { KeyNames.keys(named: $0) != nil }
    }()
}
