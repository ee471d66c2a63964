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
