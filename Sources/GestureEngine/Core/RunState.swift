import GestureCore

/// How far a run has come, whether it goes on, and who watches it.
struct RunState {
    var framesProcessed = 0
    var gesturesDelivered = 0
    /// `--timing`: per-frame processing time.
    var timer = FrameTimer()
    var end = RunEnd.goesOn
    /// The escape chord suspended sharing: every device is the desktop's until it is pressed again.
    var sharingSuspended = false
    var watchers = Watchers()
}

/// Whether a run goes on, and if not, why it ends: the one place every part
/// of a run (its sources, its replay, its actions, its output) asks.
enum RunEnd: Equatable {
    case goesOn
    /// As at its input's end: an author tool's reader went away, or a stop
    /// signal came (then the shares let go at once, and gesturemap dies of it).
    case stopped(bySignal: Bool)
    /// Its input ended it with this status: a read error, malformed input under `--strict`.
    case inputFailed(ExitCode)
    /// It cannot go on: no uinput for key(), stdout gone.
    case failed(ExitCode)

    var isOver: Bool { self != .goesOn }

    /// A stop asked for ends a run that goes on; a signal also marks a run
    /// stopped already, so that its shares let go without waiting.
    mutating func stop(bySignal: Bool) {
        switch self {
        case .goesOn: self = .stopped(bySignal: bySignal)
        case .stopped(false) where bySignal: self = .stopped(bySignal: true)
        default: break
        }
    }

    /// The input's end decides only while nothing else has.
    mutating func inputFailed(_ status: ExitCode) {
        if self == .goesOn { self = .inputFailed(status) }
    }

    /// The first failure is the one reported; it outranks an input's end, as the
    /// reason that input could not be acted on. `status` is worked out (and
    /// said, where that says something) only when it decides.
    mutating func fail(_ status: @autoclosure () -> ExitCode) {
        switch self {
        case .goesOn, .inputFailed: self = .failed(status())
        case .stopped, .failed: break
        }
    }

    /// What the run returns, given what its session returned.
    func status(after session: ExitCode) -> ExitCode {
        switch self {
        case .goesOn: return session
        case .stopped: return .ok
        case .inputFailed(let status), .failed(let status): return status
        }
    }
}

/// Who watches a run besides the rules: the author tools' observer, the
/// progress bar's console, and a hook for each delivery (`serve` shows the
/// gesture on the page it came from).
struct Watchers {
    /// Sees frames and deliveries, for `draw` and `explain`.
    weak var observer: EngineObserver? {
        didSet { observed = observer != nil }
    }
    /// Whether an observer was set: asked every frame, where loading the weak
    /// reference itself costs an atomic operation.
    private(set) var observed = false
    /// The arenas keep trace records for the observer even without `--trace` (explain).
    var traceForObserver = false
    /// Where a progress bar may go: the console, unless messages are captured
    /// while the terminal is still there (`gesturemap test`).
    var progressConsole: Console?
    /// Each gesture's first event, as it is delivered (`serve` shows its name on the page).
    var showGesture: ((GestureEvent) -> Void)?
}
