/// A YAML node as libyaml read it, with the line it starts on (1-based).
/// Aliases are resolved to copies of their anchors and merge keys (`<<`) applied.
public struct YAMLNode: Sendable {
    public indirect enum Value: Sendable {
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var line: Int
    public var value: Value
    /// Nodes in this subtree, counting each alias's copy: what reading it costs.
    var size: Int
    /// A scalar's tag as libyaml resolved it (`tag:yaml.org,2002:binary` for
    /// `!!binary`, `!` for the non-specific one); nil when it has none.
    public var tag: String?
    /// Whether the node was written as an alias (`*name`), here its anchor's copy.
    public var isAlias = false

    init(line: Int, value: Value, size: Int, tag: String? = nil) {
        self.line = line
        self.value = value
        self.size = size
        self.tag = tag
    }

    /// The text of a scalar; nil for a sequence or a mapping.
    public var scalar: String? {
        if case .scalar(let s, _) = value { return s }
        return nil
    }

    /// YAML 1.1's null: an empty plain scalar, `~` or `null`.
    public var isNull: Bool {
        if case .scalar(let s, let plain) = value { return plain && ["", "~", "null", "Null", "NULL"].contains(s) }
        return false
    }

    public var pairs: [YAMLPair]? {
        if case .mapping(let p) = value { return p }
        return nil
    }

    public var items: [YAMLNode]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// A whole number written plainly, such as a finger count; nil otherwise or out of range.
    public var integer: Int? {
        guard case .scalar(let s, _) = value, !s.isEmpty, s.count <= 9, s.allSatisfy(\.isASCII), let n = Int(s) else { return nil }
        return n
    }

    /// A finite number, such as a threshold.
    public var number: Double? {
        guard case .scalar(let s, _) = value, s.count <= 64, let d = Double(s), d.isFinite else { return nil }
        return d
    }

    /// Whether Ruby's Psych, which fusuma reads its file with (a full loader:
    /// tags are resolved, plain scalars typed), makes it a String: an untagged
    /// plain scalar Psych reads as no number, boolean, null or date, or one
    /// tagged `!` or `!!str`, or quoted.
    public var isRubyString: Bool {
        guard case .scalar(let s, let plain) = value else { return false }
        if let tag { return tag == "!" || tag == "tag:yaml.org,2002:str" }
        return !plain || !YAMLNode.psychTypes(s)
    }

    /// Psych's ScalarScanner: the plain scalars it reads as null, a boolean,
    /// an integer, a float or a date and time rather than a string.
    static func psychTypes(_ s: String) -> Bool {
        if ["", "~", "null", "Null", "NULL"].contains(s) { return true }
        let lower = s.lowercased()
        if ["yes", "no", "true", "false", "on", "off"].contains(lower) { return true }
        if [".inf", "-.inf", "+.inf", ".nan"].contains(lower) { return true }
        let bytes = Array(s.utf8)
        func all(_ range: ArraySlice<UInt8>, _ allowed: (UInt8) -> Bool) -> Bool { !range.isEmpty && range.allSatisfy(allowed) }
        let digit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        var body = bytes[...]
        if let f = body.first, f == UInt8(ascii: "+") || f == UInt8(ascii: "-") { body = body.dropFirst() }
        // Integers: decimal with _ or , between digits, 0x, 0o, 0b, and 0-led octal.
        if all(body, { digit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ",") }), body.first.map(digit) == true { return true }
        if body.count > 2, body.first == UInt8(ascii: "0"), [UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "b")].contains(body[body.startIndex + 1]) { return true }
        // Floats: digits with one point, an optional exponent.
        if let point = body.firstIndex(of: UInt8(ascii: ".")) {
            let whole = body[..<point]
            var fraction = body[(point + 1)...]
            if let e = fraction.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) { fraction = fraction[..<e] }
            if (whole.isEmpty || all(whole, { digit($0) || $0 == UInt8(ascii: "_") })) && (fraction.isEmpty || all(fraction, digit)) && !(whole.isEmpty && fraction.isEmpty) { return true }
        }
        // Dates: 2001-12-14, and times after them.
        if bytes.count >= 8, all(bytes[0..<4], digit), bytes[4] == UInt8(ascii: "-") {
            let parts = bytes[5...].split(separator: UInt8(ascii: "-"), maxSplits: 1)
            if parts.count == 2, all(parts[0], digit), parts[0].count <= 2, parts[1].prefix(2).allSatisfy(digit) { return true }
        }
        return false
    }

    /// YAML 1.1's true, as Ruby's Psych reads it.
    public var isTrue: Bool {
        guard let s = scalar else { return false }
        return ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"].contains(s)
    }
}

public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}
