import GestureCore

/// How people know a rule: for pictures and explanations of a run.
extension ScriptRuntime {
    /// The rule's name, or its gesture's phrase, and where `on()` defined it.
    public func describeRule(_ rule: RuleID) -> (label: String, definedAt: String)? {
        guard rules.indices.contains(rule.index) else { return nil }
        return (rules[rule.index].label, rules[rule.index].definedAt)
    }
}
