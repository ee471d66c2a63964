import Foundation
import GestureContext
import Testing

/// The X11 backend against a real X server, window manager and windows.
@Suite("X11 app source", .serialized)
struct X11SourceTests {
    @Test("with openbox, g.app follows _NET_ACTIVE_WINDOW exactly as windows are activated")
    func followsActiveWindow() throws {
        let x = try XServer(windowManager: true)
        defer { x.stop() }
        let message = try x.open("xmessage", ["-name", "notes", "a message"], windowClass: "Xmessage")
        let calculator = try x.open("xcalc", [], windowClass: "XCalc")
        x.activate(message)

        var messages: [String] = []
        let tracker = AppTracker(choice: .x11(display: x.display), report: { messages.append($0) })
        #expect(messages == [])
        // The focus is asked for without waiting: it comes in with the answers.
        #expect(follow(tracker) { tracker.current?.id == "Xmessage" })
        #expect(tracker.current?.title == "notes")

        var seen: [String?] = []
        tracker.onChange = { seen.append($0?.id) }
        x.activate(calculator)
        #expect(follow(tracker) { tracker.current?.id == "XCalc" })
        #expect(tracker.current?.title == "Calculator")
        x.activate(message)
        #expect(follow(tracker) { tracker.current?.id == "Xmessage" })
        x.activate(calculator)
        #expect(follow(tracker) { tracker.current?.id == "XCalc" })
        settle(tracker)
        // openbox clears _NET_ACTIVE_WINDOW for a moment on each switch; that
        // is not a focus change anyone should see.
        #expect(seen == ["XCalc", "Xmessage", "XCalc"])

        let windows = tracker.windows()
        #expect(Set(windows.map(\.app.id)) == ["Xmessage", "XCalc"])
        #expect(windows.filter(\.focused).map(\.app.id) == ["XCalc"])
    }

    @Test("without a window manager, the input focus is followed")
    func followsInputFocus() throws {
        let x = try XServer(windowManager: false)
        defer { x.stop() }
        let message = try x.open("xmessage", ["-name", "bare", "no window manager"], windowClass: "Xmessage")
        let calculator = try x.open("xcalc", [], windowClass: "XCalc")
        let tracker = AppTracker(choice: .x11(display: x.display), report: { _ in })
        x.focus(calculator)
        #expect(follow(tracker) { tracker.current?.id == "XCalc" })
        x.focus(message)
        #expect(follow(tracker) { tracker.current?.id == "Xmessage" })
        #expect(tracker.current?.title == "bare")
    }

    @Test("the X server going away is said once, g.app becomes nil, and reconnection is retried quietly")
    func serverGoesAway() throws {
        var x: XServer? = try XServer(windowManager: true)
        let display = x?.display ?? ":0"
        let window = try x?.open("xcalc", [], windowClass: "XCalc") ?? ""
        x?.activate(window)
        var messages: [String] = []
        let tracker = AppTracker(choice: .x11(display: display), report: { messages.append($0) })
        #expect(follow(tracker) { tracker.current?.id == "XCalc" })
        x?.stop()
        x = nil
        #expect(follow(tracker) { !tracker.isConnected })
        #expect(tracker.current == nil)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("app source x11: the X server closed the connection; trying again in") == true)
        // While it is gone, attempts fail without more messages.
        follow(tracker, upTo: 1.2) { false }
        #expect(messages.count == 1)
        #expect(tracker.timeout() != nil)
    }

    @Test("no X server: one message saying which display, and g.app stays nil")
    func noServer() {
        var messages: [String] = []
        let tracker = AppTracker(choice: .x11(display: ":989"), report: { messages.append($0) })
        #expect(tracker.current == nil)
        #expect(messages == ["app source x11: cannot connect to the X server :989; g.app is nil until it works (trying again every few seconds)"])
    }
}
