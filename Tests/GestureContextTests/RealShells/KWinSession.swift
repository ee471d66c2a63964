#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A real KWin for a test: `kwin_wayland --virtual` on a private session bus,
/// with examples/kwin installed by kpackagetool and enabled in kwinrc, as
/// docs/apps.md tells a user to. Every process is started here and stopped by
/// its own pid.
///
/// Debian installs kwin_wayland with the file capability cap_sys_resource (for
/// its real-time scheduling). Where the test runs without that capability in
/// its bounding set (a container), exec refuses the file outright (EPERM); the
/// session then runs a copy of the same binary, which a copy leaves without the
/// capability, and KWin goes on without real-time scheduling.
///
/// What the virtual backend does not do that a logged-in KWin does: it has no
/// input devices (its own touchpad gestures are not exercised here), no
/// plasmashell, kglobalaccel or Xwayland.
final class KWinSession {
    static let script = "gesturemap-focus"
    let runtimeDirectory: String
    let home: String
    let waylandDisplay = "wayland-gm"
    let version: String
    private let bus: SessionBus
    private var children: [Child] = []
    private var windows: [Child] = []

    /// `kwinrc`: lines for kwinrc after the script's [Plugins] line, in that group.
    init(kwinrc extra: String = "") throws {
        guard let installed = which("kwin_wayland"), let packageTool = which("kpackagetool6") ?? which("kpackagetool5"),
              which("dbus-send") != nil else {
            throw try cancelled("kwin_wayland or kpackagetool5 is not installed (apt-get install --no-install-recommends kwin-wayland); scripts/test installs it")
        }
        bus = try SessionBus()
        let dir = try temporaryDirectory("kwin")
        runtimeDirectory = dir.appendingPathComponent("run").path
        home = dir.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        var kwin = installed
        var reported = run(kwin, ["--version"], environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        if reported.status == -1 {
            kwin = dir.appendingPathComponent("kwin_wayland").path
            try FileManager.default.copyItem(atPath: installed, toPath: kwin)
            reported = run(kwin, ["--version"], environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        }
        version = reported.output.trimmingCharacters(in: .whitespacesAndNewlines)

        let example = ShellWindow.repository.appendingPathComponent("examples/kwin").path
        let installedScript = run(packageTool, ["--type", "KWin/Script", "--install", example], environment: environment)
        guard installedScript.status == 0 else {
            throw try cancelled(Comment(rawValue: "\(packageTool) --type KWin/Script --install examples/kwin failed: \(installedScript.output)"))
        }
        // What `kwriteconfig5 --file kwinrc --group Plugins --key gesturemap-focusEnabled true` writes.
        try "[Plugins]\n\(Self.script)Enabled=true\n\(extra)".write(toFile: home + "/.config/kwinrc", atomically: true, encoding: .utf8)

        let log = dir.appendingPathComponent("kwin.log").path
        let child = try Child(kwin, ["--virtual", "--width", "1280", "--height", "800", "--socket", waylandDisplay],
                              environment: environment, errorLog: log)
        children.append(child)
        let started = waitFor(30) { !child.process.isRunning || self.scriptLoaded() }
        guard started, child.process.isRunning else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw try cancelled(Comment(rawValue: "\(version) did not start with --virtual here, or did not load the script; its log ends: \(text.suffix(1500))"))
        }
    }

    /// What a program in this session is given: its bus, runtime directory and home.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtimeDirectory, "HOME": home,
         "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
         "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CURRENT_DESKTOP": "KDE"]
    }

    /// What gesturemap is given, as a Plasma Wayland session gives it.
    var engineEnvironment: [String: String] {
        environment.merging(["WAYLAND_DISPLAY": waylandDisplay, "XDG_SESSION_TYPE": "wayland"]) { $1 }
    }

    /// Whether KWin's scripting says the example is loaded.
    func scriptLoaded() -> Bool {
        run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.kde.KWin", "/Scripting",
                                   "org.kde.kwin.Scripting.isScriptLoaded", "string:\(Self.script)"], environment: environment)
            .output.contains("boolean true")
    }

    /// The effects KWin has loaded, as its D-Bus interface says, once it has
    /// loaded the desktop grid (on by default, and loaded last with the overview).
    /// KWin loads both only when it composites with OpenGL (llvmpipe here), not
    /// with QPainter.
    func loadedEffects() -> [String] {
        var effects: [String] = []
        _ = waitFor(10) {
            effects = self.askLoadedEffects()
            return effects.contains("desktopgrid")
        }
        return effects
    }

    private func askLoadedEffects() -> [String] {
        let reply = run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.kde.KWin", "/Effects",
                                               "org.freedesktop.DBus.Properties.Get", "string:org.kde.kwin.Effects", "string:loadedEffects"],
                        environment: environment).output
        return reply.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == "string" ? words[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }
    }

    /// A Wayland window with this app_id; KWin activates it as it maps.
    func openWindow(appID: String) throws -> Child {
        let window = try ShellWindow.open(appID: appID, environment: engineEnvironment)
        windows.append(window)
        return window
    }

    /// Every pid this session started: the bus, KWin and the windows.
    var pids: [Int32] { [bus.pid] + children.map(\.pid) + windows.map(\.pid) }

    func stop() {
        for window in windows.reversed() { window.stop() }
        for child in children.reversed() { child.stop() }
        windows.removeAll()
        children.removeAll()
        bus.stop()
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: runtimeDirectory).deletingLastPathComponent().path)
    }

    deinit { stop() }
}
