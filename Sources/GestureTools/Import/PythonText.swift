/// Python's text rules, as libinput-gestures (a Python program) reads its
/// file: what `str.isspace`, `strip()`, `split()`, `isdigit()`, `int()` and
/// `float()` accept, and how a file in text mode is cut into lines.
enum PythonText {
    /// `str.isspace`: the Unicode white space and the ASCII separators 0x1C-0x1F.
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `str.strip()`.
    static func strip(_ text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        var s = text
        while let f = s.first, isSpace(f) { s.removeFirst() }
        while let l = s.last, isSpace(l) { s.removeLast() }
        return s
    }

    static func strip(_ text: String) -> String {
        String(Substring(strip(Substring(text).unicodeScalars)))
    }

    /// `str.split(maxsplit=n)`: words between runs of white space, the last
    /// piece the rest as it stands (its leading white space dropped).
    static func split(_ text: String, maxSplit: Int) -> [String] {
        var words: [String] = []
        var rest = Substring(text).unicodeScalars
        while true {
            while let f = rest.first, isSpace(f) { rest.removeFirst() }
            if rest.isEmpty { return words }
            if words.count == maxSplit {
                words.append(String(Substring(rest)))
                // split() drops the white space at the end of the rest only when it splits there.
                return words
            }
            let end = rest.firstIndex(where: isSpace) ?? rest.endIndex
            words.append(String(Substring(rest[..<end])))
            rest = rest[end...]
        }
    }

    /// A text file's lines as Python reads them in text mode: universal
    /// newlines, so LF, CR and CR LF each end a line (and nothing else does).
    static func lines(_ text: String) -> [Substring.UnicodeScalarView] {
        var lines: [Substring.UnicodeScalarView] = []
        let scalars = Substring(text).unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            let s = scalars[i]
            if s == "\n" || s == "\r" {
                lines.append(scalars[start..<i])
                var next = scalars.index(after: i)
                if s == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                start = next
                i = next
            } else {
                i = scalars.index(after: i)
            }
        }
        if start < scalars.endIndex { lines.append(scalars[start...]) }
        return lines
    }

    /// `str.isdigit()` for one character: a decimal digit or a digit such as ² or ①.
    static func isDigit(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.numericType {
        case .decimal?, .digit?: return true
        default: return false
        }
    }

    /// Python's `int(text)` (base 10), or nil where it raises: white space
    /// around, a sign, any script's decimal digits, single `_` between digits.
    /// As a Double, since Python's integers have no bound.
    static func int(_ text: String) -> Double? {
        guard let digits = decimalDigits(strip(text), allowingSign: true) else { return nil }
        return Double(digits)
    }

    /// Python's `float(text)`, or nil where it raises.
    static func float(_ text: String) -> Double? {
        let stripped = strip(text)
        var body = Substring(stripped)
        var sign = ""
        if let f = body.first, f == "+" || f == "-" {
            sign = String(f)
            body = body.dropFirst()
        }
        switch body.lowercased() {
        case "inf", "infinity": return Double(sign + "infinity")
        case "nan": return Double.nan
        default: break
        }
        // Mantissa and exponent: digits with single `_` between digits, as int() takes them.
        var mantissa = body
        var exponent: Substring = ""
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = body[..<e]
            exponent = body[body.index(after: e)...]
            guard !exponent.isEmpty else { return nil }
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !(parts.count == 2 && whole.isEmpty && parts[1].isEmpty) else { return nil }
        var ascii = sign
        if whole.isEmpty { ascii += "0" }
        if !whole.isEmpty {
            guard let digits = decimalDigits(String(whole), allowingSign: false) else { return nil }
            ascii += digits
        }
        if parts.count == 2 {
            ascii += "."
            if !parts[1].isEmpty {
                guard let digits = decimalDigits(String(parts[1]), allowingSign: false) else { return nil }
                ascii += digits
            }
        } else if whole.isEmpty {
            return nil
        }
        if !exponent.isEmpty {
            guard let digits = decimalDigits(String(exponent), allowingSign: true) else { return nil }
            ascii += "e" + digits
        }
        return Double(ascii)
    }

    /// The ASCII digits of `[sign]digit(_?digit)*`, any script's decimal
    /// digits read as their values; nil when the text is not that.
    static func decimalDigits(_ text: String, allowingSign: Bool) -> String? {
        var out = ""
        var scalars = Substring(text).unicodeScalars[...]
        if allowingSign, let f = scalars.first, f == "+" || f == "-" {
            if f == "-" { out.append("-") }
            scalars = scalars.dropFirst()
        }
        var previousWasDigit = false
        var sawDigit = false
        for s in scalars {
            if s == "_" {
                guard previousWasDigit else { return nil }
                previousWasDigit = false
                continue
            }
            guard s.properties.numericType == .decimal, let value = s.properties.numericValue, value >= 0, value <= 9 else { return nil }
            out.append(String(Int(value)))
            previousWasDigit = true
            sawDigit = true
        }
        return sawDigit && previousWasDigit ? out : nil
    }
}
