/// How people know a rule: for pictures and explanations of a run.
extension ScriptRuntime {
    /// The rule's name, or its gesture's phrase, and where `on()` defined it.
    public func describeRule(_ index: Int) -> (label: String, definedAt: String)? {
        guard index >= 0, index < rules.count else { return nil }
        return (rules[index].label, rules[index].definedAt)
    }
}
