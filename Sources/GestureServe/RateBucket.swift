/// A token bucket: `rate` messages a second on average, as many in one burst.
struct RateBucket: Sendable {
    let rate: Double
    private var tokens: Double
    private var last: Double

    init(rate: Int, now: Double) {
        self.rate = Double(rate)
        tokens = Double(rate)
        last = now
    }

    /// Takes one token; false when the sender is over the rate.
    mutating func take(now: Double) -> Bool {
        tokens = min(rate, tokens + max(0, now - last) * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
