/// An editor's save can take several writes: the reload waits until the
/// rules file has been quiet a moment, in the loop's own timeout so touches
/// are served meanwhile, and never longer than a second after the first
/// change, so a file rewritten without pause is still reloaded.
struct ReloadSettle {
    static let quiet = 0.1
    static let longest = 1.0

    private enum State {
        case idle
        case settling(firstChange: Double, lastChange: Double)
    }

    private var state = State.idle

    mutating func changed(at now: Double) {
        switch state {
        case .idle: state = .settling(firstChange: now, lastChange: now)
        case .settling(let first, _): state = .settling(firstChange: first, lastChange: now)
        }
    }

    /// When the reload is due, if one is waiting.
    var due: Double? {
        guard case let .settling(first, last) = state else { return nil }
        return min(last + ReloadSettle.quiet, first + ReloadSettle.longest)
    }

    /// True (once) when the reload should happen now.
    mutating func takeDue(at now: Double) -> Bool {
        guard let due, now >= due else { return false }
        state = .idle
        return true
    }
}
