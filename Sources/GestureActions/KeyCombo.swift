import GestureCore

/// "ctrl+alt+Right" → the KEY_* codes to press, in order.
public struct KeyCombo: Equatable, Sendable {
    public var keys: [(name: String, code: UInt16)]

    public static func == (a: KeyCombo, b: KeyCombo) -> Bool {
        a.keys.map(\.code) == b.keys.map(\.code)
    }

    /// Reads a combination, or says which part is not a key. A key already
    /// in the combination is not pressed again (shift+ISO_Left_Tab is shift, Tab).
    public static func parse(_ text: String) -> Result<KeyCombo, KeyComboError> {
        guard let parts = parts(of: text) else {
            return .failure(.notACombination(text))
        }
        var keys: [(name: String, code: UInt16)] = []
        for part in parts {
            guard let named = KeyNames.keys(named: part) else {
                return .failure(unknown(part, in: text))
            }
            for key in named where !keys.contains(where: { $0.code == key.code }) {
                keys.append(key)
            }
        }
        return .success(KeyCombo(keys: keys))
    }

    static func unknown(_ part: String, in text: String) -> KeyComboError {
        .unknownKey(part, in: text, suggestion: KeyNameSuggestion.nearest(to: part))
    }

    /// A rule's string in a message: in quotes, escaped for a terminal (a NUL,
    /// a newline or an 8-bit CSI stays visible and on its line), and cut when
    /// its escaped form is long.
    static func quoted(_ text: String, limit: Int = 64) -> String {
        // Escaping only makes text longer: a long one is cut without escaping it whole.
        if text.utf8.count <= limit {
            let whole = TerminalText.quoted(text)
            if whole.utf8.count <= limit + 2 { return whole }
        }
        var kept = ""
        var width = 0
        var bytes = 0
        for scalar in text.unicodeScalars {
            width += TerminalText.quoted(String(scalar)).utf8.count - 2
            guard width <= limit else { break }
            bytes += UTF8.width(scalar)
            kept.unicodeScalars.append(scalar)
        }
        return TerminalText.quoted(kept + "... (\(text.utf8.count - bytes) more bytes)")
    }

    /// The parts between +, trimmed; nil when there is none or one is empty.
    /// Stops at the first empty one, so a string of + costs nothing.
    static func parts(of text: String) -> [String]? {
        var parts: [String] = []
        var rest = text[...]
        while true {
            let end = rest.firstIndex(of: "+") ?? rest.endIndex
            let part = rest[..<end].trimmingWhitespace()
            guard !part.isEmpty else { return nil }
            parts.append(part)
            guard end < rest.endIndex else { return parts }
            rest = rest[rest.index(after: end)...]
        }
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
    public static var allCodes: [UInt16] { KernelKeys.primaryNames.keys.sorted() }

    /// The kernel's name of a code. Where the kernel has two names for one
    /// code, the one it defines by number (the other is defined as it), so
    /// `--dry-run` prints the same name every run, as evtest does.
    public static func name(of code: UInt16) -> String? { KernelKeys.primaryNames[code] }
}

/// Why text is not a key combination.
public enum KeyComboError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty, or a part between + is empty.
    case notACombination(String)
    /// `part` names no key; `suggestion` is the known name nearest to it.
    case unknownKey(String, in: String, suggestion: String?)

    public var message: String {
        switch self {
        case .notACombination(let text):
            return "key(\(KeyCombo.quoted(text))): write keys joined by +, as in \"ctrl+alt+Right\" or \"PageDown\""
        case let .unknownKey(part, text, suggestion):
            let start = "unknown key \(KeyCombo.quoted(part)) in key(\(KeyCombo.quoted(text)))"
            if let suggestion { return start + "; did you mean \(suggestion)?" }
            return start + "; names are those of linux/input-event-codes.h without KEY_ (PageDown, Left, A, F5, Esc) or ctrl, alt, shift, super"
        }
    }

    public var description: String { message }
}

extension Substring {
    func trimmingWhitespace() -> String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
