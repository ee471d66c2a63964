import GestureCore
import GestureScript

/// Sees what a run does, for the author tools (`draw`, `explain`): frames as
/// they arrive and gestures as they are delivered. Set on the engine; nil costs
/// one check per frame.
public protocol EngineObserver: AnyObject {
    func engine(_ engine: Engine, sawFrame frame: TouchFrame)
    func engine(_ engine: Engine, delivered delivery: Delivery)
    /// What the arenas decided, when `Engine.traceForObserver` or `--trace` is on.
    func engine(_ engine: Engine, traced record: TraceRecord)
    /// A recorded mouse's press of a bound button ended: what became of it.
    func engine(_ engine: Engine, mouse press: MousePress)
}

extension EngineObserver {
    public func engine(_ engine: Engine, traced record: TraceRecord) {}
    public func engine(_ engine: Engine, mouse press: MousePress) {}
}

extension Engine {
    /// The rules as the cores match them, in order: what the author tools name.
    public var rules: [GestureRule] { runtime.coreRules }

    /// A rule's label and where the rules file defined it.
    public func describeRule(_ rule: RuleID) -> (label: String, definedAt: String)? {
        runtime.describeRule(rule)
    }
}
