#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureInput

/// CLOCK_MONOTONIC, the clock live evdev devices stamp their events with once
/// EVIOCSCLOCKID asks for it.
enum MonotonicClock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sleeps until `deadline` on this clock (returns early on a signal), a day
    /// at most: input times are checked, but a deadline far off must not trap.
    static func sleep(until deadline: Double) {
        let wait = min(deadline - now(), InputLimits.maxTimeJump)
        guard wait > 0, let seconds = Checked.integer(wait, as: Int.self) else { return }
        let nanoseconds = Checked.integer((wait - Double(seconds)) * 1e9, as: Int.self) ?? 0
        var ts = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        nanosleep(&ts, nil)
    }

    /// Input times within this many seconds of the monotonic clock are taken to
    /// be on it: the input is live, and deadlines wait for the wall clock.
    static let liveTolerance = 5.0

    static func isLive(_ inputTime: Double) -> Bool {
        abs(inputTime - now()) < liveTolerance
    }
}
