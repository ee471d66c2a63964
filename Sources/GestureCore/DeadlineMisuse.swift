/// How a recognizer's deadlines would have kept the arena busy for ever:
/// each fails the recognizer (`TransitionCause.endlessDeadlines`).
public enum DeadlineMisuse: Equatable, Sendable, CustomStringConvertible {
    /// Its timeout set a new deadline this many times in a row, with no input frame between.
    case chain(Int)
    /// It still had a deadline past the last one pending when the input ended.
    case pastEndOfInput
    /// A deadline passed and it kept it, unchanged.
    case kept

    public var description: String {
        switch self {
        case .chain(let n): return "its timeout set \(n) deadlines in a row with no input between; a timeout must stop re-arming"
        case .pastEndOfInput: return "it set a deadline past the end of the input"
        case .kept: return "it kept its deadline after it passed"
        }
    }
}
