import Foundation
import GestureContext
import Testing

/// The sway/i3 IPC backend and the wlroots foreign-toplevel backend, against a
/// real headless sway with real foot windows.
@Suite("sway and wlroots app sources", .serialized)
struct SwaySourceTests {
    @Test("sway IPC: the first focus from GET_TREE, then every focus change exactly, with the pid")
    func swayIPC() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        try sway.openWindow(appID: "reader")
        try sway.openWindow(appID: "browser")
        sway.focus(appID: "reader")

        var messages: [String] = []
        let tracker = AppTracker(choice: .i3ipc(name: .sway, socket: sway.socket), report: { messages.append($0) })
        // The first focus is asked for without waiting: it comes with the loop.
        #expect(tracker.isAwaitingAnswer)
        #expect(follow(tracker) { !tracker.isAwaitingAnswer })
        #expect(messages == [])
        #expect(tracker.current?.id == "reader")
        #expect((tracker.current?.pid ?? 0) > 0)
        var seen: [String?] = []
        tracker.onChange = { seen.append($0?.id) }
        sway.focus(appID: "browser")
        #expect(follow(tracker) { tracker.current?.id == "browser" })
        sway.focus(appID: "reader")
        #expect(follow(tracker) { tracker.current?.id == "reader" })
        // An empty workspace has no focused window.
        sway.message(["workspace", "9"])
        #expect(follow(tracker) { tracker.current == nil })
        sway.message(["workspace", "1"])
        #expect(follow(tracker) { tracker.current?.id == "reader" })
        settle(tracker)
        #expect(seen == ["browser", "reader", nil, "reader"])
        let windows = tracker.windows()
        #expect(Set(windows.map(\.app.id)) == ["reader", "browser"])
        #expect(windows.filter(\.focused).map(\.app.id) == ["reader"])
    }

    @Test("wlroots foreign-toplevel: the activated toplevel, followed exactly")
    func wlrootsToplevels() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        try sway.openWindow(appID: "slides")
        try sway.openWindow(appID: "notes")
        sway.focus(appID: "slides")
        let display = sway.runtimeDirectory + "/" + sway.waylandDisplayName
        var messages: [String] = []
        let tracker = AppTracker(choice: .wlroots(display: display), report: { messages.append($0) })
        #expect(messages == [])
        // The list of toplevels is asked for without waiting: it comes in with the answers.
        #expect(follow(tracker) { tracker.current == AppInfo(id: "slides", title: "foot", pid: nil) })
        var seen: [String?] = []
        tracker.onChange = { seen.append($0?.id) }
        sway.focus(appID: "notes")
        #expect(follow(tracker) { tracker.current?.id == "notes" })
        sway.focus(appID: "slides")
        #expect(follow(tracker) { tracker.current?.id == "slides" })
        settle(tracker)
        #expect(seen == ["notes", "slides"])
        #expect(Set(tracker.windows().map(\.app.id)) == ["slides", "notes"])
    }

    @Test("sway exiting: said once, g.app nil, reconnection retried")
    func swayExits() throws {
        let sway = try SwaySession()
        try sway.openWindow(appID: "reader")
        var messages: [String] = []
        let tracker = AppTracker(choice: .i3ipc(name: .sway, socket: sway.socket), report: { messages.append($0) })
        #expect(follow(tracker) { tracker.current?.id == "reader" })
        sway.stop()
        #expect(follow(tracker) { !tracker.isConnected })
        #expect(tracker.current == nil)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("app source sway:") == true)
        #expect(messages.first?.contains("closed (the compositor exited?); trying again in 500 ms") == true)
    }
}
