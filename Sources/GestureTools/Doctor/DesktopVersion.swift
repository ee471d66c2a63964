/// A desktop's version as its program prints it ("GNOME Shell 43.9",
/// "sway version 1.7", Hyprland's tag "v0.50.1"), to judge what that version
/// does: a feature came in some release and does nothing before it.
struct DesktopVersion: Comparable, Sendable {
    /// Major, minor, patch, as far as given.
    var numbers: [Int]
    /// As printed, for people: "43.9", "1.7", "0.50.1".
    var text: String

    var major: Int { numbers.first ?? 0 }

    init(_ numbers: Int..., text: String? = nil) {
        self.numbers = numbers
        self.text = text ?? numbers.map(String.init).joined(separator: ".")
    }

    /// The first word of `output` that is a dotted version; nil when none is.
    init?(parsing output: String?) {
        guard let output else { return nil }
        for word in output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let text = String(word.drop { !$0.isNumber })
            guard text.contains(".") else { continue }
            // "2-b" in "v0.41.2-b": the number is the digits it starts with.
            let numbers = text.split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
            guard let first = numbers.first, first != nil else { continue }
            self.numbers = numbers.prefix { $0 != nil }.compactMap { $0 }
            self.text = text
            return
        }
        return nil
    }

    /// 1.7 < 1.8, 1.8 == 1.8.0, 0.50.1 < 0.51.
    static func < (a: DesktopVersion, b: DesktopVersion) -> Bool {
        for i in 0..<max(a.numbers.count, b.numbers.count) {
            let x = i < a.numbers.count ? a.numbers[i] : 0
            let y = i < b.numbers.count ? b.numbers[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    static func == (a: DesktopVersion, b: DesktopVersion) -> Bool { !(a < b) && !(b < a) }
}
