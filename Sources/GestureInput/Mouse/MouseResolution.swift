import GestureCore

/// How many counts a mouse reports a millimetre: from the rules' `config{}`
/// key when set, else from udev's `MOUSE_DPI` (systemd's hwdb, 70-mouse.hwdb),
/// else 1000 dpi, the resolution libinput assumes when it has none.
public struct MouseResolution: Equatable, Sendable {
    public enum Source: String, Equatable, Sendable {
        case config, hwdb, fallback
    }

    public var dotsPerInch: Int
    public var source: Source

    public init(dotsPerInch: Int, source: Source) {
        self.dotsPerInch = dotsPerInch
        self.source = source
    }

    public var countsPerMillimetre: Double { Double(dotsPerInch) / 25.4 }

    public static let fallback = MouseResolution(dotsPerInch: 1000, source: .fallback)
    /// No mouse reports more than this; a value past it is a typo, not a mouse.
    public static let maxDotsPerInch = 100_000

    /// The resolution to use, and what to say about a `MOUSE_DPI` that could
    /// not be read (the fallback is used then).
    public static func choose(configured: Int?, udev entry: UdevDatabase.Entry?) -> (resolution: MouseResolution, problem: String?) {
        if let configured { return (MouseResolution(dotsPerInch: configured, source: .config), nil) }
        guard let value = entry?.properties["MOUSE_DPI"] else { return (fallback, nil) }
        switch parse(value) {
        case .success(let dpi): return (MouseResolution(dotsPerInch: dpi, source: .hwdb), nil)
        case .failure(let problem): return (fallback, "udev's MOUSE_DPI \(quoted(value)): \(problem.description); using \(fallback.dotsPerInch) dpi (set config{ mouse_dpi = N } to give the mouse's own)")
        }
    }

    /// Why a `MOUSE_DPI` value is no resolution.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case empty
        case notAResolution(String)
        case outOfRange(String)

        public var description: String {
            switch self {
            case .empty: return "it is empty"
            case .notAResolution(let item): return "\(quoted(item)) is not a resolution (DPI or DPI@Hz, the default marked with *)"
            case .outOfRange(let item): return "\(quoted(item)) is out of range (1 to \(MouseResolution.maxDotsPerInch) dpi, a rate of 1 Hz or more)"
            }
        }
    }

    /// The default resolution of a `MOUSE_DPI` value: a single `DPI[@Hz]`, or
    /// a space-separated list of them with the default starred
    /// ("400@125 *800@125 1600@125"). A list without a star gives its last,
    /// as libinput reads it (src/util-prop-parsers.c), so that gesturemap's
    /// millimetres are the desktop's.
    public static func parse(_ value: String) -> Result<Int, Problem> {
        let items = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !items.isEmpty else { return .failure(.empty) }
        var chosen: Int?
        for item in items {
            var text = Substring(item)
            let starred = text.first == "*"
            if starred { text = text.dropFirst() }
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy(isDecimal) else { return .failure(.notAResolution(String(item))) }
            guard let dpi = Int(parts[0]), dpi >= 1, dpi <= maxDotsPerInch else { return .failure(.outOfRange(String(item))) }
            if parts.count == 2 {
                guard let rate = Int(parts[1]), rate >= 1 else { return .failure(.outOfRange(String(item))) }
            }
            if starred { return .success(dpi) }
            chosen = dpi
        }
        guard let chosen else { return .failure(.empty) }
        return .success(chosen)
    }

    private static func isDecimal(_ s: Substring) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Outside text, shown short and without terminal controls.
    private static func quoted(_ s: String) -> String {
        let short = s.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(80))) + "..." : s
        return "\"" + TerminalText.escaped(short) + "\""
    }
}
