import GestureContext

/// What is wrong with a table of phase handlers, `on(spec, { began = f, ... })`.
enum HandlerTableError: Error, Equatable, CustomStringConvertible {
    /// A key that is no phase, shown as `LuaView.shown` shows it.
    case unknownPhase(shown: String)
    case notFunction(phase: String, LuaType)

    var description: String {
        switch self {
        case .unknownPhase(let shown):
            return "unknown phase \(shown) in handler table; use began, changed, ended or cancelled"
        case let .notFunction(phase, type):
            return "handler table field \"\(phase)\" must be a function, not a \(type.name)"
        }
    }
}

/// What is wrong with `on()`'s table of options.
enum RuleOptionError: Error, Equatable, CustomStringConvertible {
    case keyNotString
    /// A string key longer than any option's name, shown as `LuaView.shown` shows it.
    case unknownLong(shown: String)
    case unknown(String)
    case tooLong(option: String, bytes: Int, most: Int)
    case notString(option: String)
    case notModeName
    case notDevicePattern
    case malformedPattern(option: String, pattern: String, MalformedPattern)
    case cooldown
    case repeatDistance
    /// `repeat` on a gesture that does not travel (its spec's phrase).
    case repeatWithoutTravel(String)
    case notRuleNames(option: String)
    case exclusive
    case claim
    case notModifierKeys
    case modifiers(Modifiers.ParseError)
    case appPatternCount(Int)
    case appUsage

    var description: String {
        switch self {
        case .keyNotString: return "on() options must have string keys"
        case .unknownLong(let shown): return "unknown option \(shown); known options: \(Self.known)"
        case .unknown(let key): return "unknown option \"\(key)\"; known options: \(Self.known)"
        case let .tooLong(option, bytes, most): return "option \"\(option)\" is \(bytes) bytes long; the most is \(most)"
        case .notString(let option): return "option \"\(option)\" must be a string"
        case .notModeName: return "option \"mode\" must be a mode's name, such as \"admin\""
        case .notDevicePattern: return "option \"device\" must be a Lua pattern for the device's name, such as \"Touchscreen\""
        case let .malformedPattern(option, pattern, why):
            return "option \"\(option)\" is not a valid Lua pattern: \"\(pattern)\" (\(why))"
        case .cooldown: return "option \"cooldown\" must be a number of seconds, 0 or more"
        case .repeatDistance: return "option \"repeat\" must be a distance in millimetres, more than 0"
        case .repeatWithoutTravel(let phrase):
            return "option \"repeat\" belongs to pans and long presses, which travel, not \"\(phrase)\""
        case .notRuleNames(let option):
            return "option \"\(option)\" must be a rule name or a list of rule names, such as { \"next\", \"prev\" }"
        case .exclusive: return "option \"exclusive\" must be true or false"
        case .claim: return "option \"claim\" must be true or false: true makes the gesture's touches gesturemap's alone on a device shared with the desktop (run --share)"
        case .notModifierKeys:
            return "option \"modifiers\" must be the keys to hold, such as \"ctrl\" or \"ctrl+shift\" (or \"none\")"
        case .modifiers(let error): return "option " + error.message
        case .appPatternCount(let count): return "option \"app\" lists \(count) patterns; the most is \(ScriptRuntime.maxAppPatterns)"
        case .appUsage:
            return "option \"app\" must be a Lua pattern for the application's id, or a list of them, such as \"firefox\" or { \"evince\", \"zathura\" }; gesturemap apps shows the ids"
        }
    }

    private static var known: String { ScriptRuntime.optionKeys.joined(separator: ", ") }
}

/// Why text is not a Lua pattern, in the words of the pattern matcher.
struct MalformedPattern: Error, Equatable, CustomStringConvertible {
    var description: String
}
