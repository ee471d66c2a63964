/// What a spec says about the kinds users make: drawn shapes and recognizers
/// written in Lua.
extension GestureSpec {
    /// Throws what is wrong particular to `shape` and `custom` specs.
    func validateUserGesture() throws(SpecValidationError) {
        if kind != .stroke, arms != nil { throw .strokeKeyOnKind(kind) }
        if kind != .stroke, kind != .chord, kind != .shape, kind != .click, button != nil { throw .strokeKeyOnKind(kind) }
        if kind != .chord, press != nil || wheel != nil { throw .chordKeyOnKind(kind) }
        switch kind {
        case .chord:
            if fingers != .exactly(1) { throw .chordFingers }
            // The wheel alone is a keyboard modifier's chord: on()'s `modifiers` option says which (RuleAPI).
            if button == nil, press != nil || wheel == nil { throw .chordWithoutButton }
            if press == nil, wheel == nil { throw .chordNeedsOne }
            if press != nil, wheel != nil { throw .chordBoth }
            if let press, press == button { throw .chordSameButton(press) }
            if let wheel, !Direction.cardinals.contains(wheel) { throw .chordWheel(wheel) }
            if minScore != nil { throw .minScoreOnKind(kind) }
            if name != nil { throw .nameOnKind(kind) }
        case .stroke:
            if fingers != .exactly(1) { throw .strokeFingers }
            if let arms, arms.isEmpty || arms.count > StrokeDirections.maxArms { throw .strokeArms(arms.count) }
            if minScore != nil { throw .minScoreOnKind(kind) }
            if name != nil { throw .nameOnKind(kind) }
        case .shape:
            if fingers != .exactly(1) { throw .shapeFingers }
            if let name, name.isEmpty { throw .emptyShapeName }
            if let minScore, !(minScore >= 0 && minScore <= 1) { throw .minScore(minScore) }
        case .custom:
            guard let name, !name.isEmpty else { throw .unnamedRecognizer }
            if minScore != nil { throw .minScoreOnRecognizer(name) }
        default:
            if minScore != nil { throw .minScoreOnKind(kind) }
            if name != nil { throw .nameOnKind(kind) }
        }
    }

    /// "shape circle", "zigzag", "2-finger zigzag"; nil for the built-in kinds.
    var userGesturePhrase: String? {
        switch kind {
        case .chord:
            var words = ["chord", button?.rawValue ?? "modifiers"]
            if let press { words.append("then \(press.rawValue)") }
            if let wheel { words.append("+ wheel \(wheel.rawValue)") }
            return words.joined(separator: " ")
        case .stroke:
            var words = ["stroke"]
            if let arms { words.append(StrokeDirections.name(arms)) }
            if let button { words.append("with \(button.rawValue)") }
            return words.joined(separator: " ")
        case .click:
            // A mouse button's click reads as its phrase; a touchpad's has the built-in one.
            return button.map { "\($0.rawValue) click" }
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

    /// Throws why `name` (already normalized) cannot name a shape.
    public static func validate(_ name: String) throws(ShapeNameError) {
        if name.isEmpty { throw .empty }
        if name.utf8.count > maxBytes { throw .tooLong }
        for scalar in name.unicodeScalars where scalar.value < 0x20 || scalar == "\"" || scalar == "\\" || scalar.value == 0x7F {
            throw .unwritable
        }
    }
}

/// Why text cannot name a shape.
public enum ShapeNameError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLong
    /// It holds control characters, quotes or backslashes.
    case unwritable

    public var description: String {
        switch self {
        case .empty: return "a shape needs a name"
        case .tooLong: return "a shape's name is at most \(ShapeName.maxBytes) bytes"
        case .unwritable: return "a shape's name cannot hold control characters, quotes or backslashes"
        }
    }
}
