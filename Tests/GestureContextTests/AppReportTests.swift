import GestureContext
import Testing

/// Any program sets its window's title and app id: `apps`, `apps --watch` and
/// `--trace` show them without letting the terminal obey them.
@Suite("apps and the trace show hostile titles and ids as text")
struct AppReportTests {
    static let osc52 = "\u{1B}]52;c;cm0gLXJmIH4=\u{07}"
    static let hostile = AppInfo(id: "evil\u{1B}[2J", title: "Inbox " + osc52 + "\nfocus: firefox", pid: 7)

    @Test("the line and the table carry no terminal control; the JSON is exact")
    func escaped() {
        let line = AppReport.line(Self.hostile)
        #expect(line == #"focus: evil\u{1B}[2J  "Inbox \u{1B}]52;c;cm0gLXJmIH4=\u{7}\u{A}focus: firefox"  pid 7"#)
        let table = AppReport.table(source: "x11", focused: Self.hostile, windows: [WindowInfo(app: Self.hostile, focused: true)])
        for text in [line] + table {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        }
        #expect(table.last == #"* evil\u{1B}[2J  7    Inbox \u{1B}]52;c;cm0gLXJmIH4=\u{7}\u{A}focus: firefox"#)
        #expect(AppReport.json(Self.hostile) == #"{"id":"evil\u001b[2J","title":"Inbox \u001b]52;c;cm0gLXJmIH4=\u0007\nfocus: firefox","pid":7}"#)
    }
}
