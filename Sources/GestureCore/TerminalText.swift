/// Text from outside (window titles, app ids, device names, a recognizer's
/// reasons) on its way to a terminal. Any program can set its window title,
/// and anyone with uinput can name a device, so such text must not carry
/// terminal controls: an escape can write the clipboard (OSC 52), clear the
/// screen, or forge a line. Controls (C0, DEL, C1: an 8-bit CSI is one), line
/// and paragraph separators and the bidirectional overrides are written as
/// `\u{1B}`; everything else, letters of every script included, stays. JSON
/// output has its own exact escaping and does not use this.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// As `escaped`, but a newline and a tab stay: for whole messages, whose
    /// lines (a Lua traceback's, a fix under a finding) are meant as lines.
    /// Every line a person reads goes through here on its way out (Console).
    public static func escapedKeepingLines(_ text: String) -> String {
        // Most messages are plain ASCII: one pass over the bytes says so.
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 >= 0x7F }) else { return text }
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && scalar != "\n" && scalar != "\t" {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// In quotes, as a title is shown: `"Mozilla Firefox"`; a quote or a
    /// backslash inside is escaped, so where it ends is plain.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text.replacingBackslashesAndQuotes()) + "\""
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

private extension String {
    func replacingBackslashesAndQuotes() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default: out.append(character)
            }
        }
        return out
    }
}
