import GestureCore

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
