import GestureEngine

/// A usage error: what was wrong, for the subcommand's help to follow.
struct UsageError: Error {
    var message: String
}

/// Walks a subcommand's arguments: options with values, flags, positionals.
struct Arguments {
    private var items: [String]
    private var index = 0
    let command: String

    init(_ items: [String], command: String) {
        self.items = items
        self.command = command
    }

    /// The next argument, or nil at the end.
    mutating func next() -> String? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    /// The value of an option given as `--name VALUE` or `--name=VALUE`.
    mutating func value(for option: String, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        guard let v = next() else { throw UsageError(message: "\(option) needs a value") }
        return v
    }

    /// The value of an option that takes one of a fixed set of names, such as
    /// `--format raw`; any other value is a usage error listing the names.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(for option: String, inline: String?) throws(UsageError) -> Choice
        where Choice.RawValue == String {
        let text = try value(for: option, inline: inline)
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "\(option) takes one of \(names), not \"\(text)\"")
        }
        return choice
    }

    /// `--lua-memory MIB` in bytes, for run and check alike.
    mutating func luaMemory(for option: String, inline: String?) throws(UsageError) -> Int {
        let text = try value(for: option, inline: inline)
        guard let mib = Int(text), mib >= 1, mib <= 4096 else {
            throw UsageError(message: "\(option) takes MiB from 1 to 4096, not \"\(text)\"")
        }
        return mib << 20
    }

    /// Splits `--name=value` into its parts.
    static func split(_ arg: String) -> (String, String?) {
        guard arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }
}

func usageFailure(_ error: UsageError, command: String, console: Console) -> ExitCode {
    console.say("gesturemap \(command): \(error.message)")
    console.say("see: gesturemap \(command) --help")
    return .usage
}
