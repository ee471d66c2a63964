import Glibc
import GestureSystem

/// `--realtime`: a replay kept at its recorded pace, deadlines included. The
/// first frame sets the origin; each later one waits for its time on the
/// wall clock, serving the loop's side sources (focus, keys, reloads,
/// children, stdout) meanwhile.
final class Pacer {
    private unowned let engine: Engine
    private let loop: EventLoop
    /// The input's time and the wall clock's at the first frame.
    private var origin: (input: Double, wall: Double)?

    init(engine: Engine, loop: EventLoop) {
        self.engine = engine
        self.loop = loop
    }

    /// Waits for `time`; deadlines before it fire at their own times.
    func keep(until time: Double) {
        let now = MonotonicClock.now()
        guard let origin else {
            origin = (input: time, wall: now)
            return
        }
        while let deadline = engine.nextDeadline, deadline < time, !engine.isOver {
            wait(until: origin.wall + (deadline - origin.input))
            engine.advanceAll(to: deadline)
        }
        wait(until: origin.wall + (time - origin.input))
    }

    private func wait(until wall: Double) {
        while !engine.isOver {
            guard MonotonicClock.now() < wall else { return }
            switch loop.round(until: wall, pacing: true) {
            case .served, .interrupted: continue
            case .failed(let code):
                // As the live loop: a run that cannot wait for its sources cannot keep its pace.
                engine.console.note("poll failed: \(String(cString: strerror(code)))")
                return engine.fail(.unavailable)
            }
        }
    }
}
