/// poll(2)'s timeout, in milliseconds, for a wait given in seconds.
public enum PollTimeout {
    /// The longest one wait lasts; the loop comes round and works out the next.
    public static let longest = 60.0

    /// Rounded up, so a deadline is never woken for a moment early and polled
    /// again at once; 0 for a time past, `longest` at most, 0 for NaN.
    public static func milliseconds(_ seconds: Double) -> Int32 {
        guard seconds > 0 else { return 0 }
        return Int32((min(seconds, longest) * 1000).rounded(.up))  // ok: 0 < value <= 60,000
    }
}
