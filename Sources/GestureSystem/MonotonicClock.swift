import Glibc

/// CLOCK_MONOTONIC: the clock live evdev devices stamp their events with once
/// EVIOCSCLOCKID asks for it, so input times, timeouts and key presses compare.
public enum MonotonicClock {
    /// Seconds.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Nanoseconds, for measuring short spans exactly.
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The calling thread's CPU time, in seconds.
    public static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// CLOCK_REALTIME: what a device stamps its events with when it could not be
/// asked for the monotonic clock.
public enum WallClock {
    /// Seconds since the epoch.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
