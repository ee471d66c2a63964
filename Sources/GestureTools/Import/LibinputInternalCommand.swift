/// libinput-gestures' `_internal` command reads its arguments with Python's
/// argparse as the file is read (COMMAND_internal: `-w`/`--wrap`,
/// `-c`/`--cols N`, the legacy `--row N` and `--col N`, and one of the
/// `ws_*` actions); arguments it refuses make it stop at that line, and
/// `-h` makes it print its help and exit. The error, or nil when it takes them.
enum LibinputInternalCommand {
    static let actions = ["ws_up", "ws_down", "ws_left", "ws_right", "ws_left_up", "ws_left_down", "ws_right_up", "ws_right_down"]
    static let longOptions = ["--wrap", "--cols", "--row", "--col", "--help"]

    struct Refused: Error { var message: String }

    static func problem(_ arguments: [String]) -> String? {
        var positional: [String] = []
        var cols: Double?
        var row = 0.0, col = 0.0
        var onlyPositional = false
        var i = 0
        func value(_ inline: String?, for option: String) -> Result<Double, Refused> {
            var text = inline
            if text == nil {
                guard i + 1 < arguments.count, !looksLikeOption(arguments[i + 1]) else { return .failure(Refused(message: "argument \(option): expected one argument")) }
                i += 1
                text = arguments[i]
            }
            guard let number = PythonText.int(text ?? "") else { return .failure(Refused(message: "argument \(option): invalid int value: '\(text ?? "")'")) }
            return .success(number)
        }
        while i < arguments.count {
            let a = arguments[i]
            defer { i += 1 }
            if onlyPositional || !looksLikeOption(a) {
                positional.append(a)
                continue
            }
            if a == "--" {
                onlyPositional = true
                continue
            }
            if a.hasPrefix("--") {
                let parts = a.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = parts[0]
                let matches = longOptions.contains(name) ? [name] : longOptions.filter { $0.hasPrefix(name) }
                guard matches.count == 1, let option = matches.first else {
                    return matches.isEmpty ? "unrecognized arguments: \(a)" : "ambiguous option: \(name) could match \(matches.joined(separator: ", "))"
                }
                let inline = parts.count > 1 ? parts[1] : nil
                switch option {
                case "--help": return "-h/--help: argparse prints the help and exits, so libinput-gestures stops there"
                case "--wrap":
                    if inline != nil { return "argument -w/--wrap: ignored explicit argument" }
                default:
                    switch value(inline, for: option == "--cols" ? "-c/--cols" : option) {
                    case .failure(let refused): return refused.message
                    case .success(let n):
                        if option == "--cols" { cols = n } else if option == "--row" { row = n } else { col = n }
                    }
                }
                continue
            }
            // Short options, which may be run together: -w, -c N, -cN, -wc N.
            var letters = Substring(a.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                switch letter {
                case "h": return "-h/--help: argparse prints the help and exits, so libinput-gestures stops there"
                case "w": continue
                case "c":
                    switch value(letters.isEmpty ? nil : String(letters.drop { $0 == "=" }), for: "-c/--cols") {
                    case .failure(let refused): return refused.message
                    case .success(let n): cols = n
                    }
                    letters = ""
                default:
                    return "unrecognized arguments: \(a)"
                }
            }
        }
        guard let action = positional.first else { return "the following arguments are required: action" }
        guard positional.count == 1 else { return "unrecognized arguments: \(positional.dropFirst().joined(separator: " "))" }
        guard let index = actions.firstIndex(of: action) else {
            return "argument action: invalid choice: '\(action)' (choose from \(actions.map { "'\($0)'" }.joined(separator: ", ")))"
        }
        if index >= 2 {
            if row != 0 || col != 0 { return "Legacy \"--row\" and \"--col\" not supported" }
            if let cols {
                if cols < 1 { return "\"--cols\" must be >= 1" }
            } else if index >= 4 {
                return "\"--cols\" must be specified"
            }
        } else if let cols, cols < 1 {
            return "\"--cols\" must be >= 1"
        }
        return nil
    }

    /// argparse takes `-` and negative numbers as values, anything else starting with `-` as an option.
    static func looksLikeOption(_ a: String) -> Bool {
        guard a.hasPrefix("-"), a != "-" else { return false }
        // argparse's negative numbers: -5, -.5, -1.5.
        let parts = a.dropFirst().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        let isNegativeNumber = parts.count == 1 ? !parts[0].isEmpty && digits(parts[0]) : digits(parts[0]) && !parts[1].isEmpty && digits(parts[1])
        return !isNegativeNumber
    }
}
