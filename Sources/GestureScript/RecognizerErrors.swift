import GestureCore

/// Why a name cannot name a recognizer: names are lowercase words, so that a
/// phrase can be the name and no name is mistaken for a built-in gesture.
enum RecognizerNameError: Error, Equatable, CustomStringConvertible {
    case notAWord(String)
    case builtInKind(String)
    /// It reads as a phrase of the built-in gestures.
    case phrase(String)

    var description: String {
        switch self {
        case .notAWord(let name):
            return "recognizer \(TerminalText.quoted(truncated(name, limit: 64))): a name is a lowercase word of letters, digits, - and _, starting with a letter, such as \"zigzag\" or \"tap-tap-hold\""
        case .builtInKind(let name): return "recognizer \"\(name)\": \"\(name)\" is a built-in kind; choose another name"
        case .phrase(let name): return "recognizer \"\(name)\": \"\(name)\" already reads as a gesture phrase; choose another name"
        }
    }
}

/// What is wrong with the fields a recognizer gives its gesture, `r:began{ count = 3 }`.
enum GestureFieldError: Error, Equatable, CustomStringConvertible {
    /// A key that is no identifier, shown as `LuaView.shown` shows it.
    case badName(shown: String)
    /// A name gesturemap sets itself, such as `kind`.
    case reserved(String)
    case tooLong(String)
    case badType(String, LuaType)
    case tooMany

    var description: String {
        switch self {
        case .badName(let shown): return "field names are words such as count or corner, not \(shown)"
        case .reserved(let name): return "g.\(name) is set by gesturemap; name the field otherwise"
        case .tooLong(let name): return "field \(name) is longer than \(ScriptRuntime.maxFieldBytes) bytes"
        case let .badType(name, type): return "field \(name) is a \(type.name); fields are numbers, strings or booleans"
        case .tooMany: return "a gesture carries at most \(ScriptRuntime.maxFields) fields"
        }
    }
}
