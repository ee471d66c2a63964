import GestureActions
import GestureCore

/// `gesturemap explain`: replays an input through the rules (as `run --dry-run`
/// would), keeping the arenas' decisions, and explains each touch sequence.
public struct ExplainRequest {
    public var options: RunOptions

    public init(options: RunOptions) {
        var o = options
        o.dryRun = true
        o.watchRules = false
        o.realtime = false
        o.trace = nil
        self.options = o
    }

    /// The explanation, or the run's failing status. Messages of the run go to `console`.
    public func explain(console: Console) -> Result<Explanation, ExitCode> {
        let capture = SessionCapture()
        let engine = Engine(options: options, console: console, output: CollectingSink())
        engine.observer = capture
        engine.traceForObserver = true
        let status = engine.run()
        guard status == .ok else { return .failure(status) }
        return .success(Explanation(rules: Self.rules(of: engine), captured: capture.sequences))
    }

    /// The run's rules as `explain` names them.
    static func rules(of engine: Engine) -> [Explanation.Rule] {
        let specs = engine.runtime?.coreRules ?? []
        return specs.indices.map { i in
            let described = engine.runtime?.describeRule(i)
            return Explanation.Rule(index: i, label: "rule \"\(described?.label ?? specs[i].spec.phrase)\"",
                                    definedAt: described?.definedAt ?? "", spec: specs[i].spec, isActive: specs[i].isActive)
        }
    }
}
