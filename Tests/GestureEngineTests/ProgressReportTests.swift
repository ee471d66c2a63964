import Testing
@testable import GestureEngine

@Suite("Progress line")
struct ProgressReportTests {
    @Test("percent, events per second and time left, fitted to the terminal")
    func line() {
        let report = ProgressReport(bytesDone: 42, bytesTotal: 100, events: 1_234_000, elapsed: 1)
        #expect(report.line(width: 80) == "[████████████████░░░░░░░░░░░░░░░░░░░░░░░░]   42%  1.2M events/s  ETA 0:02")
        // One column spare, so the terminal never wraps the line.
        let narrow = report.line(width: 50)
        #expect(narrow == "[██████░░░░░░░░░░]   42%  1.2M events/s  ETA 0:02")
        #expect(narrow.count == 49)
    }

    @Test("before any rate there is no ETA; a finished file is 100%")
    func ends() {
        #expect(ProgressReport(bytesDone: 0, bytesTotal: 100, events: 0, elapsed: 0).line(width: 80).hasSuffix("0%  0 events/s  ETA --:--"))
        #expect(ProgressReport(bytesDone: 100, bytesTotal: 100, events: 5000, elapsed: 2).line(width: 80).hasSuffix("100%  2.5k events/s  ETA 0:00"))
    }

    @Test("durations read as m:ss or h:mm:ss", arguments: [
        (0.2, "0:01"), (59.0, "0:59"), (61.0, "1:01"), (3725.0, "1:02:05"), (1e300, "--:--"), (Double.nan, "--:--"),
    ])
    func durations(seconds: Double, text: String) {
        #expect(ProgressReport.duration(seconds) == text)
    }
}
