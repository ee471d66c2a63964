#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Per-application rules under the real shells, in place of the D-Bus
/// stand-ins: examples/gnome-extension in a headless GNOME Shell and
/// examples/kwin in KWin's virtual backend report the focused window of a real
/// Wayland client, and `gesturemap run` runs that application's rule. The
/// focus moves as a user moves it: a new window takes it, and closing it gives
/// it back to the window before.
@Suite("Per-application rules under a real GNOME Shell and KWin", .serialized)
struct RealShellRunTests {
    static let rules = [("^notes$", "Page_Down"), ("^slides$", "Right")]
    static let actions = ["Page_Down notes", "Right slides", "Page_Down notes"]

    /// The focus line gesturemap prints under -v for a window of this client.
    static func focusLine(_ appID: String, _ window: Child) -> String {
        "gesturemap: focus: \(appID)  \"\(appID)\"  pid \(window.pid)"
    }

    /// Runs the gesture with notes focused, then slides (opened now), then
    /// notes again (slides closed), checking the lines `drive` checks and that
    /// the shell reported each window's own pid.
    func focusInTurn(_ run: EngineRun, rules: String, notes: Child, open: @escaping () throws -> Child) throws {
        var slides: Child?
        var failure: (any Error)?
        try PerAppRunTests().drive(run, rules: rules, [
            ("notes", {}),
            ("slides", { do { slides = try open() } catch { failure = error } }),
            ("notes", { slides?.stop() }),
        ], expect: Self.actions)
        if let failure { throw failure }
        #expect(run.stderr.components(separatedBy: Self.focusLine("notes", notes)).count - 1 == 2, "\(run.stderr)")
        if let slides { #expect(run.stderr.contains(Self.focusLine("slides", slides)), "\(run.stderr)") }
    }

    @Test("GNOME Shell 43 (headless): the extension reports the focused window and the window list, also to a gesturemap started after it, and each app's rule runs")
    func gnome() throws {
        let shell = try GnomeShellSession()
        defer { shell.stop() }
        // 1: enabled. GNOME 43 puts the ES-module extension, whose metadata names 45 to 48, in state 4, out of date.
        let state = shell.extensionState()
        try #require(state?.state == "1.0", "the shell did not enable \(shell.example): \(String(describing: state))")
        #expect(state?.error == "''")
        #expect(shell.leaveOverview())
        // The window first: the extension sends the focus when gesturemap's name appears.
        let notes = try shell.openWindow(appID: "notes")
        // `gesturemap apps` gets the focus and the window list (WindowsChanged) from the extension.
        let expected = #"{"source":"gnome","focused":{"id":"notes","title":"notes","pid":\#(notes.pid)},"windows":[{"id":"notes","title":"notes","pid":\#(notes.pid),"focused":true}]}"#
        var listing = ""
        #expect(waitFor(10) {
            listing = GestureContextTests.run(AppsCommandTests.binary, ["apps", "--json"], environment: shell.engineEnvironment).output
            return listing == expected + "\n"
        }, "\(listing)")
        let rules = try PerAppRunTests.rules(Self.rules)
        let run = try EngineRun(["--rules", rules, "-v"], environment: shell.engineEnvironment)
        try focusInTurn(run, rules: rules, notes: notes) { try shell.openWindow(appID: "slides") }
        #expect(run.stderr.contains("gesturemap: app source: gnome"))
        shell.stop()
        #expect(shell.pids.allSatisfy { kill($0, 0) != 0 }, "a process of the session is still running")
    }

    @Test("KWin 5.27 (virtual): the script reports the activated window and each app's rule runs")
    func kwin() throws {
        let kwin = try KWinSession()
        defer { kwin.stop() }
        let rules = try PerAppRunTests.rules(Self.rules)
        // gesturemap first: a KWin script cannot watch the bus, so it tells the focus only as it changes.
        let run = try EngineRun(["--rules", rules, "-v"], environment: kwin.engineEnvironment)
        #expect(run.waitForMessage("gesturemap: app source: kde"))
        let notes = try kwin.openWindow(appID: "notes")
        try focusInTurn(run, rules: rules, notes: notes) { try kwin.openWindow(appID: "slides") }
        kwin.stop()
        #expect(kwin.pids.allSatisfy { kill($0, 0) != 0 }, "a process of the session is still running")
    }
}
