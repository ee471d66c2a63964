import GestureCore

/// A rule as the script layer keeps it: the core's view plus its handler.
struct ScriptRule {
    var core: GestureRule
    /// Registry reference to the handler function or handler table.
    var handler: Int32
    var handlerIsTable: Bool
    /// "rules.lua:12", where `on()` was called.
    var definedAt: String
    var description: String?
    var enabled = true
    var removed = false
    /// Failures in a row; at `ScriptRuntime.maxConsecutiveFailures` the rule is disabled.
    var consecutiveFailures = 0

    var label: String { core.name ?? core.spec.phrase }
}

/// Rules that could not be loaded: every problem found, each as `file:line: message`.
public struct RuleLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String { problems.joined(separator: "\n") }
}
