import Foundation
import GestureContext
import Testing

/// A private session bus (a real dbus-daemon) for a test.
final class SessionBus: @unchecked Sendable {
    let address: String
    private let daemon: Child

    init() throws {
        guard let path = which("dbus-daemon"), which("dbus-send") != nil else {
            try Test.cancel("dbus-daemon or dbus-send is not installed (apt-get install dbus-daemon dbus-bin); scripts/test installs them")
        }
        let dir = try temporaryDirectory("bus")
        let config = dir.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(dir.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        daemon = try Child(path, ["--config-file=\(config.path)", "--nofork", "--nopidfile"])
        address = "unix:path=\(dir.path)/bus"
        // The socket exists before the daemon answers on it: ask it something.
        let ready = waitFor(5) {
            run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.GetId"], environment: ["DBUS_SESSION_BUS_ADDRESS": self.address]).status == 0
        }
        guard ready else {
            try Test.cancel("dbus-daemon did not start")
        }
    }

    /// What the GNOME extension and the KWin script do: call gesturemap's method.
    @discardableResult
    func call(_ member: String, _ arguments: [String]) -> (status: Int32, output: String) {
        run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=\(FocusInterface.busName)", FocusInterface.objectPath,
                                   "\(FocusInterface.interface).\(member)"] + arguments,
            environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    func stop() { daemon.stop() }
    deinit { stop() }
}

@Suite("GNOME and KDE app source over D-Bus", .serialized)
struct DBusSourceTests {
    @Test("FocusChanged calls from the extension's side set g.app exactly; WindowsChanged fills the list")
    func focusCalls() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { messages.append($0) })
        #expect(tracker.isConnected)
        #expect(tracker.current == nil)
        var seen: [AppInfo?] = []
        tracker.onChange = { seen.append($0) }
        // dbus-send waits for the reply, which the tracker sends as it reads.
        let caller = Thread { _ = bus.call("FocusChanged", ["string:firefox", "string:Mozilla Firefox", "uint32:4242"]) }
        caller.start()
        #expect(follow(tracker) { tracker.current?.id == "firefox" })
        DispatchQueue.global().async { bus.call("FocusChanged", ["string:org.gnome.Evince", "string:paper.pdf", "double:17"]) }
        #expect(follow(tracker) { tracker.current?.id == "org.gnome.Evince" })
        DispatchQueue.global().async { bus.call("FocusChanged", ["string:", "string:", "uint32:0"]) }
        #expect(follow(tracker) { tracker.current == nil })
        DispatchQueue.global().async {
            bus.call("WindowsChanged", [#"string:[{"id":"firefox","title":"Mozilla Firefox","pid":4242,"focused":false},{"id":"org.gnome.Evince","title":"paper.pdf","pid":17,"focused":true}]"#])
            bus.call("FocusChanged", ["string:org.gnome.Evince", "string:paper.pdf", "uint32:17"])
        }
        #expect(follow(tracker) { tracker.current?.id == "org.gnome.Evince" })
        settle(tracker)
        #expect(seen == [AppInfo(id: "firefox", title: "Mozilla Firefox", pid: 4242),
                         AppInfo(id: "org.gnome.Evince", title: "paper.pdf", pid: 17),
                         nil,
                         AppInfo(id: "org.gnome.Evince", title: "paper.pdf", pid: 17)])
        #expect(tracker.windows().map(\.app.id) == ["firefox", "org.gnome.Evince"])
        #expect(tracker.windows().map(\.focused) == [false, true])
        #expect(messages == [])
    }

    @Test("a malformed call gets a D-Bus error and one line on stderr; g.app is unchanged")
    func malformedCall() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .kde, address: bus.address), report: { messages.append($0) })
        final class Reply: @unchecked Sendable { var output = "" }
        let reply = Reply()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            reply.output = bus.call("FocusChanged", ["int32:5"]).output
            done.signal()
        }
        #expect(follow(tracker) { !messages.isEmpty })
        done.wait()
        #expect(reply.output.isEmpty)
        #expect(tracker.current == nil)
        #expect(messages == ["gesturemap: app source kde: a malformed call: FocusChanged takes (s id, s title, u pid)"])
    }

    @Test("a pid that is a container (a variant, an array) is refused with a D-Bus error; the process lives on", arguments: [
        ["string:firefox", "string:Firefox", "variant:uint32:5"],
        ["string:firefox", "string:Firefox", "array:string:a,b"],
        ["string:firefox", "string:Firefox", "dict:string:int32:a,1"],
    ])
    func containerPid(_ arguments: [String]) throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .kde, address: bus.address), report: { messages.append($0) })
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = bus.call("FocusChanged", arguments)
            done.signal()
        }
        #expect(follow(tracker) { !messages.isEmpty })
        done.wait()
        #expect(tracker.current == nil)
        #expect(messages == ["gesturemap: app source kde: a malformed call: FocusChanged: the pid must be a number"])
        // Still serving: a good call after it is heard.
        DispatchQueue.global().async { _ = bus.call("FocusChanged", ["string:org.gnome.Evince", "string:paper.pdf", "uint32:17"]) }
        #expect(follow(tracker) { tracker.current?.id == "org.gnome.Evince" })
    }

    @Test("a second gesturemap takes the bus name; the first says so")
    func nameTakenOver() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        var first: [String] = []
        let earlier = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { first.append($0) })
        let later = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { _ in })
        #expect(later.isConnected)
        #expect(follow(earlier) { !first.isEmpty })
        #expect(first == ["gesturemap: app source gnome: another program took org.gesturemap.Focus on the session bus (a second gesturemap?); this one hears no focus changes until it exits"])
    }

    @Test("no session bus: one message, g.app nil")
    func noBus() {
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .gnome, address: "unix:path=/nonexistent/bus"), report: { messages.append($0) })
        #expect(tracker.current == nil)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("gesturemap: app source gnome: cannot connect to the session bus unix:path=/nonexistent/bus:") == true)
    }
}
