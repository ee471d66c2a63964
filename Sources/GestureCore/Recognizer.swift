/// UIKit's recognizer states. Discrete recognizers go from `possible` straight to
/// `ended` (UIKit's "recognized") or `failed`.
public enum RecognizerState: String, Sendable {
    case possible, began, changed, ended, cancelled, failed

    /// No further transition until `reset()`.
    public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
    public var isRunning: Bool { self == .began || self == .changed }
}

/// One state change of one recognizer, with the gesture it reports if any.
public struct Transition: Sendable {
    public var kind: GestureKind
    public var from: RecognizerState
    public var to: RecognizerState
    /// What made it happen; `--trace` prints it.
    public var cause: TransitionCause
    public var event: GestureEvent?
    /// False for a gesture that finished in earlier touch sequences (taps that
    /// waited for a next tap that never came): it must not end the current one.
    public var claimsSequence: Bool
    /// A Lua recognizer's name: its kind is `custom`, shared by all of them.
    public var name: String?

    public init(kind: GestureKind, from: RecognizerState, to: RecognizerState, cause: TransitionCause,
                event: GestureEvent? = nil, claimsSequence: Bool = true, name: String? = nil) {
        self.kind = kind
        self.name = name
        self.from = from
        self.to = to
        self.cause = cause
        self.event = event
        self.claimsSequence = claimsSequence
    }
}

/// A value-type state machine over touch frames. No I/O, no clock: time arrives
/// with frames and with `advance(to:)` when a deadline passes.
public protocol Recognizer: Sendable {
    var kind: GestureKind { get }
    var state: RecognizerState { get }
    /// The input time at which `advance(to:)` must be called even if no frame comes.
    var deadline: Double? { get }
    mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition])
    /// The same, knowing whether another frame at this time follows (the
    /// continuity stage cut an instant into parts): a Lua recognizer is asked
    /// once an instant; the built-in kinds take every part.
    mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool, into out: inout [Transition])
    mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition])
    /// Forced failure (or cancellation, when running): arbitration, or the end
    /// of the sequence, or its fingers coming to rest.
    mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition])
    /// Back to `possible` for the next sequence.
    mutating func reset()
    /// True while the recognizer still watches touches that have lifted (a tap
    /// waiting for its next tap), so it must not be reset with the sequence.
    var spansSequences: Bool { get }
    /// A Lua recognizer's name: its kind, `custom`, is shared by all of them.
    var customName: String? { get }
    /// A decision it waits for from outside the core (a Lua recognizer's
    /// question): the arena pauses until `answer` brings it.
    var request: ExternalRequest? { get }
    mutating func answer(_ reply: ExternalReply, tracker: TouchTracker, into out: inout [Transition])
}

extension Recognizer {
    public var spansSequences: Bool { false }
    public var customName: String? { nil }
    public var request: ExternalRequest? { nil }
    public mutating func answer(_ reply: ExternalReply, tracker: TouchTracker, into out: inout [Transition]) {}

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool, into out: inout [Transition]) {
        handle(frame, tracker: tracker, into: &out)
    }
}

/// Which finger counts the bound rules ask for, as a bit set (bit n = n fingers).
public struct FingerMask: Equatable, Sendable {
    public var bits: UInt32

    public init(bits: UInt32 = 0) { self.bits = bits }

    public static let all = FingerMask(bits: ~0)

    public mutating func insert(_ count: FingerCount) {
        switch count {
        case .any: bits = ~0
        case .exactly(let n): if n >= 0 && n < 32 { bits |= 1 << UInt32(n) }
        }
    }

    public func contains(_ n: Int) -> Bool { n >= 0 && n < 32 && bits & (1 << UInt32(n)) != 0 }

    /// The largest bound count (capped at 10 for "any").
    public var maximum: Int {
        if bits == ~0 { return 10 }
        return bits == 0 ? 0 : 31 - bits.leadingZeroBitCount
    }

    public var isEmpty: Bool { bits == 0 }
}
