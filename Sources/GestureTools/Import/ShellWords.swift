/// Command lines split into words, the way the tools that do not use a shell split them.
enum ShellWords {
    /// Python's `shlex.split(line)` (POSIX mode, no comments), which
    /// libinput-gestures uses: quotes group, a backslash escapes outside quotes
    /// and, inside double quotes, only `"` and `\`; `#` is an ordinary
    /// character; only space, tab, CR and LF part words. Read by code point,
    /// as Python reads it: a quote with a combining mark after it is still a quote.
    static func shlexSplit(_ line: String) -> Result<[String], ShlexError> {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var quote: Unicode.Scalar?
        var escaping = false
        for c in line.unicodeScalars {
            if escaping {
                // In double quotes a backslash escapes only the quote and itself.
                if quote == "\"" && c != "\"" && c != "\\" { word.append("\\") }
                word.append(c)
                escaping = false
                continue
            }
            if let q = quote {
                if c == q {
                    quote = nil
                } else if c == "\\" && q == "\"" {
                    escaping = true
                } else {
                    word.append(c)
                }
                continue
            }
            switch c {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            case "'", "\"":
                quote = c
                inWord = true
            case "\\":
                escaping = true
                inWord = true
            default:
                word.append(c)
                inWord = true
            }
        }
        if quote != nil { return .failure(.noClosingQuotation) }
        if escaping { return .failure(.noEscapedCharacter) }
        if inWord { words.append(String(word)) }
        return .success(words)
    }

    enum ShlexError: Error {
        case noClosingQuotation, noEscapedCharacter

        var message: String {
            switch self {
            case .noClosingQuotation: return "a quotation mark is not closed"
            case .noEscapedCharacter: return "the line ends with a backslash"
            }
        }
    }

    /// The words of a command line that a shell would take as they stand (no
    /// quotes, variables, globs, redirections or separators); nil otherwise.
    static func plainWords(_ line: String) -> [String]? {
        let special: Set<Character> = ["'", "\"", "\\", "$", "`", ";", "&", "|", "<", ">", "(", ")", "{", "}", "*", "?", "[", "]", "~", "#", "=", "!", "\n", "\r"]
        guard !line.contains(where: { special.contains($0) }) else { return nil }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return words.isEmpty ? nil : words
    }
}
