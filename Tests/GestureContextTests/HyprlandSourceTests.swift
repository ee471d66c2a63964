import Foundation
import GestureContext
import Testing

/// The Hyprland backend against a stand-in speaking Hyprland's socket protocol.
@Suite("Hyprland app source", .serialized)
struct HyprlandSourceTests {
    @Test("the first value and pid from j/activewindow, then activewindow events exactly")
    func followsEvents() throws {
        let hypr = try HyprlandStandIn()
        defer { hypr.stop() }
        let firefox = hypr.open("firefox", title: "Mozilla Firefox", pid: 300)
        let zathura = hypr.open("org.pwmt.zathura", title: "paper.pdf, page 3", pid: 301)
        hypr.focus(firefox)
        let tracker = AppTracker(choice: .hyprland(signature: hypr.signature, runtimeDirectory: hypr.runtimeDirectory),
                                 report: { Issue.record("unexpected message: \($0)") })
        #expect(follow(tracker) { !tracker.isAwaitingAnswer })
        #expect(tracker.current == AppInfo(id: "firefox", title: "Mozilla Firefox", pid: 300))
        hypr.awaitListeners()
        var seen: [AppInfo?] = []
        tracker.onChange = { seen.append($0) }
        hypr.focus(zathura)
        #expect(follow(tracker) { tracker.current?.id == "org.pwmt.zathura" && tracker.current?.pid != nil })
        hypr.rename(zathura, to: "paper.pdf, page 4")
        #expect(follow(tracker) { tracker.current?.title == "paper.pdf, page 4" })
        hypr.focus(nil)
        #expect(follow(tracker) { tracker.current == nil })
        hypr.focus(firefox)
        #expect(follow(tracker) { tracker.current?.id == "firefox" && tracker.current?.pid != nil })
        settle(tracker)
        // The event gives the id and title at once; the pid follows from the
        // request socket's answer, without the loop waiting for it.
        #expect(seen == [
            AppInfo(id: "org.pwmt.zathura", title: "paper.pdf, page 3"),
            AppInfo(id: "org.pwmt.zathura", title: "paper.pdf, page 3", pid: 301),
            AppInfo(id: "org.pwmt.zathura", title: "paper.pdf, page 4", pid: 301),
            nil,
            AppInfo(id: "firefox", title: "Mozilla Firefox"),
            AppInfo(id: "firefox", title: "Mozilla Firefox", pid: 300),
        ])
        let windows = tracker.windows()
        #expect(windows.map(\.app.id) == ["firefox", "org.pwmt.zathura"])
        #expect(windows.map(\.focused) == [true, false])
    }

    @Test("lines that are not events are passed over; Hyprland exiting is said once and retried")
    func garbageAndExit() throws {
        let hypr = try HyprlandStandIn()
        let reader = hypr.open("evince", title: "a.pdf", pid: 7)
        hypr.focus(reader)
        var messages: [String] = []
        let tracker = AppTracker(choice: .hyprland(signature: hypr.signature, runtimeDirectory: hypr.runtimeDirectory),
                                 report: { messages.append($0) })
        hypr.awaitListeners()
        hypr.send(raw: "no separator here\u{0}\u{1}>>")
        hypr.send(raw: "activewindow")
        settle(tracker)
        #expect(tracker.current?.id == "evince")
        hypr.stop()
        #expect(follow(tracker) { !tracker.isConnected })
        #expect(tracker.current == nil)
        #expect(messages.count == 1)
        #expect(messages.first?.hasSuffix(".socket2.sock closed (Hyprland exited?); trying again in 500 ms") == true)
    }

    @Test("no Hyprland socket: one message naming the socket")
    func noSocket() {
        var messages: [String] = []
        let tracker = AppTracker(choice: .hyprland(signature: "absent", runtimeDirectory: "/nonexistent"), report: { messages.append($0) })
        #expect(tracker.current == nil)
        #expect(messages == ["app source hyprland: cannot connect to /tmp/hypr/absent/.socket2.sock: No such file or directory; g.app is nil until it works (trying again every few seconds)"])
    }
}
