/// The focused application, kept current by the desktop's events, for the
/// engine's loop: poll `fd` with the input devices, call `handleReadable()` when
/// it is readable, and `tick(now:)` when `retryTimeout(now:)` has passed. A
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
    private var nextAttempt: Double?
    private var pause = AppTracker.firstPause
    /// Whether the last attempt failed, so a run of failures is said once.
    private var failing = false
    /// When the backend said "nothing focused": window managers clear the focus
    /// for a moment while they move it (openbox sets _NET_ACTIVE_WINDOW to None
    /// first), so nil counts only once it has lasted `settle` seconds.
    private var nothingSince: Double?
    static let settle = 0.1

    static let firstPause = 0.5
    static let longestPause = 5.0

    /// Connects at once; a failure is one line through `report` and a retry later.
    /// `connect` makes the backend (tests pass their own).
    public init(choice: AppSourceChoice, now: Double = ContextClock.now(),
                report: @escaping (String) -> Void,
                connect: @escaping (AppSourceChoice) throws(AppSourceLost) -> any AppBackend = AppBackends.connect) {
        self.choice = choice
        self.report = report
        self.connect = connect
        if case .none(let reason) = choice {
            report("gesturemap: no app source: \(reason); g.app is nil")
            return
        }
        attempt(now: now)
    }

    deinit { backend?.close() }

    public var sourceName: String { choice.name.rawValue }
    public var isConnected: Bool { backend != nil }

    /// The descriptor to poll, or -1 while disconnected.
    public var fd: Int32 { backend?.fd ?? -1 }

    /// Reads the backend's news; true when `current` changed.
    @discardableResult
    public func handleReadable(now: Double = ContextClock.now()) -> Bool {
        guard let backend else { return false }
        do {
            let changed = try backend.handleReadable()
            for notice in backend.takeNotices() { report("gesturemap: app source \(sourceName): \(notice)") }
            guard changed else { return false }
            return settle(backend.current, now: now)
        } catch {
            backend.close()
            self.backend = nil
            report("gesturemap: app source \(sourceName): \(error.message); trying again in \(AppTracker.describe(pause))")
            failing = true
            nextAttempt = now + pause
            nothingSince = nil
            return update(nil)
        }
    }

    /// Milliseconds until `tick` has work (a reconnection attempt, or a cleared
    /// focus to confirm), or nil when it has none: a poll() timeout.
    public func timeout(now: Double = ContextClock.now()) -> Int32? {
        var due: Double?
        if backend == nil, let nextAttempt { due = nextAttempt }
        if let nothingSince { due = min(due ?? .infinity, nothingSince + AppTracker.settle) }
        guard let due else { return nil }
        let ms = ((due - now) * 1000).rounded(.up)
        return Int32(max(0, min(ms, 60_000)))
    }

    /// Reconnects when an attempt is due, and lets a cleared focus count once it
    /// has lasted; true when `current` changed.
    @discardableResult
    public func tick(now: Double = ContextClock.now()) -> Bool {
        if let since = nothingSince, now >= since + AppTracker.settle {
            nothingSince = nil
            return update(nil)
        }
        guard backend == nil, let nextAttempt, now >= nextAttempt else { return false }
        return attempt(now: now)
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
    /// waits for replies, during which events may be queued unseen by poll():
    /// they are read at once.
    public func windows() -> [WindowInfo] {
        let list = backend?.windows() ?? []
        handleReadable()
        return list
    }

    @discardableResult
    private func attempt(now: Double) -> Bool {
        do {
            let made = try connect(choice)
            backend = made
            nextAttempt = nil
            pause = AppTracker.firstPause
            if failing { report("gesturemap: app source \(sourceName): connected") }
            failing = false
            return update(made.current)
        } catch {
            if !failing {
                report("gesturemap: app source \(sourceName): \(error.message); g.app is nil until it works (trying again every few seconds)")
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
