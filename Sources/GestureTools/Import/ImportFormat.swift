/// The configuration formats `import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case fusuma
    case touchegg
    case libinputGestures = "libinput-gestures"
    case easystroke

    /// The tool's own name for people.
    public var toolName: String {
        switch self {
        case .fusuma: return "fusuma config.yml"
        case .touchegg: return "Touchégg touchegg.conf"
        case .libinputGestures: return "libinput-gestures.conf"
        case .easystroke: return "Easystroke actions file"
        }
    }

    /// Whether `needle` occurs in `bytes`.
    static func contains(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = bytes.startIndex
        let last = bytes.endIndex - needle.count
        while i <= last {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// The format a file's content is in, or nil when nothing in it says.
    /// Touchégg is XML with a `<touchégg>` root; libinput-gestures' lines start
    /// with `gesture`, `device`, `swipe_threshold` or `timeout`; fusuma's YAML has
    /// gesture sections (`swipe:`, `pinch:`...) or settings at its top level;
    /// Easystroke's actions file is a Boost text archive (`22 serialization::archive`).
    public static func detect(_ bytes: [UInt8]) -> ImportFormat? {
        // Boost's text archive starts with its signature, the length first.
        if bytes.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) }).starts(with: Array("22 serialization::archive".utf8)) {
            return .easystroke
        }
        let head = bytes.prefix(1 << 20)
        if ["<touchégg", "<touchegg", "touchégg>", "touchegg>"].contains(where: { contains(head, Array($0.utf8)) }) {
            return .touchegg
        }
        let text = String(decoding: head, as: UTF8.self)
        var fusumaLines = 0
        var libinputLines = 0
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard let first = line.first, first != "#" else { continue }
            if first == "<", let next = line.dropFirst().first, next.isLetter || next == "?" || next == "!" { return .touchegg }
            let word = line.prefix { $0 != " " && $0 != "\t" && $0 != ":" }
            let afterWord = line.dropFirst(word.count)
            if ["gesture", "device", "swipe_threshold", "timeout"].contains(String(word)),
               afterWord.first == " " || afterWord.first == "\t" || afterWord.hasPrefix(": ") || afterWord.hasPrefix(":\t") {
                if word != "gesture" || afterWord.drop(while: { $0 == ":" || $0 == " " || $0 == "\t" }).first?.isLetter == true {
                    libinputLines += 1
                }
            }
            if line == raw, afterWord.first == ":",
               ["swipe", "pinch", "rotate", "hold", "tap", "threshold", "interval", "plugin", "context"].contains(String(word)) {
                fusumaLines += 1
            }
            if raw.hasPrefix("---") { fusumaLines += 1 }
        }
        if libinputLines > 0 && libinputLines >= fusumaLines { return .libinputGestures }
        if fusumaLines > 0 { return .fusuma }
        return nil
    }
}

/// The fusuma release a file was written for: it decides which way a pinch
/// goes (fusuma 3.0 reversed pinch in and out).
public enum FusumaRelease: String, CaseIterable, Sendable {
    case two = "2"
    case three = "3"

    var number: Int { self == .two ? 2 : 3 }
}
