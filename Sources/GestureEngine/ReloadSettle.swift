/// When to reload the rules. An editor's save can take several writes: a
/// change waits until the file has been quiet a moment, in the loop's own
/// timeout so touches are served meanwhile, and never longer than a second
/// after the first change, so a file rewritten without pause is still
/// reloaded. SIGHUP asks for a reload at once.
///
/// A load may take up to a second of Lua (its budget), and a file rewritten
/// or signalled without pause (a rule that touches its own file) would
/// reload back to back: after each reload the next waits nine times as long
/// as it took, so reloads take at most a tenth of the loop's time.
///
/// A file that reads empty is being written (rewritten in place, it is empty
/// between its truncation and the first write): the rules running go on, and
/// the next change of the file is read at once, with no quiet time to wait
/// for, since a file rewritten without pause never goes quiet.
struct ReloadSettle {
    static let quiet = 0.1
    static let longest = 1.0
    /// The most of the loop's time reloads may take.
    static let share = 0.1

    enum Reason: Equatable {
        case signal, fileChanged

        var description: String { self == .signal ? "SIGHUP" : "the file changed" }
    }

    private enum Pending {
        case none
        case fileChanged(firstChange: Double, lastChange: Double)
        /// A SIGHUP; a change of the file waiting then is included.
        case signalled
        /// The file read empty; nothing is due until it changes again.
        case awaitingContent
        /// It changed after reading empty: read it again as soon as may be.
        case contentArrived
    }

    private var pending: Pending

    /// `runningNothing`: no rules run yet (an empty file at start, perhaps
    /// read while it was being written): nothing is lost by reading the first
    /// change at once.
    init(runningNothing: Bool = false) {
        pending = runningNothing ? .awaitingContent : .none
    }
    /// The last reload's end plus its share of rest.
    private(set) var notBefore = -Double.infinity

    mutating func changed(at now: Double) {
        switch pending {
        case .none: pending = .fileChanged(firstChange: now, lastChange: now)
        case .fileChanged(let first, _): pending = .fileChanged(firstChange: first, lastChange: now)
        case .awaitingContent: pending = .contentArrived
        case .signalled, .contentArrived: break
        }
    }

    /// The reload that was due read an empty file.
    mutating func readEmpty() {
        pending = .awaitingContent
    }

    mutating func signalled() {
        pending = .signalled
    }

    /// When the reload is due, if one is waiting.
    var due: Double? {
        switch pending {
        case .none, .awaitingContent: return nil
        case .fileChanged(let first, let last): return max(min(last + Self.quiet, first + Self.longest), notBefore)
        case .signalled, .contentArrived: return notBefore
        }
    }

    /// Why to reload, once, when the reload should happen now.
    mutating func takeDue(at now: Double) -> Reason? {
        guard let due, now >= due else { return nil }
        defer { pending = .none }
        if case .signalled = pending { return .signal }
        return .fileChanged
    }

    /// A reload ran from `start` to `end` (monotonic seconds).
    mutating func reloaded(from start: Double, to end: Double) {
        let took = max(end - start, 0)
        notBefore = end + took * (1 / Self.share - 1)
    }
}
