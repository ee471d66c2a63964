#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A real GNOME Shell for a test: `gnome-shell --headless --virtual-monitor
/// --wayland --no-x11` on a private session bus, with dconf-service on that bus
/// (so gsettings written by the test are what the shell reads), a private
/// system bus (gnome-shell asks it for logind, and dies at start-up when
/// /run/systemd/seats exists but no system bus answers), and
/// examples/gnome-extension installed and enabled as a user does it (copied
/// into ~/.local/share/gnome-shell/extensions, then `gnome-extensions enable`'s
/// call). Every
/// process is started here and stopped by its own pid.
///
/// What the headless shell does not do that a logged-in one does: it has no
/// input devices (so its own touchpad gestures are not exercised here), no
/// gnome-session, gnome-settings-daemon, AT-SPI or ibus (it logs their absence
/// and goes on).
final class GnomeShellSession {
    static let uuid = "gesturemap-focus@gesturemap"
    let runtimeDirectory: String
    let home: String
    let waylandDisplay = "wayland-gm"
    let version: String
    /// The example folder installed: the pre-ES-module one below GNOME 45.
    let example: String
    private let sessionBus: SessionBus
    private let systemBus: SessionBus
    private var children: [Child] = []
    private var windows: [Child] = []

    init() throws {
        guard let shell = which("gnome-shell"), which("gsettings") != nil, which("gdbus") != nil,
              FileManager.default.isExecutableFile(atPath: "/usr/libexec/dconf-service") else {
            throw try cancelled("gnome-shell, gsettings, gdbus or dconf-service is not installed (apt-get install --no-install-recommends gnome-shell); scripts/test installs it")
        }
        let reported = run(shell, ["--version"]).output
        guard let major = reported.split(separator: " ").last.flatMap({ $0.split(separator: ".").first }).flatMap({ Int($0) }) else {
            throw try cancelled("gnome-shell --version said \"\(reported)\": no version")
        }
        version = reported.trimmingCharacters(in: .whitespacesAndNewlines)
        example = major < 45 ? "gnome-extension-legacy" : "gnome-extension"
        sessionBus = try SessionBus()
        systemBus = try SessionBus(type: "system")
        let dir = try temporaryDirectory("gnome")
        runtimeDirectory = dir.appendingPathComponent("run").path
        home = dir.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let extensions = home + "/.local/share/gnome-shell/extensions"
        try FileManager.default.createDirectory(atPath: extensions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ShellWindow.repository.appendingPathComponent("examples/\(example)").path,
                                         toPath: extensions + "/" + Self.uuid)

        children.append(try Child("/usr/libexec/dconf-service", [], environment: environment))

        let child = try Child(shell, ["--headless", "--virtual-monitor", "1280x800", "--wayland", "--no-x11",
                                      "--wayland-display", waylandDisplay],
                              environment: environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address]) { $1 },
                              errorLog: dir.appendingPathComponent("gnome-shell.log").path)
        children.append(child)
        let log = dir.appendingPathComponent("gnome-shell.log").path
        // The shell finds the extension at start-up (state 6, "initialized");
        // enabling it is what `gnome-extensions enable` asks over D-Bus. It
        // settles then: 1 enabled, 3 error, 4 out of date.
        var state: String?
        let started = waitFor(30) {
            guard child.process.isRunning else { return true }
            state = self.extensionState()?.state
            if state == "6.0" { _ = self.call("/org/gnome/Shell", "org.gnome.Shell.Extensions.EnableExtension", [Self.uuid]) }
            guard let state else { return false }
            return !state.isEmpty && state != "6.0"
        }
        guard started, child.process.isRunning else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw try cancelled(Comment(rawValue: "\(version) did not start headless here (running: \(child.process.isRunning), the extension's state: \(state ?? "no answer")); its log ends: \(text.suffix(1500))"))
        }
    }

    /// What a program in this session is given: its buses, runtime directory and home.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": sessionBus.address, "XDG_RUNTIME_DIR": runtimeDirectory, "HOME": home,
         "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
         "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CURRENT_DESKTOP": "GNOME"]
    }

    /// What gesturemap is given, as a GNOME Wayland session gives it.
    var engineEnvironment: [String: String] {
        environment.merging(["WAYLAND_DISPLAY": waylandDisplay, "XDG_SESSION_TYPE": "wayland"]) { $1 }
    }

    func gsettings(_ arguments: [String]) throws {
        let result = run("/usr/bin/gsettings", arguments, environment: environment)
        guard result.status == 0 else { throw try cancelled(Comment(rawValue: "gsettings \(arguments.joined(separator: " ")) failed")) }
    }

    /// `gdbus call` to the shell; its printed answer, or nil.
    func call(_ path: String, _ method: String, _ arguments: [String]) -> String? {
        let result = run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.gnome.Shell", "--object-path", path,
                                            "--method", method] + arguments, environment: environment)
        return result.status == 0 ? result.output : nil
    }

    /// The extension's state as the shell's extension manager says it (1: enabled), and its error.
    func extensionState() -> (state: String, error: String)? {
        guard let info = call("/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo", [Self.uuid]) else { return nil }
        func field(_ name: String) -> String {
            guard let start = info.range(of: "'\(name)': <") else { return "" }
            return String(info[start.upperBound...].prefix { $0 != ">" })
        }
        return (field("state"), field("error"))
    }

    /// GNOME 40 and later open the overview at login; a window opened under it
    /// gets no focus until the user leaves it, as the test does here.
    /// The shell ignores the request while its start-up animation still runs, so it is made again until it holds.
    func leaveOverview() -> Bool {
        waitFor(15) {
            _ = self.call("/org/gnome/Shell", "org.freedesktop.DBus.Properties.Set", ["org.gnome.Shell", "OverviewActive", "<false>"])
            return waitFor(0.5) {
                self.call("/org/gnome/Shell", "org.freedesktop.DBus.Properties.Get", ["org.gnome.Shell", "OverviewActive"])?
                    .contains("false") == true
            }
        }
    }

    /// A Wayland window with this app_id; the shell focuses it as it maps.
    func openWindow(appID: String) throws -> Child {
        let window = try ShellWindow.open(appID: appID, environment: engineEnvironment)
        windows.append(window)
        return window
    }

    /// Every pid this session started: the buses, dconf-service, the shell and the windows.
    var pids: [Int32] { [sessionBus.pid, systemBus.pid] + children.map(\.pid) + windows.map(\.pid) }

    func stop() {
        for window in windows.reversed() { window.stop() }
        for child in children.reversed() { child.stop() }
        windows.removeAll()
        children.removeAll()
        sessionBus.stop()
        systemBus.stop()
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: runtimeDirectory).deletingLastPathComponent().path)
    }

    deinit { stop() }
}
