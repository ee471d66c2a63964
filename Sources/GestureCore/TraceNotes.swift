/// What the input was made into before the recognizers saw it (`input:` in the trace).
public enum InputNote: Equatable, Sendable, CustomStringConvertible {
    case repaired(ContinuityRepair)
    /// The fingers down came to rest as another landed.
    case cameToRest(fingers: Int)

    public var description: String {
        switch self {
        case .repaired(let repair): return repair.description
        case .cameToRest(let fingers): return "\(fingers == 1 ? "a finger" : "\(fingers) fingers") came to rest"
        }
    }
}

/// The core caught itself misbehaving and recovered (`bug:` in the trace).
public enum CoreBug: Equatable, Sendable, CustomStringConvertible {
    /// The recognizer `name`'s deadlines would have kept the arena busy for ever: it is failed.
    case deadline(name: String, DeadlineMisuse)
    case impossibleStep(ImpossibleStep)

    public var description: String {
        switch self {
        case let .deadline(name, misuse): return "\(name): \(misuse); failing it"
        case .impossibleStep(let step): return step.description
        }
    }
}

/// A step the state machine has no edge for (a driver's `changed` before
/// `began`): it changes nothing, and the arena traces it as a bug.
public struct ImpossibleStep: Equatable, Sendable, CustomStringConvertible {
    public var recognizer: String
    public var step: ExternalReply.StepName
    public var state: RecognizerState

    public init(recognizer: String, step: ExternalReply.StepName, state: RecognizerState) {
        self.recognizer = recognizer
        self.step = step
        self.state = state
    }

    public var description: String {
        "\(recognizer) was told \(step) while \(state.rawValue); the step was ignored"
    }
}
