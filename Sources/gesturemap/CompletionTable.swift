/// The commands and their options, read from the help texts `--help` prints:
/// one table for both, so a completion never offers what help does not list,
/// nor misses what it does.
struct CompletionTable {
    struct Option: Equatable {
        /// "-r", "--rules".
        var names: [String]
        /// "FILE", nil for a switch.
        var argument: String?
        var summary: String

        /// Arguments that name files, completed as paths.
        var takesPath: Bool {
            guard let argument else { return false }
            return ["FILE", "PATH", "INPUT", "DEVICE", "RULES", "RECORDING", "CASE", "DIR"].contains { argument.hasPrefix($0) }
        }
    }

    struct Command: Equatable {
        var name: String
        var summary: String
        var options: [Option]
        /// Its positional arguments are paths (INPUT, FILE, RULES, CASE).
        var takesPaths: Bool
    }

    var commands: [Command]

    /// From `Help.main`'s command list and each command's own help.
    static func fromHelp() -> CompletionTable {
        var commands: [Command] = []
        var inList = false
        for line in Help.main.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("commands:") { inList = true; continue }
            guard inList else { continue }
            guard line.hasPrefix("  ") else { if !commands.isEmpty { break } else { continue } }
            let words = line.split(separator: " ")
            guard let name = words.first else { continue }
            let summary = Self.summary(of: String(line))
            let help = Help.forCommand(String(name)) ?? ""
            // serve, explain and draw take every option of run besides their own.
            let runs = help.contains("every option of gesturemap run") || help.contains("run's options")
            let own = options(in: help)
            let inherited = runs ? options(in: Help.run).filter { option in !own.contains { !Set($0.names).isDisjoint(with: option.names) } } : []
            commands.append(Command(name: String(name), summary: summary, options: own + inherited,
                                    takesPaths: usagePositionals(help).contains { ["INPUT", "FILE", "RULES", "CASE", "DEVICE"].contains(String($0.prefix { $0 != "." })) }))
        }
        return CompletionTable(commands: commands)
    }

    /// The description after the two or more spaces that end a help line's left column.
    static func summary(of line: String) -> String {
        var left = Substring(line).drop { $0 == " " }
        while !left.isEmpty {
            if left.hasPrefix("  ") { return String(left.drop { $0 == " " }) }
            left = left.dropFirst()
        }
        return ""
    }

    /// Every option a help text lists in its options section, and those only
    /// its usage line names (`[--seed N]`).
    static func options(in help: String) -> [Option] {
        var found: [Option] = []
        func add(_ option: Option) {
            guard !option.names.isEmpty, !found.contains(where: { !Set($0.names).isDisjoint(with: option.names) }) else { return }
            found.append(option)
        }
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            // The section under "options:", to its blank line: elsewhere a wrapped
            // sentence may begin with an option's name.
            if trimmed == "options:" { inOptions = true; continue }
            if trimmed.isEmpty { inOptions = false }
            if inOptions, trimmed.hasPrefix("-") {
                // "-r, --rules FILE        Lua rules", "--flip-x[=DEV], --flip-y[=DEV]"
                let column = left(of: String(trimmed))
                let description = summary(of: "  " + String(trimmed))
                var names: [String] = []
                var argument: String?
                // Aliases are ", -" apart ("-r, --rules FILE"); a comma in "N[,M]" is the argument's.
                for part in column.replacingAll(", -", with: "\u{1}-").split(separator: "\u{1}") {
                    let words = part.split(separator: " ")
                    for (i, word) in words.enumerated() where word.hasPrefix("-") {
                        let next = i + 1 < words.count ? Self.argumentName(words[i + 1]) : nil
                        if i > 0 {
                            // "--cert FILE --key FILE": a second option on the line, the same description.
                            add(Option(names: [String(word)], argument: next, summary: description))
                            continue
                        }
                        names.append(String(word.prefix { $0 != "[" && $0 != "=" }))
                        if let next { argument = next }
                    }
                }
                add(Option(names: names, argument: argument, summary: description))
            }
        }
        for line in help.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("usage:") || line.hasPrefix("           gesturemap") {
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "[") {
                let inside = rest[rest.index(after: open)...].prefix { $0 != "]" }
                rest = rest[rest.index(after: open)...].dropFirst(inside.count)
                // "[--seed N]", "[--cert FILE --key FILE]"
                let words = inside.split(separator: " ")
                for (i, word) in words.enumerated() where word.hasPrefix("-") {
                    let next = i + 1 < words.count ? words[i + 1] : ""
                    let argument = next.first?.isUppercase == true ? String(next) : nil
                    add(Option(names: [String(word.prefix { $0 != "=" })], argument: argument, summary: ""))
                }
            }
        }
        return found
    }

    /// "[DEV=]DEG" → "DEG", "N[,M]" → "N", "WxH" stays: what a shell shows while the value is typed.
    static func argumentName(_ word: Substring) -> String {
        var out = ""
        var depth = 0
        for c in word {
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 } else if depth == 0 && c != "\"" { out.append(c) }
        }
        return out.isEmpty ? String(word) : out
    }

    /// The left column of an options line: up to two spaces in a row.
    private static func left(of line: String) -> String {
        var out = ""
        var previousSpace = false
        for c in line {
            if c == " " && previousSpace { out.removeLast(); return out }
            previousSpace = c == " "
            out.append(c)
        }
        return out
    }

    /// The usage line's words outside its option groups (`[--rules FILE]`):
    /// "INPUT", "FILE", "...".
    private static func usagePositionals(_ help: String) -> [String] {
        guard let usage = help.split(separator: "\n").first(where: { $0.contains("usage:") }) else { return [] }
        var words: [String] = []
        var rest = Substring(usage)
        while let c = rest.first {
            if c == "[" && rest.dropFirst().first == "-" {
                rest = rest.drop { $0 != "]" }.dropFirst()
                continue
            }
            let word = rest.prefix { $0 != " " && $0 != "[" && $0 != "]" }
            if !word.isEmpty { words.append(String(word)) }
            rest = rest.dropFirst(max(word.count, 1))
        }
        return words
    }
}
