import Glibc
import GestureContext
import GestureSystem

/// The focused application, kept current: the app source's descriptors, its
/// reconnections and confirmations by their deadlines, and the rules' app
/// patterns matched as their budget allows (`appMatchingDue`). Each change
/// goes to the rules at once (`Engine.focusChanged`).
final class AppFocusSource: LoopSource {
    private unowned let engine: Engine
    /// Nil without an app source (`--app`, or none found): the matching still runs.
    private(set) var tracker: AppTracker?

    init(engine: Engine, tracker: AppTracker?) {
        self.engine = engine
        self.tracker = tracker
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        for fd in tracker?.descriptors ?? [] { list.append(PollRequest(fd: fd, events: Int16(POLLIN))) }
    }

    func deadline(now: Double) -> Double? {
        let matching = engine.runtime.appMatchingDue
        guard let due = tracker?.deadline else { return matching }
        return matching.map { min($0, due) } ?? due
    }

    func serve(_ round: LoopRound) {
        if let tracker {
            if !round.ready.isEmpty { tracker.handleReadable() }
            tracker.tick()
        }
        engine.runtime.resumeAppMatching(now: MonotonicClock.now())
    }

    /// A replay never waits for the desktop: what has arrived is taken, nothing more.
    func takeWhatArrived() {
        engine.runtime.resumeAppMatching(now: MonotonicClock.now())
        guard let tracker else { return }
        var set = PollSet<Int>()
        for fd in tracker.descriptors { set.add(fd, 0) }
        if case .ready = set.wait(timeout: 0) { tracker.handleReadable() }
        tracker.tick()
    }

    /// The app source's connection (and an --app-command's process group) ends with the run.
    func close() {
        tracker = nil
    }
}
