#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// CLOCK_MONOTONIC in seconds: the clock live devices stamp their events with
/// (the engine sets EVIOCSCLOCKID), so retries, key presses and gestures compare.
public enum ContextClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
