#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Per-application rules end to end: `gesturemap run` reading gestures from a
/// pipe while real windows take the focus in turn (a real X server and window
/// manager, a real headless sway), and through the stand-ins for Hyprland and
/// the GNOME and KDE desktops. The same gesture runs the rule of whichever
/// application has the focus; the general rule serves the rest.
@Suite("Per-application rules through gesturemap run", .serialized)
struct PerAppRunTests {
    static let swipe = Gestures.synth("two-finger swipe left")

    /// A general rule, then one rule for each application, all for the same gesture.
    static func rules(_ apps: [(pattern: String, action: String)]) throws -> String {
        var text = #"on("two-finger swipe left", function(g) emit("next_page", { app = g.app and g.app.id or "none" }) end)"# + "\n"
        for app in apps {
            text += #"on("two-finger swipe left", function(g) emit("\#(app.action)", { app = g.app.id }) end, { app = "\#(app.pattern)" })"# + "\n"
        }
        let file = try temporaryDirectory("rules").appendingPathComponent("per-app.lua")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs the gesture once per focus in `focuses` (each made current by its
    /// `act`, and awaited as the focus line `-v` prints), and checks the lines
    /// against a replay of the same input with that application fixed (`--app`).
    func drive(_ run: EngineRun, rules: String, _ focuses: [(id: String, act: () -> Void)],
               expect actions: [String]) throws {
        var expected: [String] = []
        var seen: [String: Int] = [:]
        for (k, focus) in focuses.enumerated() {
            focus.act()
            seen[focus.id, default: 0] += 1
            #expect(run.waitForMessage("focus: \(focus.id)", count: seen[focus.id] ?? 1), "\(run.stderr)")
            let input = Gestures.shifted(Self.swipe, by: Double(10 * k), header: k == 0)
            #expect(run.gesture(input), "no line for the gesture with \(focus.id) focused: \(run.stderr)")
            expected += try Gestures.replay(Gestures.shifted(Self.swipe, by: Double(10 * k), header: true),
                                            ["--rules", rules, "--app", focus.id])
        }
        #expect(run.finish() == 0)
        #expect(run.lines == expected, "\(run.stderr)")
        #expect(run.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.map { "\($0["action"] ?? "") \($0["app"] ?? "")" } == actions)
    }

    @Test("X11 (Xvfb, openbox): activating xmessage and xcalc in turn runs each one's rule")
    func x11() throws {
        let x = try XServer(windowManager: true)
        defer { x.stop() }
        let message = try x.open("xmessage", ["-name", "notes", "a message"], windowClass: "Xmessage")
        let calculator = try x.open("xcalc", [], windowClass: "XCalc")
        x.activate(message)
        let rules = try Self.rules([("Xmessage", "Page_Down"), ("XCalc", "Right")])
        let run = try EngineRun(["--rules", rules, "-v"], environment: ["DISPLAY": x.display])
        try drive(run, rules: rules, [
            ("Xmessage", {}),
            ("XCalc", { x.activate(calculator) }),
            ("Xmessage", { x.activate(message) }),
        ], expect: ["Page_Down Xmessage", "Right XCalc", "Page_Down Xmessage"])
        #expect(run.stderr.contains("gesturemap: app source: x11"))
    }

    @Test("sway (headless, IPC): focusing two foot windows in turn runs each one's rule")
    func sway() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        try sway.openWindow(appID: "org.pwmt.zathura")
        try sway.openWindow(appID: "firefox")
        sway.focus(appID: "org.pwmt.zathura")
        let rules = try Self.rules([("zathura", "J"), ("firefox", "alt+Right")])
        let run = try EngineRun(["--rules", rules, "-v"], environment: ["SWAYSOCK": sway.socket])
        try drive(run, rules: rules, [
            ("org.pwmt.zathura", {}),
            ("firefox", { sway.focus(appID: "firefox") }),
            ("org.pwmt.zathura", { sway.focus(appID: "org.pwmt.zathura") }),
        ], expect: ["J org.pwmt.zathura", "alt+Right firefox", "J org.pwmt.zathura"])
        #expect(run.stderr.contains("gesturemap: app source: sway"))
    }

    @Test("wlroots foreign-toplevel (the same sway, through WAYLAND_DISPLAY): each window's rule in turn")
    func wlroots() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        try sway.openWindow(appID: "slides")
        try sway.openWindow(appID: "notes")
        sway.focus(appID: "slides")
        let rules = try Self.rules([("^slides$", "Right"), ("^notes$", "Page_Down")])
        let run = try EngineRun(["--rules", rules, "-v"],
                                environment: ["WAYLAND_DISPLAY": sway.runtimeDirectory + "/" + sway.waylandDisplayName])
        try drive(run, rules: rules, [
            ("slides", {}),
            ("notes", { sway.focus(appID: "notes") }),
            ("slides", { sway.focus(appID: "slides") }),
        ], expect: ["Right slides", "Page_Down notes", "Right slides"])
        #expect(run.stderr.contains("gesturemap: app source: wlroots"))
    }

    @Test("Hyprland (a stand-in speaking its sockets): each window's rule in turn, and the general rule for others")
    func hyprland() throws {
        let hypr = try HyprlandStandIn()
        defer { hypr.stop() }
        let reader = hypr.open("org.pwmt.zathura", title: "paper.pdf", pid: 301)
        let browser = hypr.open("firefox", title: "Mozilla Firefox", pid: 300)
        let terminal = hypr.open("foot", title: "~", pid: 302)
        hypr.focus(reader)
        let rules = try Self.rules([("zathura", "J"), ("firefox", "alt+Right")])
        let run = try EngineRun(["--rules", rules, "-v"],
                                environment: ["HYPRLAND_INSTANCE_SIGNATURE": hypr.signature, "XDG_RUNTIME_DIR": hypr.runtimeDirectory])
        try drive(run, rules: rules, [
            ("org.pwmt.zathura", {}),
            ("firefox", { hypr.awaitListeners(); hypr.focus(browser) }),
            ("foot", { hypr.focus(terminal) }),
        ], expect: ["J org.pwmt.zathura", "alt+Right firefox", "next_page foot"])
    }

    @Test("GNOME and KDE (a private session bus, the shell's calls made by a python3-dbus peer that owns its name): each app's rule in turn",
          arguments: ["gnome", "kde"])
    func dbus(desktop: String) throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        let rules = try Self.rules([("Evince", "Page_Down"), ("firefox", "alt+Right")])
        let run = try EngineRun(["--rules", rules, "-v"],
                                environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": desktop == "gnome" ? "GNOME" : "KDE",
                                              "DBUS_SESSION_BUS_ADDRESS": bus.address])
        // The shell calls once gesturemap has the name: until then the call fails.
        let shell = try BusPeer(bus, owning: [desktop == "gnome" ? "org.gnome.Shell" : "org.kde.KWin"])
        func focus(_ id: String, _ title: String, _ pid: Int) {
            _ = waitFor(10) {
                shell.call("FocusChanged", "ssu", [id, title, pid])
                return shell.nextLine() == "ok"
            }
        }
        try drive(run, rules: rules, [
            ("org.gnome.Evince", { focus("org.gnome.Evince", "paper.pdf", 17) }),
            ("firefox", { focus("firefox", "Mozilla Firefox", 4242) }),
            ("org.gnome.Evince", { focus("org.gnome.Evince", "paper.pdf", 17) }),
        ], expect: ["Page_Down org.gnome.Evince", "alt+Right firefox", "Page_Down org.gnome.Evince"])
        #expect(run.stderr.contains("gesturemap: app source: \(desktop)"))
    }

    @Test("--app-command: each line the command prints is the focus for the gestures after it")
    func appCommand() throws {
        let dir = try temporaryDirectory("appcmd")
        let fifo = dir.appendingPathComponent("focus").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read and write: the test's end never waits for the command to open its own.
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        func say(_ line: String) { _ = (line + "\n").withCString { write(writer, $0, strlen($0)) } }
        let rules = try Self.rules([("zathura", "J"), ("^foot$", "Page_Down")])
        let run = try EngineRun(["--rules", rules, "-v", "--app-command", "exec cat '\(fifo)'"])
        try drive(run, rules: rules, [
            ("org.pwmt.zathura", { say("org.pwmt.zathura\tpaper.pdf\t4242") }),
            ("foot", { say("foot") }),
            ("org.pwmt.zathura", { say("org.pwmt.zathura\tpaper.pdf") }),
        ], expect: ["J org.pwmt.zathura", "Page_Down foot", "J org.pwmt.zathura"])
        #expect(run.stderr.contains("gesturemap: app source: command"))
    }
}
