/// A rule's place in the rules as given. The core and the script layer hold
/// their two views of the same rules in this one order, so a delivery's id
/// names both the core's rule and the handler that receives it.
public struct RuleID: Hashable, Sendable, CustomStringConvertible {
    public let index: Int

    public init(_ index: Int) { self.index = index }

    /// As people count rules: from 1.
    public var description: String { "rule \(index + 1)" }
}

/// A rule as the core sees it: what it matches and how it arbitrates. Handlers
/// and actions live in the script layer, which refers to rules by `RuleID`.
public struct GestureRule: Sendable {
    public var spec: GestureSpec
    public var name: String?
    /// False while the rule's binding is disabled or its mode is not the current one.
    public var isActive: Bool
    /// A handler table receives every phase; a plain handler only the first
    /// (`began` for continuous gestures, `ended` for discrete ones).
    public var allPhases: Bool
    /// Names of rules whose gestures may be recognized alongside this one.
    public var simultaneousWith: [String]
    /// Names of rules that must fail before this one may be delivered.
    public var requiresFailureOf: [String]
    /// Recognizing this rule ends every other gesture, even default partners.
    public var exclusive: Bool
    /// How much of the gesture's context (the focused application, the keys
    /// held) the rule asks for: among the active rules that match a gesture, a
    /// higher rank wins before the narrower spec does, so a rule for one
    /// application overrides the general rule for the same gesture. The script
    /// layer keeps a rule active only while its context holds.
    public var contextRank: Int = 0
    /// Seconds on the input's clock after it fires before it may fire again.
    public var cooldown: Double = 0
    /// `claim = true`: on a device shared with the desktop, the touches of
    /// this rule's gesture are gesturemap's, and the desktop sees none of them.
    public var claims = false
    /// When its handler last received the first event of a gesture.
    public var lastFired: Double?

    public init(
        spec: GestureSpec, name: String? = nil, isActive: Bool = true, allPhases: Bool = false,
        simultaneousWith: [String] = [], requiresFailureOf: [String] = [], exclusive: Bool = false
    ) {
        self.spec = spec
        self.name = name
        self.isActive = isActive
        self.allPhases = allPhases
        self.simultaneousWith = simultaneousWith
        self.requiresFailureOf = requiresFailureOf
        self.exclusive = exclusive
    }
}

/// A gesture event for one rule's handler.
public struct Delivery: Sendable {
    public var rule: RuleID
    public var event: GestureEvent

    public init(rule: RuleID, event: GestureEvent) {
        self.rule = rule
        self.event = event
    }
}

extension Array where Element == GestureRule {
    /// The rule a mouse's gesture goes to among those `takes` accepts: live and
    /// out of its cooldown; the application's rule first, then the later one.
    public func mouseRule(at time: Double, where takes: (GestureRule) -> Bool) -> RuleID? {
        var best: (rule: Int, rank: Int)?
        for (i, rule) in enumerated() where takes(rule) && rule.mayReceive(at: time) {
            if let b = best, b.rank > rule.contextRank { continue }
            best = (i, rule.contextRank)
        }
        return best.map { RuleID($0.rule) }
    }
}
