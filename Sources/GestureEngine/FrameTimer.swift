import Glibc
import GestureSystem

/// `run --timing`: how long each frame takes inside the engine, from the frame
/// decoded to its actions dispatched (handlers called, output written), kept as
/// a histogram so that memory stays flat however long the run.
struct FrameTimer {
    /// 10 ns buckets up to this; slower frames count in the last one, and the
    /// maximum is kept exactly.
    static let bucketNanoseconds: UInt64 = 10
    static let bucketCount = 20_000

    private var buckets = [UInt32](repeating: 0, count: FrameTimer.bucketCount)
    private(set) var frames = 0
    private var total: UInt64 = 0
    private var maximum: UInt64 = 0

    static func now() -> UInt64 { MonotonicClock.nanoseconds() }

    mutating func record(from start: UInt64, to end: UInt64) {
        let elapsed = end >= start ? end - start : 0
        let bucket = min(Int(elapsed / FrameTimer.bucketNanoseconds), FrameTimer.bucketCount - 1)
        buckets[bucket] &+= 1
        frames += 1
        total &+= elapsed
        maximum = max(maximum, elapsed)
    }

    /// The time, in microseconds, that `fraction` of frames took at most; the
    /// upper edge of its bucket, so it never understates.
    func percentile(_ fraction: Double) -> Double {
        guard frames > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(frames)).rounded(.up)))
        var seen = 0
        for (i, count) in buckets.enumerated() {
            seen += Int(count)
            if seen >= rank {
                if i == FrameTimer.bucketCount - 1 { return microseconds(maximum) }
                return microseconds(UInt64(i + 1) * FrameTimer.bucketNanoseconds)
            }
        }
        return microseconds(maximum)
    }

    /// One JSON object, for scripts (scripts/bench reads it).
    var summary: String {
        let mean = frames > 0 ? microseconds(total) / Double(frames) : 0
        return "{\"frames\":\(frames),\"p50_us\":\(format(percentile(0.5))),\"p99_us\":\(format(percentile(0.99))),"
            + "\"p999_us\":\(format(percentile(0.999))),\"max_us\":\(format(microseconds(maximum))),\"mean_us\":\(format(mean))}"
    }

    private func microseconds(_ ns: UInt64) -> Double { Double(ns) / 1000 }

    private func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        let whole = Int(hundredths) / 100
        let fraction = Int(hundredths) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
