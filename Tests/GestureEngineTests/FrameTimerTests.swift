@testable import GestureEngine
import Testing

@Suite("Per-frame timing (--timing)")
struct FrameTimerTests {
    @Test("percentiles are the upper edges of 10 ns buckets; the maximum is exact")
    func percentiles() {
        var timer = FrameTimer()
        // 98 frames of 1 µs, one of 5 µs, one of 300 µs (beyond the histogram).
        for _ in 0..<98 { timer.record(from: 1_000, to: 2_000) }
        timer.record(from: 0, to: 5_000)
        timer.record(from: 0, to: 300_000)
        #expect(timer.frames == 100)
        #expect(timer.percentile(0.5) == 1.01)
        #expect(timer.percentile(0.99) == 5.01)
        #expect(timer.percentile(1.0) == 300)
        #expect(timer.summary == #"{"frames":100,"p50_us":1.01,"p99_us":5.01,"p999_us":300.00,"max_us":300.00,"mean_us":4.03}"#)
    }

    @Test("no frames: zeros, not a division by zero")
    func empty() {
        let timer = FrameTimer()
        #expect(timer.summary == #"{"frames":0,"p50_us":0.00,"p99_us":0.00,"p999_us":0.00,"max_us":0.00,"mean_us":0.00}"#)
    }

    @Test("a clock that steps back counts as zero, not as a huge time")
    func backwards() {
        var timer = FrameTimer()
        timer.record(from: 5_000, to: 4_000)
        #expect(timer.percentile(1.0) == 0.01)
    }

    @Test("run --timing reports every frame the engine processed, as one JSON line on stderr")
    func engineReports() throws {
        let run = try runEngine(input: strokeNDJSON(resolution: 10, rate: 100, dx: 40, dy: 0), rules: #"on("2-finger swipe right", function(g) emit("r") end)"#) { $0.timing = true }
        #expect(run.lines.count == 1)
        let line = try #require(run.messages.first { $0.hasPrefix("timing: ") })
        let frames = strokeNDJSON(resolution: 10, rate: 100, dx: 40, dy: 0).split(separator: "\n").compactMap { l -> Substring? in
            guard let r = l.range(of: #""t":"#) else { return nil }
            return l[r.upperBound...].prefix { $0 != "," }
        }
        #expect(line.hasPrefix("timing: {\"frames\":\(Set(frames).count),\"p50_us\":"))
    }
}
