/// What a spec says about the kinds users make: drawn shapes and recognizers
/// written in Lua.
extension GestureSpec {
    /// Problems particular to `shape` and `custom` specs.
    var userGestureProblem: String? {
        switch kind {
        case .shape:
            if fingers != .exactly(1) { return "a shape is drawn with one finger; remove \"fingers\"" }
            if let name, name.isEmpty { return "a shape's name cannot be empty" }
            if let minScore, !(minScore >= 0 && minScore <= 1) { return "min_score must be from 0 to 1, not \(minScore)" }
        case .custom:
            guard let name, !name.isEmpty else { return "a recognizer's kind needs its name" }
            if minScore != nil { return "min_score belongs to shapes, not \"\(name)\"" }
        default:
            if minScore != nil { return "min_score belongs to shapes, not \(kind.phrase)" }
            if name != nil { return "a name belongs to shapes and recognizers, not \(kind.phrase)" }
        }
        return nil
    }

    /// "shape circle", "zigzag", "2-finger zigzag"; nil for the built-in kinds.
    var userGesturePhrase: String? {
        switch kind {
        case .shape:
            var words = ["shape"]
            if let name { words.append(name) }
            if let resting { words.append("with \(resting) resting") }
            return words.joined(separator: " ")
        case .custom:
            var words: [String] = []
            if case .exactly(let n) = fingers { words.append("\(n)-finger") }
            words.append(name ?? "custom")
            if let resting { words.append("with \(resting) resting") }
            return words.joined(separator: " ")
        default:
            return nil
        }
    }
}

/// Shape names as rules and templates write them: any case, words joined by
/// spaces, hyphens or underscores ("Left Curly-Brace" is `left_curly_brace`).
public enum ShapeName {
    public static let maxBytes = 64

    public static func normalize(_ text: String) -> String {
        var out = ""
        var pendingSeparator = false
        for ch in text.lowercased() {
            if ch == " " || ch == "-" || ch == "_" || ch == "\t" {
                pendingSeparator = !out.isEmpty
            } else {
                if pendingSeparator { out.append("_") }
                pendingSeparator = false
                out.append(ch)
            }
        }
        return out
    }

    /// Why `name` (already normalized) cannot name a shape, or nil.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "a shape needs a name" }
        if name.utf8.count > maxBytes { return "a shape's name is at most \(maxBytes) bytes" }
        for scalar in name.unicodeScalars where scalar.value < 0x20 || scalar == "\"" || scalar == "\\" || scalar.value == 0x7F {
            return "a shape's name cannot hold control characters, quotes or backslashes"
        }
        return nil
    }
}
