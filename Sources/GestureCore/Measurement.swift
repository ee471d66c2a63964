/// What failed a recognizer, as a number against the limit it broke and the
/// `config` key that sets that limit: "speed 11 mm/s < 50 mm/s (swipe_min_speed)".
/// `--trace` and `explain` print it; tools read its fields from `--trace=json`.
public struct Measurement: Equatable, Sendable, CustomStringConvertible {
    public enum Bound: String, Equatable, Sendable {
        /// The value fell short of a minimum.
        case minimum
        /// The value went past a maximum.
        case maximum
    }

    /// What was measured, as the sentence names it: "moved", "speed", "held".
    public var quantity: String
    public var value: Double
    public var limit: Double
    /// "mm", "s", "mm/s", "°", or "" for a ratio.
    public var unit: String
    public var bound: Bound
    /// The `config` key that sets `limit`; nil for a limit that is not one.
    public var key: Threshold?

    public init(_ quantity: String, _ value: Double, _ bound: Bound, _ limit: Double, unit: String, key: Threshold?) {
        self.quantity = quantity
        self.value = value
        self.bound = bound
        self.limit = limit
        self.unit = unit
        self.key = key
    }

    /// The value past a maximum that `key` sets (its unit is the key's).
    public static func over(_ quantity: String, _ value: Double, _ key: Threshold, limit: Double) -> Measurement {
        Measurement(quantity, value, .maximum, limit, unit: key.shortUnit, key: key)
    }

    /// The value short of a minimum that `key` sets.
    public static func under(_ quantity: String, _ value: Double, _ key: Threshold, limit: Double) -> Measurement {
        Measurement(quantity, value, .minimum, limit, unit: key.shortUnit, key: key)
    }

    public var description: String {
        let shown = Self.format(value), limitShown = Self.format(limit)
        // A deadline fails a gesture at the limit itself: "2 s ≥ 2 s", not "2 s > 2 s".
        let sign = shown == limitShown ? (bound == .minimum ? "≤" : "≥") : (bound == .minimum ? "<" : ">")
        var text = "\(quantity) \(shown)\(spaced(unit)) \(sign) \(limitShown)\(spaced(unit))"
        if let key { text += " (\(key.rawValue))" }
        return text
    }

    /// The limit without the value: "speed < 50 mm/s (swipe_min_speed)", for tallies.
    public var limitWords: String {
        "\(quantity) \(bound == .minimum ? "<" : ">") \(Self.format(limit))\(spaced(unit))" + (key.map { " (\($0.rawValue))" } ?? "")
    }

    private func spaced(_ unit: String) -> String {
        unit.isEmpty || unit == "°" ? unit : " " + unit
    }

    /// Two significant decimals below 10, whole numbers above: "6.2", "1.42", "11".
    /// Never traps, whatever the value.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let magnitude = abs(value)
        let decimals = magnitude >= 10 ? 0 : magnitude >= 1 ? 2 : 3
        var text = String(Int(clamping: (value * pow10(decimals)).rounded()))
        guard decimals > 0 else { return text }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        while text.count <= decimals { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return (negative && text != "0" ? "-" : "") + text
    }

    private static func pow10(_ n: Int) -> Double {
        n == 0 ? 1 : n == 1 ? 10 : n == 2 ? 100 : 1000
    }
}

extension Threshold {
    /// The unit as a measurement prints it: degrees as "°", ratios bare.
    var shortUnit: String {
        switch unit {
        case "degrees": return "°"
        case "ratio": return ""
        default: return unit
        }
    }
}
