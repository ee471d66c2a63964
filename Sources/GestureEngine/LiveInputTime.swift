import GestureSystem

extension MonotonicClock {
    /// Input times within this many seconds of the monotonic clock are taken to
    /// be on it: the input is live, and deadlines wait for the wall clock.
    static let liveTolerance = 5.0

    static func isLive(_ inputTime: Double) -> Bool {
        abs(inputTime - now()) < liveTolerance
    }
}
