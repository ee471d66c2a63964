import Glibc
import GestureSystem

/// The focused application, kept current by the desktop's events, for the
/// engine's loop: poll `descriptors` with the input devices, call
/// `handleReadable()` when one is readable, and `tick(now:)` when `timeout(now:)`
/// has passed. A
/// backend that goes away (the X server or compositor restarts) is connected
/// again with growing pauses; meanwhile `current` is nil and gestures go on.
public final class AppTracker {
    public let choice: AppSourceChoice
    public private(set) var current: AppInfo?
    /// Called with each change of `current`, after it changed.
    public var onChange: ((AppInfo?) -> Void)?

    private let connect: (AppSourceChoice) throws(AppSourceLost) -> any AppBackend
    private let report: (String) -> Void
    private var backend: (any AppBackend)?
    /// An attempt under way on its own thread, since when, and whether its
    /// slowness was said.
    private var connecting: (attempt: ConnectAttempt, since: Double, toldSlow: Bool)?
    private var nextAttempt: Double?
    private var pause = AppTracker.firstPause
    /// Whether the last attempt failed, so a run of failures is said once.
    private var failing = false
    /// When the backend said "nothing focused": window managers clear the focus
    /// for a moment while they move it (openbox sets _NET_ACTIVE_WINDOW to None
    /// first), so nil counts only once it has lasted `settle` seconds.
    private var nothingSince: Double?
    static let settle = 0.1

    /// How long starting up waits for the first attempt: a source that
    /// answers at once is there for the first gesture, and one that does not
    /// answer keeps nothing else waiting longer.
    static let startWait = 2.0
    /// An attempt that has not ended after this long is said to be slow.
    static let slowAttempt = 5.0
    static let firstPause = 0.5
    static let longestPause = 5.0
    /// A connection that lasted less than this before it was lost does not
    /// reset the pause: a helper that floods or dies at once is retried ever
    /// more slowly, and said once.
    static let healthy = 10.0
    private var connectedAt: Double?
    private var lastLoss: String?
    /// A loss or failure was said: the connection that follows is said too.
    private var sayConnected = false

    /// Connects at once; a failure is one line through `report` and a retry later.
    /// `connect` makes the backend (tests pass their own).
    public init(choice: AppSourceChoice, now: Double = MonotonicClock.now(),
                report: @escaping (String) -> Void,
                connect: @escaping (AppSourceChoice) throws(AppSourceLost) -> any AppBackend = AppBackends.connect) {
        self.choice = choice
        self.report = report
        self.connect = connect
        if case .none(let reason) = choice {
            report("no app source: \(reason); g.app is nil")
            return
        }
        attempt(now: now)
        if let connecting, connecting.attempt.wait(upTo: AppTracker.startWait) {
            finishConnecting(now: MonotonicClock.now())
        }
    }

    deinit { backend?.close() }

    public var sourceName: String { choice.name.rawValue }
    public var isConnected: Bool { backend != nil }
    /// Connected, and the other side has answered (a socket can accept a
    /// connection and never say a word).
    public var hasAnswered: Bool { backend?.hasAnswered ?? false }

    /// The descriptors to poll (while disconnected, the connection
    /// attempt's, if one is under way): when any is readable, call
    /// `handleReadable()`.
    public var descriptors: [Int32] {
        if let backend { return backend.descriptors }
        return connecting.map { [$0.attempt.fd] } ?? []
    }

    /// Reads the backend's news; true when `current` changed.
    @discardableResult
    public func handleReadable(now: Double = MonotonicClock.now()) -> Bool {
        guard let backend else { return finishConnecting(now: now) }
        do {
            let changed = try backend.handleReadable()
            sayNotices(of: backend)
            guard changed else { return false }
            return settle(backend.current, now: now)
        } catch {
            return lose(backend, error, now: now)
        }
    }

    private func sayNotices(of backend: any AppBackend) {
        for notice in backend.takeNotices() { report("app source \(sourceName): \(notice)") }
    }

    private func lose(_ backend: any AppBackend, _ error: AppSourceLost, now: Double) -> Bool {
        sayNotices(of: backend)
        backend.close()
        self.backend = nil
        let wasHealthy = connectedAt.map { now - $0 >= AppTracker.healthy } ?? false
        if wasHealthy {
            pause = AppTracker.firstPause
            lastLoss = nil
        }
        if error.message != lastLoss {
            report("app source \(sourceName): \(error.message); trying again in \(AppTracker.describe(pause))")
            // Back after a restart is news; back to misbehave again is not.
            sayConnected = wasHealthy
        }
        lastLoss = error.message
        failing = true
        nextAttempt = now + pause
        pause = min(pause * 2, AppTracker.longestPause)
        connectedAt = nil
        nothingSince = nil
        return update(nil)
    }

    /// When `tick` has work (a reconnection attempt, a cleared focus to
    /// confirm, an answer overdue), on the monotonic clock; nil when it has none.
    public var deadline: Double? {
        var due: Double?
        if backend == nil, connecting == nil, let nextAttempt { due = nextAttempt }
        if let connecting, !connecting.toldSlow { due = min(due ?? .infinity, connecting.since + AppTracker.slowAttempt) }
        if let nothingSince { due = min(due ?? .infinity, nothingSince + AppTracker.settle) }
        if let backendDue = backend?.deadline { due = min(due ?? .infinity, backendDue) }
        return due
    }

    /// `deadline` as a poll() timeout, in milliseconds from `now`.
    public func timeout(now: Double = MonotonicClock.now()) -> Int32? {
        deadline.map { PollTimeout.milliseconds($0 - now) }
    }

    /// Reconnects when an attempt is due, lets a cleared focus count once it
    /// has lasted, and lets the backend act on its deadlines; true when
    /// `current` changed.
    @discardableResult
    public func tick(now: Double = MonotonicClock.now()) -> Bool {
        if let backend, let due = backend.deadline, now >= due {
            do {
                let changed = try backend.tick(now: now)
                sayNotices(of: backend)
                if changed && settle(backend.current, now: now) { return true }
            } catch {
                return lose(backend, error, now: now)
            }
        }
        if let since = nothingSince, now >= since + AppTracker.settle {
            nothingSince = nil
            return update(nil)
        }
        if let connecting {
            if finishConnecting(now: now) { return true }
            if self.connecting != nil, !connecting.toldSlow, now >= connecting.since + AppTracker.slowAttempt {
                self.connecting?.toldSlow = true
                report("app source \(sourceName): no answer to the connection after \(AppTracker.describe(AppTracker.slowAttempt)) (is the server stopped?); g.app is nil until it answers")
                sayConnected = true
            }
            return false
        }
        guard backend == nil, let nextAttempt, now >= nextAttempt else { return false }
        return attempt(now: now)
    }

    /// Whether the backend still waits for an answer it asked for (the first
    /// focus, from a compositor).
    public var isAwaitingAnswer: Bool { backend?.deadline != nil }

    /// Follows the source as the engine's loop would, until `done` holds or
    /// `seconds` pass: for one-shot commands (`gesturemap apps`) and tests,
    /// never inside the loop.
    @discardableResult
    public func wait(upTo seconds: Double, until done: () -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + seconds
        while !done() {
            let now = MonotonicClock.now()
            if now >= deadline { return false }
            var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = PollTimeout.milliseconds(deadline - now)
            let wait = max(1, min(left, timeout(now: now) ?? 50, 50))
            if poll(&fds, nfds_t(fds.count), wait) > 0 { handleReadable() }
            tick()
        }
        return true
    }

    private func settle(_ app: AppInfo?, now: Double) -> Bool {
        guard app == nil else {
            nothingSince = nil
            return update(app)
        }
        if current != nil && nothingSince == nil { nothingSince = now }
        return false
    }

    /// Every window the source sees; empty while disconnected. Listing them
    /// may take in events that poll() will not report: they are read at once.
    public func windows() -> [WindowInfo] {
        let list = backend?.windows() ?? []
        if backend?.hasPendingWork == true { handleReadable() }
        return list
    }

    /// Starts an attempt on its own thread, unless one is under way.
    @discardableResult
    private func attempt(now: Double) -> Bool {
        guard connecting == nil else { return false }
        nextAttempt = nil
        connecting = (ConnectAttempt(choice: choice, connect: connect), now, false)
        return finishConnecting(now: now)
    }

    /// Takes the attempt's outcome once it has ended; true when `current` changed.
    @discardableResult
    private func finishConnecting(now: Double) -> Bool {
        guard let outcome = connecting?.attempt.take() else { return false }
        connecting = nil
        switch outcome {
        case .connected(let made):
            backend = made
            nextAttempt = nil
            connectedAt = now
            if sayConnected { report("app source \(sourceName): connected") }
            sayConnected = false
            failing = false
            return update(made.current)
        case .failed(let error):
            if !failing {
                report("app source \(sourceName): \(error.message); g.app is nil until it works (trying again every few seconds)")
                sayConnected = true
            }
            failing = true
            nextAttempt = now + pause
            pause = min(pause * 2, AppTracker.longestPause)
            return false
        }
    }

    private func update(_ app: AppInfo?) -> Bool {
        guard app != current else { return false }
        current = app
        onChange?(app)
        return true
    }

    static func describe(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : "\(Int(seconds.rounded())) s"
    }
}
