@testable import GestureContext
import GestureCore
import Testing

/// sway's and i3's focus without the socket: bytes in, focus and requests out.
@Suite("sway/i3 focus, as a value")
struct I3FocusTests {
    static let tree = #"{"type":"root","nodes":[{"type":"con","app_id":"foot","focused":true,"id":4,"pid":9}]}"#
    static let emptyTree = #"{"type":"root","nodes":[]}"#
    static func reply(_ type: I3IPC.Request, _ json: String) -> [UInt8] { I3IPC.encode(type.rawValue, json) }
    static func event(_ type: I3IPC.Event, _ json: String) -> [UInt8] { I3IPC.encode(I3IPC.eventBit | type.rawValue, json) }
    static let workspaceFocus = event(.workspace, #"{"change":"focus"}"#)

    @Test("the first focus from GET_TREE's reply; a workspace change asks again, once however many come")
    func treeOnce() throws {
        var focus = I3Focus(path: "sway.sock")
        #expect(focus.start(at: 0).map(\.0) == [.getTree, .subscribe])
        var step = try focus.feed(Self.reply(.getTree, Self.tree) + Self.reply(.subscribe, #"{"success":true}"#), at: 0)
        #expect(step.changed && step.send.isEmpty)
        #expect(focus.current == AppInfo(id: "foot", title: "", pid: 9))
        #expect(focus.oldestRequest == nil)
        step = try focus.feed(Self.workspaceFocus + Self.workspaceFocus + Self.workspaceFocus, at: 1)
        #expect(step.send.map(\.0) == [.getTree])
        #expect(focus.oldestRequest == 1)
        // Its reply, and the one more the later changes asked for.
        step = try focus.feed(Self.reply(.getTree, Self.emptyTree), at: 2)
        #expect(step.changed && step.send.map(\.0) == [.getTree])
        #expect(focus.current == nil)
    }

    @Test("replies nobody asked for ask nothing: each message makes at most one request (fuzz reproducer)")
    func spuriousReplies() throws {
        var focus = I3Focus(path: "sway.sock")
        _ = focus.start(at: 0)
        var sent = 0
        var messages = 0
        for bytes in [Self.reply(.getTree, Self.tree), Self.reply(.subscribe, #"{"success":true}"#), Self.workspaceFocus,
                      Self.reply(.getTree, Self.tree), Self.reply(.getTree, Self.tree), Self.reply(.getTree, Self.tree),
                      Self.workspaceFocus, Self.workspaceFocus] {
            messages += 1
            sent += try focus.feed(bytes, at: 0).send.count
        }
        #expect(sent == 2)
        #expect(sent <= messages)
    }

    @Test("a refused subscription and a shutdown end the connection, saying why")
    func endings() {
        var refused = I3Focus(path: "sway.sock")
        _ = refused.start(at: 0)
        #expect(throws: AppSourceLost("sway.sock refused the subscription to window events: {\"success\":false}")) {
            try refused.feed(Self.reply(.subscribe, #"{"success":false}"#), at: 0)
        }
        var shutdown = I3Focus(path: "sway.sock")
        _ = shutdown.start(at: 0)
        #expect(throws: AppSourceLost("the compositor is shutting down")) {
            try shutdown.feed(Self.event(.shutdown, #"{"change":"exit"}"#), at: 0)
        }
    }
}
