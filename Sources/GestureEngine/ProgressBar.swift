import Glibc
import GestureSystem

/// What a progress line says, worked out from how far a replay has got: pure,
/// so its text is tested without a terminal.
public struct ProgressReport: Equatable, Sendable {
    public var fraction: Double
    public var eventsPerSecond: Double
    /// Seconds left at the rate so far; nil until there is a rate.
    public var secondsLeft: Double?

    public init(bytesDone: Int, bytesTotal: Int, events: Int, elapsed: Double) {
        fraction = bytesTotal > 0 ? min(1, max(0, Double(bytesDone) / Double(bytesTotal))) : 0
        eventsPerSecond = elapsed > 0 ? Double(events) / elapsed : 0
        secondsLeft = elapsed > 0 && bytesDone > 0 ? elapsed * Double(bytesTotal - bytesDone) / Double(bytesDone) : nil
    }

    /// `[█████░░░░░]  42%  1.2M events/s  ETA 0:03`, fitted to `width` columns.
    public func line(width: Int) -> String {
        let percent = Int((fraction * 100).rounded(.down))  // ok: fraction is clamped to 0...1
        var tail = "  " + (percent < 10 ? "  " : percent < 100 ? " " : "") + "\(percent)%"
        tail += "  " + ProgressReport.rate(eventsPerSecond) + " events/s"
        tail += "  ETA " + (secondsLeft.map(ProgressReport.duration) ?? "--:--")
        let barWidth = max(10, min(40, width - tail.count - 3))
        let filled = min(barWidth, Int((fraction * Double(barWidth)).rounded(.down)))  // ok: 0...barWidth
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]" + tail
    }

    static func rate(_ r: Double) -> String {
        guard r.isFinite, r >= 0 else { return "0" }
        if r >= 1e6 { return oneDecimal(r / 1e6) + "M" }
        if r >= 1e3 { return oneDecimal(r / 1e3) + "k" }
        return String(Int(r))  // ok: finite, below 1000
    }

    static func oneDecimal(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())  // ok: callers pass values below 1e6
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let s = Int(seconds.rounded(.up))  // ok: finite, below 100 hours
        let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60)
        let mm = m < 10 && h > 0 ? "0\(m)" : "\(m)"
        let ss = sec < 10 ? "0\(sec)" : "\(sec)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(mm):\(ss)"
    }
}

/// A progress bar on the console's status line, for replays of big files when
/// stderr is a terminal: redrawn a few times a second, cleared at the end.
final class ProgressBar {
    /// Files smaller than this replay too fast to need one.
    static let minimumBytes = 4 << 20
    static let redrawInterval = 0.2

    private let console: Console
    private let total: Int
    private let start: Double
    private var lastDraw: Double

    /// A bar for reading `file`, or nil when none belongs: stderr is not a
    /// terminal, the input is not a regular file, or it is small.
    init?(file: InputFile, console: Console) {
        guard console.capture == nil, isatty(console.fd) == 1, file.isRegularFile else { return nil }
        var info = stat()
        guard fstat(file.fd, &info) == 0, info.st_size >= ProgressBar.minimumBytes else { return nil }
        self.console = console
        total = Int(info.st_size)
        start = MonotonicClock.now()
        lastDraw = start
    }

    func update(bytesDone: Int, events: Int) {
        let now = MonotonicClock.now()
        guard now - lastDraw >= ProgressBar.redrawInterval else { return }
        lastDraw = now
        let report = ProgressReport(bytesDone: bytesDone, bytesTotal: total, events: events, elapsed: now - start)
        console.status(report.line(width: console.columns))
    }

    func finish() {
        console.status(nil)
    }
}
