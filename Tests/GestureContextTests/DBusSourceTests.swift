import Foundation
import GestureContext
import Testing

/// A private session bus (a real dbus-daemon) for a test; `type: "system"`
/// makes a private system bus, for a shell that asks one for logind and others.
final class SessionBus: @unchecked Sendable {
    let address: String
    private let daemon: Child

    var pid: Int32 { daemon.pid }

    init(type: String = "session") throws {
        guard let path = which("dbus-daemon"), which("dbus-send") != nil else {
            throw try cancelled("dbus-daemon or dbus-send is not installed (apt-get install dbus-daemon dbus-bin); scripts/test installs them")
        }
        let dir = try temporaryDirectory("bus")
        let config = dir.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(type)</type>
          <listen>unix:path=\(dir.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        daemon = try Child(path, ["--config-file=\(config.path)", "--nofork", "--nopidfile"])
        address = "unix:path=\(dir.path)/bus"
        // The socket exists before the daemon answers on it: ask it something.
        let ready = waitFor(5) {
            run("/usr/bin/dbus-send", ["--bus=\(self.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.GetId"], environment: ["DBUS_SESSION_BUS_ADDRESS": self.address]).status == 0
        }
        guard ready else {
            throw try cancelled("dbus-daemon did not start")
        }
    }

    func stop() { daemon.stop() }
    deinit { stop() }
}

@Suite("GNOME and KDE app source over D-Bus", .serialized)
struct DBusSourceTests {
    @Test("FocusChanged calls from the shell set g.app exactly; WindowsChanged fills the list")
    func focusCalls() throws {
        let session = try ShellSession(.gnome)
        let (shell, tracker) = (session.shell, session.tracker)
        #expect(tracker.isConnected)
        #expect(tracker.current == nil)
        var seen: [AppInfo?] = []
        tracker.onChange = { seen.append($0) }
        shell.call("FocusChanged", "ssu", ["firefox", "Mozilla Firefox", 4242])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "firefox")
        shell.call("FocusChanged", "ssd", ["org.gnome.Evince", "paper.pdf", 17.0])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "org.gnome.Evince")
        shell.call("FocusChanged", "ssu", ["", "", 0])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(follow(tracker) { tracker.current == nil })
        shell.call("WindowsChanged", "s", [#"[{"id":"firefox","title":"Mozilla Firefox","pid":4242,"focused":false},{"id":"org.gnome.Evince","title":"paper.pdf","pid":17,"focused":true}]"#])
        #expect(shell.answer(following: tracker) == "ok")
        shell.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(shell.answer(following: tracker) == "ok")
        settle(tracker)
        #expect(seen == [AppInfo(id: "firefox", title: "Mozilla Firefox", pid: 4242),
                         AppInfo(id: "org.gnome.Evince", title: "paper.pdf", pid: 17),
                         nil,
                         AppInfo(id: "org.gnome.Evince", title: "paper.pdf", pid: 17)])
        #expect(tracker.windows().map(\.app.id) == ["firefox", "org.gnome.Evince"])
        #expect(tracker.windows().map(\.focused) == [false, true])
        #expect(session.messages == [])
    }

    struct BadCall: Sendable, CustomTestStringConvertible {
        let member: String, signature: String, arguments: String, problem: String
        var testDescription: String { "\(member)(\(signature))" }
        var values: [Any] { (try? JSONSerialization.jsonObject(with: Data(arguments.utf8))) as? [Any] ?? [] }
    }

    static let badCalls: [BadCall] = [
        BadCall(member: "FocusChanged", signature: "i", arguments: #"[5]"#, problem: "FocusChanged takes (s id, s title, u pid), not (i)"),
        BadCall(member: "FocusChanged", signature: "", arguments: #"[]"#, problem: "FocusChanged takes (s id, s title, u pid), not ()"),
        BadCall(member: "FocusChanged", signature: "us", arguments: #"[1, "x"]"#, problem: "FocusChanged takes (s id, s title, u pid), not (us)"),
        BadCall(member: "FocusChanged", signature: "sa{sv}", arguments: #"["firefox", {}]"#, problem: "FocusChanged: the title must be a string"),
        BadCall(member: "FocusChanged", signature: "sss", arguments: #"["firefox", "Firefox", "5"]"#, problem: "FocusChanged: the pid must be a number"),
        BadCall(member: "FocusChanged", signature: "ssv", arguments: #"["firefox", "Firefox", 5]"#, problem: "FocusChanged: the pid must be a number"),
        BadCall(member: "FocusChanged", signature: "ssas", arguments: #"["firefox", "Firefox", ["a", "b"]]"#, problem: "FocusChanged: the pid must be a number"),
        BadCall(member: "FocusChanged", signature: "ssa{si}", arguments: #"["firefox", "Firefox", {"a": 1}]"#, problem: "FocusChanged: the pid must be a number"),
        BadCall(member: "FocusChanged", signature: "ss(u)", arguments: #"["firefox", "Firefox", [5]]"#, problem: "FocusChanged: the pid must be a number"),
        BadCall(member: "FocusChanged", signature: "ssuu", arguments: #"["firefox", "Firefox", 5, 6]"#, problem: "FocusChanged takes (s id, s title, u pid), not (ssuu)"),
        BadCall(member: "FocusChanged", signature: "ssua{sv}", arguments: #"["firefox", "Firefox", 5, {}]"#, problem: "FocusChanged takes (s id, s title, u pid), not (ssua{sv})"),
        BadCall(member: "FocusChanged", signature: "ssus", arguments: #"["firefox", "Firefox", 5, "more"]"#, problem: "FocusChanged takes (s id, s title, u pid), not (ssus)"),
        BadCall(member: "FocusChanged", signature: "ssu", arguments: "[\"" + String(repeating: "a", count: 300) + "\", \"Firefox\", 5]",
                problem: "FocusChanged: the id is 300 bytes; at most 255"),
        BadCall(member: "WindowsChanged", signature: "", arguments: #"[]"#, problem: "WindowsChanged takes (s windows_json), not ()"),
        BadCall(member: "WindowsChanged", signature: "ss", arguments: #"["[]", "[]"]"#, problem: "WindowsChanged takes (s windows_json), not (ss)"),
        BadCall(member: "WindowsChanged", signature: "as", arguments: #"[["[]"]]"#, problem: "WindowsChanged takes (s windows_json), not (as)"),
        BadCall(member: "WindowsChanged", signature: "v", arguments: #"["[]"]"#, problem: "WindowsChanged takes (s windows_json), not (v)"),
    ]

    @Test("the id, the title and the pid only: every call's signature is checked before an argument is read", arguments: badCalls)
    func argumentTypes(_ bad: BadCall) throws {
        let session = try ShellSession(.kde)
        let (shell, tracker) = (session.shell, session.tracker)
        shell.call(bad.member, bad.signature, bad.values)
        #expect(shell.answer(following: tracker) == "error org.freedesktop.DBus.Error.InvalidArgs: \(bad.problem)")
        #expect(tracker.current == nil)
        #expect(tracker.windows().isEmpty)
        #expect(session.messages == ["app source kde: a malformed call: \(bad.problem)"])
        // Still serving: a good call after it is heard.
        shell.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "org.gnome.Evince")
    }

    @Test("only the owner of the shell's name sets g.app: a spoofer is refused, changes nothing, and is reported once; forged bus signals are ignored")
    func spoofer() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { messages.append($0) })
        let spoofer = try BusPeer(bus)
        spoofer.awaitGesturemap()
        // No shell on the bus yet: nobody is trusted.
        spoofer.call("FocusChanged", "ssu", ["evil", "Evil", 1])
        #expect(spoofer.answer(following: tracker) == "error org.freedesktop.DBus.Error.AccessDenied: gesturemap takes FocusChanged only from the desktop's shell, the owner of org.gnome.Shell; \(spoofer.uniqueName) is not it")
        #expect(tracker.current == nil)
        #expect(messages == ["app source gnome: refused a call from \(spoofer.uniqueName): org.gnome.Shell is not on the session bus, so no call is taken until it is (further refusals are not reported)"])

        var shell: BusPeer? = try BusPeer(bus, owning: ["org.gnome.Shell"])
        shell?.call("FocusChanged", "ssu", ["firefox", "Mozilla Firefox", 4242])
        #expect(shell?.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "firefox")
        spoofer.call("FocusChanged", "ssu", ["org.gnome.Terminal", "Terminal", 99], count: 20)
        #expect(spoofer.answer(following: tracker)?.hasPrefix("error org.freedesktop.DBus.Error.AccessDenied: ") == true)
        spoofer.call("WindowsChanged", "s", [#"[{"id":"evil","title":"","pid":1,"focused":true}]"#])
        #expect(spoofer.answer(following: tracker) == "error org.freedesktop.DBus.Error.AccessDenied: gesturemap takes WindowsChanged only from the desktop's shell, the owner of org.gnome.Shell; \(spoofer.uniqueName) is not it")
        settle(tracker)
        #expect(tracker.current == AppInfo(id: "firefox", title: "Mozilla Firefox", pid: 4242))
        #expect(tracker.windows().map(\.app.id) == ["firefox"])
        #expect(messages.count == 1)

        // Signals that claim to be the bus's own count only when the bus sent them.
        spoofer.send(["op": "signal", "member": "NameOwnerChanged", "sig": "sss",
                      "args": ["org.gnome.Shell", shell?.uniqueName ?? "", spoofer.uniqueName]])
        #expect(spoofer.nextLine() == "sent")
        spoofer.send(["op": "signal", "member": "NameLost", "sig": "s", "args": ["org.gesturemap.Focus"]])
        #expect(spoofer.nextLine() == "sent")
        spoofer.call("FocusChanged", "ssu", ["org.gnome.Terminal", "Terminal", 99])
        #expect(spoofer.answer(following: tracker)?.hasPrefix("error org.freedesktop.DBus.Error.AccessDenied: ") == true)
        #expect(tracker.current?.id == "firefox")
        #expect(messages.count == 1)

        // The shell restarts (a new unique name): the new one is trusted.
        let oldShell = shell?.uniqueName
        shell = nil
        let restarted = try BusPeer(bus, owning: ["org.gnome.Shell"])
        #expect(restarted.uniqueName != oldShell)
        restarted.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(restarted.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "org.gnome.Evince")
        #expect(messages.count == 1)
    }

    @Test("a program that takes the shell's name from the running shell (gnome-shell allows replacement) is not trusted; the shell is again once it has the name back")
    func shellNameTakenOver() throws {
        let session = try ShellSession(.gnome)
        let (shell, tracker) = (session.shell, session.tracker)
        shell.call("FocusChanged", "ssu", ["firefox", "Mozilla Firefox", 4242])
        #expect(shell.answer(following: tracker) == "ok")
        let thief = try BusPeer(session.bus)
        thief.send(["op": "own", "name": "org.gnome.Shell", "flags": 2])  // REPLACE_EXISTING
        #expect(thief.nextLine() == "1")  // the primary owner now; the shell waits in the queue
        #expect(follow(tracker) { !session.messages.isEmpty })
        #expect(session.messages == ["app source gnome: \(thief.uniqueName) took org.gnome.Shell from the shell while the shell still runs; no call is taken until the shell has it back (after a deliberate `--replace` of the shell, restart gesturemap)"])
        thief.call("FocusChanged", "ssu", ["org.gnome.Terminal", "Terminal", 99])
        #expect(thief.answer(following: tracker)?.hasPrefix("error org.freedesktop.DBus.Error.AccessDenied: ") == true)
        #expect(tracker.current?.id == "firefox")
        // The name goes back to the shell, first in the queue: trusted again.
        thief.send(["op": "release", "name": "org.gnome.Shell"])
        #expect(thief.nextLine() == "1")
        settle(tracker)
        shell.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "org.gnome.Evince")
        #expect(session.messages.count == 2)
    }

    @Test("a message past 64 KiB is skipped unread and said once; a list past 256 windows is refused; the stream goes on")
    func sizeCaps() throws {
        let session = try ShellSession(.gnome)
        let (shell, tracker) = (session.shell, session.tracker)
        shell.send(["op": "flood", "size": 3_000_000, "count": 3])
        #expect(shell.answer(following: tracker) == "sent")
        shell.send(["op": "ping"])
        #expect(shell.answer(following: tracker, timeout: 30) == "ok")
        #expect(session.messages.count == 1)
        #expect(session.messages.first?.hasPrefix("app source gnome: skipped a message of 3000") == true)
        #expect(session.messages.first?.hasSuffix(" bytes unread: at most 64 KiB are taken (further ones are skipped without a word)") == true)
        // Just under the cap is read.
        let window = #"{"id":"firefox","title":"TITLE","pid":4242,"focused":true}"#
        let long = "[" + window.replacingOccurrences(of: "TITLE", with: String(repeating: "é", count: 300)) + "]"
        shell.call("WindowsChanged", "s", [long])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.windows().first?.app.title == String(repeating: "é", count: 255))
        shell.call("FocusChanged", "ssu", ["firefox", String(repeating: "é", count: 300), 4242])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.title == String(repeating: "é", count: 255))
        // Too many windows, or a list of tiny values, is refused before it is parsed.
        let many = "[" + Array(repeating: window, count: 300).joined(separator: ",") + "]"
        shell.call("WindowsChanged", "s", [many])
        #expect(shell.answer(following: tracker) == "ok")
        let tiny = "[" + Array(repeating: "1", count: 20_000).joined(separator: ",") + "]"
        shell.call("WindowsChanged", "s", [tiny])
        #expect(shell.answer(following: tracker) == "ok")
        settle(tracker)
        #expect(Array(session.messages.dropFirst()) == [
            "app source gnome: WindowsChanged refused: it lists 300 windows; at most 256",
            "app source gnome: WindowsChanged refused: it has more than 4096 values; at most 256 windows are read",
        ])
        #expect(tracker.windows().count == 1)
    }

    @Test("descriptors passed with calls are refused by the bus for gesturemap: 100 calls leave its descriptors as they were")
    func passedDescriptors() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        let shell = try BusPeer(bus, owning: ["org.gnome.Shell"])
        let log = try temporaryDirectory("dbus-fd").appendingPathComponent("stderr").path
        let apps = try Child(AppsCommandTests.binary, ["apps", "--watch", "--app-source", "gnome"],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], errorLog: log)
        defer { apps.stop() }
        shell.awaitGesturemap()
        shell.send(["op": "ping"])
        #expect(shell.nextLine(timeout: 10) == "ok")
        shell.call("FocusChanged", "ssu", ["firefox", "Mozilla Firefox", 4242])
        #expect(shell.nextLine() == "ok")
        let before = descriptors(of: apps.pid)
        shell.call("FocusChanged", "ssh", ["firefox", "Mozilla Firefox", ["fd": 1]], count: 100)
        let refused = shell.nextLine(timeout: 30) ?? ""
        #expect(refused.hasPrefix("error org.freedesktop.DBus.Error.NotSupported: "))
        shell.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(shell.nextLine() == "ok")
        #expect(before > 0)
        #expect(descriptors(of: apps.pid) == before)
        #expect(apps.process.isRunning)
    }

    private func descriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    @Test("a name already taken: gesturemap waits in the queue, says once which process holds it, and takes it when freed")
    func nameTaken() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        let squatter = try BusPeer(bus, owning: ["org.gesturemap.Focus"])
        let shell = try BusPeer(bus, owning: ["org.gnome.Shell"])
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { messages.append($0) })
        #expect(follow(tracker) { !messages.isEmpty })
        let pattern = #/app source gnome: org\.gesturemap\.Focus is held by process (\d+) \(python3\) \((:[0-9.]+) on the session bus\); this gesturemap hears no focus changes until it lets go, then takes the name/#
        let match = messages.first.flatMap { try? pattern.wholeMatch(in: $0) }
        #expect(match != nil, "\(messages)")
        #expect(match.map { String($0.output.2) } == squatter.uniqueName)
        squatter.send(["op": "release", "name": "org.gesturemap.Focus"])
        #expect(squatter.nextLine() == "1")
        #expect(follow(tracker) { messages.count == 2 })
        #expect(messages.last == "app source gnome: has org.gesturemap.Focus now")
        shell.call("FocusChanged", "ssu", ["firefox", "Mozilla Firefox", 4242])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "firefox")
        // A second gesturemap waits behind this one rather than taking the name.
        var second: [String] = []
        let later = AppTracker(choice: .dbus(desktop: .gnome, address: bus.address), report: { second.append($0) })
        #expect(follow(later) { !second.isEmpty })
        #expect(second.first?.contains("org.gesturemap.Focus is held by process \(getpid()) ") == true, "\(second)")
        shell.call("FocusChanged", "ssu", ["org.gnome.Evince", "paper.pdf", 17])
        #expect(shell.answer(following: tracker) == "ok")
        #expect(tracker.current?.id == "org.gnome.Evince")
        #expect(later.current == nil)
        #expect(messages.count == 2)
    }

    @Test("no session bus: one message, g.app nil")
    func noBus() {
        var messages: [String] = []
        let tracker = AppTracker(choice: .dbus(desktop: .gnome, address: "unix:path=/nonexistent/bus"), report: { messages.append($0) })
        #expect(tracker.current == nil)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("app source gnome: cannot connect to the session bus unix:path=/nonexistent/bus:") == true)
    }
}
