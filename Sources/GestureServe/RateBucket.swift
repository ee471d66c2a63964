/// A token bucket: `rate` a second on average, `burst` at once (by default as many as `rate`).
struct RateBucket: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double

    init(rate: Int, now: Double) {
        self.init(rate: Double(rate), burst: Double(rate), now: now)
    }

    init(rate: Double, burst: Double, now: Double) {
        self.rate = max(rate, 0.001)
        self.burst = max(burst, 1)
        tokens = self.burst
        last = now
    }

    /// Takes one token; false when the sender is over the rate.
    mutating func take(now: Double) -> Bool {
        tokens = min(burst, tokens + max(0, now - last) * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds until a token is there (0: now).
    func wait(now: Double) -> Double {
        let held = min(burst, tokens + max(0, now - last) * rate)
        return held >= 1 ? 0 : (1 - held) / rate
    }
}
