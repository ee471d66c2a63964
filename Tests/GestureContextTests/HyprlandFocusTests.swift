@testable import GestureContext
import GestureCore
import Testing

/// Hyprland's focus without the sockets: events and answers in, focus out.
@Suite("Hyprland focus, as a value")
struct HyprlandFocusTests {
    func answer(_ cls: String, _ title: String, pid: Int, address: String) -> JSONValue? {
        try? JSONValue.parse(#"{"class":"\#(cls)","title":"\#(title)","pid":\#(pid),"address":"0x\#(address)"}"#)
    }

    @Test("the event's id and title count at once; the answer adds the pid to the same window")
    func pidFollows() {
        var focus = HyprlandFocus()
        #expect(focus.start().ask)
        #expect(focus.answered(answer("firefox", "Start", pid: 7, address: "a1")) == .init(changed: true))
        #expect(focus.current == AppInfo(id: "firefox", title: "Start", pid: 7))
        let step = focus.feed(Array("activewindow>>evince,paper.pdf\nactivewindowv2>>0xb2\n".utf8))
        #expect(step == .init(changed: true, ask: true))
        #expect(focus.current == AppInfo(id: "evince", title: "paper.pdf"))
        #expect(focus.answered(answer("evince", "paper.pdf", pid: 8, address: "b2")).changed)
        #expect(focus.current == AppInfo(id: "evince", title: "paper.pdf", pid: 8))
    }

    @Test("focus changes while a request is out ask once more after it, never twice at once")
    func oneInFlight() {
        var focus = HyprlandFocus()
        #expect(focus.start().ask)
        var asks = 0
        for k in 0..<50 {
            let step = focus.feed(Array("activewindow>>app\(k % 2),t\nactivewindowv2>>\(k % 2)\n".utf8))
            if step.ask { asks += 1 }
        }
        #expect(asks == 0)
        #expect(focus.current?.id == "app1")
        // The first answer is stale (from before the events): it adds nothing. One more is asked.
        let next = focus.answered(answer("app0", "t", pid: 3, address: "0"))
        #expect(next == .init(changed: false, ask: true))
        #expect(focus.current == AppInfo(id: "app1", title: "t"))
        #expect(focus.answered(answer("app1", "t", pid: 4, address: "1")) == .init(changed: true, ask: false))
        #expect(focus.current == AppInfo(id: "app1", title: "t", pid: 4))
    }

    @Test("a window closed while its answer was out stays closed; a lost answer changes nothing")
    func staleAnswers() {
        var focus = HyprlandFocus()
        _ = focus.start()
        _ = focus.answered(answer("firefox", "Start", pid: 7, address: "a1"))
        _ = focus.feed(Array("windowtitle>>a1\n".utf8))
        _ = focus.feed(Array("closewindow>>a1\n".utf8))
        #expect(focus.current == nil)
        #expect(!focus.answered(answer("firefox", "Page 2", pid: 7, address: "a1")).changed)
        #expect(focus.current == nil)
        _ = focus.feed(Array("activewindow>>foot,shell\n".utf8))
        #expect(focus.answered(nil) == .init(changed: false, ask: false))
        #expect(focus.current == AppInfo(id: "foot", title: "shell"))
    }

    @Test("lines cut anywhere give the same focus; a line past 1 MB is dropped")
    func chunking() {
        let bytes = Array("activewindow>>a,one\nactivewindowv2>>1\nwindowtitlev2>>1,two, with a comma\nnoise\n>>\n".utf8)
        var whole = HyprlandFocus()
        _ = whole.feed(bytes)
        for cut in 1...7 {
            var pieces = HyprlandFocus()
            var i = 0
            while i < bytes.count {
                _ = pieces.feed(bytes[i..<min(bytes.count, i + cut)])
                i += cut
            }
            #expect(pieces.current == whole.current)
        }
        #expect(whole.current == AppInfo(id: "a", title: "two, with a comma"))
        var flooded = HyprlandFocus()
        _ = flooded.feed([UInt8](repeating: 0x41, count: HyprlandFocus.longestLine + 1))
        _ = flooded.feed(Array("\nactivewindow>>b,t\n".utf8))
        #expect(flooded.current?.id == "b")
    }
}
