/// Which text of an `exec()` or `shell()` a problem is in, as messages name it.
enum ExecText: Equatable, CustomStringConvertible {
    case commandLine
    /// Counted from 1, as the rule's list counts.
    case argument(Int)
    case directory
    case variableName
    case value(of: String)

    var description: String {
        switch self {
        case .commandLine: return "the command line"
        case .argument(let n): return "argument \(n)"
        case .directory: return "exec option \"cwd\""
        case .variableName: return "the environment variable name"
        case .value(let name): return "the value of \(truncated(name, limit: 64))"
        }
    }
}

/// Why a Lua value cannot reach a program exactly as the rule wrote it.
enum ExecTextError: Error, Equatable, CustomStringConvertible {
    case tooLong(ExecText, bytes: Int)
    /// A NUL byte would end the program's string early.
    case nul(ExecText)
    /// Invalid UTF-8 could not be passed on unchanged.
    case notUTF8(ExecText)
    /// Neither a string nor a number.
    case notText(ExecText, LuaType)

    var description: String {
        switch self {
        case let .tooLong(what, bytes):
            return "\(what) is \(bytes) bytes long, more than the \(ScriptRuntime.maxExecBytes) bytes one exec may pass"
        case .nul(let what): return "\(what) contains a NUL byte (\\0), which no program can receive"
        case .notUTF8(let what): return "\(what) is not valid UTF-8"
        case let .notText(what, type): return "\(what) is a \(type.name); it must be a string or a number"
        }
    }
}

/// What is wrong with `exec()`'s options table.
enum ExecOptionError: Error, Equatable, CustomStringConvertible {
    case timeout
    case directoryNotPath
    case directory(ExecTextError)
    case environmentNotStrings
    case environment(ExecTextError)
    /// Empty, or with a `=`, which would end the name early.
    case variableName(String)
    /// The variables and the arguments together are more than one exec may pass.
    case environmentTooLarge

    var description: String {
        switch self {
        case .timeout: return "exec option \"timeout\" must be a number of seconds above 0"
        case .directoryNotPath: return "exec option \"cwd\" must be a directory's path"
        case .directory(let error): return error.description
        case .environmentNotStrings: return "exec option \"env\" must map names to strings"
        case .environment(let error): return "exec option \"env\": \(error)"
        case .variableName(let name):
            return "exec option \"env\": \"\(truncated(name, limit: 64))\" is not a variable name: names are not empty and have no \"=\""
        case .environmentTooLarge:
            return "exec option \"env\": the environment comes to more than \(ScriptRuntime.maxExecBytes) bytes with the arguments"
        }
    }
}
