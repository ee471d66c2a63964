import GestureEngine
import GestureActions
import GestureCore

/// `gesturemap explain`: replays an input through the rules (as `run --dry-run`
/// would), keeping the arenas' decisions, and explains each touch sequence.
public struct ExplainRequest {
    public var options: RunOptions

    public init(options: RunOptions) {
        var o = options.forReplayTool
        o.trace = nil
        self.options = o
    }

    /// Explains the input sequence by sequence, handing each to `tell` as soon
    /// as it is final (`tell` returns false to stop the run there); then the rules and their tally, or the run's failing
    /// status. Messages of the run go to `console`.
    public func explain(console: Console, tell: @escaping (Explanation.Sequence) -> Bool,
                        tellPress: @escaping (Explanation.Press) -> Bool = { _ in true })
        -> Result<(rules: [Explanation.Rule], tally: ExplanationTally), ExitCode> {
        let session = ExplainSession(tell: tell, tellPress: tellPress)
        guard let engine = Engine(options: options, console: console, output: CollectingSink()) else { return .failure(.unavailable) }
        engine.observer = session
        engine.traceForObserver = true
        let status = engine.run()
        guard status == .ok else { return .failure(status) }
        session.finish(engine)
        return .success((session.rules, session.tally))
    }

    /// The run's rules as `explain` names them.
    static func rules(of engine: Engine) -> [Explanation.Rule] {
        let specs = engine.rules
        return specs.indices.map { i in
            let described = engine.describeRule(RuleID(i))
            return Explanation.Rule(index: i, label: RuleLabel(index: i, name: described?.label ?? specs[i].spec.phrase).description,
                                    definedAt: described?.definedAt ?? "", spec: specs[i].spec, isActive: specs[i].isActive)
        }
    }
}
