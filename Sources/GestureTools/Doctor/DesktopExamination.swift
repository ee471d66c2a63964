import GestureCore
import GestureSystem

/// Which desktop this is, its version, and the touchpad gestures it acts on
/// itself: read from its IPC or its programs where it has them.
struct DesktopExamination {
    var name: String?
    var gestures: [DesktopGesture] = []
    var findings: [DoctorFinding] = []

    init(environment env: [String: String]) {
        let current = (env["XDG_CURRENT_DESKTOP"] ?? "").lowercased()
        let session = env["XDG_SESSION_TYPE"] ?? (env["WAYLAND_DISPLAY"].map { _ in "wayland" } ?? env["DISPLAY"].map { _ in "x11" } ?? "unknown")
        if let socket = env["SWAYSOCK"], !socket.isEmpty {
            examineSway(socket: socket, environment: env)
        } else if let signature = env["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty {
            examineHyprland(environment: env)
        } else if current.contains("gnome") {
            let version = Self.version(ProgramOutput.run(["gnome-shell", "--version"], environment: env)?.output)
            name = "GNOME" + (version.map { " \($0.text)" } ?? "")
            gestures = DesktopGesture.gnome(major: version?.major ?? 40)
            if version == nil { findings.append(DoctorFinding(.note, "gnome-shell --version said nothing: its gestures are taken as GNOME 40 to 46's")) }
        } else if current.contains("kde") {
            let version = Self.version(ProgramOutput.run(["plasmashell", "--version"], environment: env)?.output)
            name = "KDE Plasma" + (version.map { " \($0.text)" } ?? "")
            gestures = DesktopGesture.kde(major: version?.major ?? 6)
        } else if !current.isEmpty {
            name = env["XDG_CURRENT_DESKTOP"]
        }
        if let name {
            findings.insert(DoctorFinding(.ok, "\(name), a \(session) session"), at: 0)
        } else {
            findings.insert(DoctorFinding(.note, "no desktop found (XDG_CURRENT_DESKTOP, SWAYSOCK and HYPRLAND_INSTANCE_SIGNATURE are unset): a kiosk, a console or ssh; the app source and the desktop's gestures are not checked"), at: 0)
        }
    }

    private mutating func examineSway(socket: String, environment env: [String: String]) {
        let version = Self.version(ProgramOutput.run(["sway", "--version"], environment: env)?.output)
        name = "sway" + (version.map { " \($0.text)" } ?? "")
        guard let reply = ProgramOutput.run(["swaymsg", "-s", socket, "-r", "-t", "get_config"], environment: env), reply.status == 0,
              let config = (try? JSONValue.parse(reply.output))?["config"]?.string else {
            findings.append(DoctorFinding(.warning, "swaymsg -t get_config did not answer on \(socket): sway's bindgesture lines are not checked"))
            return
        }
        gestures = DesktopGesture.sway(config: config)
    }

    private mutating func examineHyprland(environment env: [String: String]) {
        let version = ProgramOutput.run(["hyprctl", "version", "-j"], environment: env).flatMap { try? JSONValue.parse($0.output) }?["tag"]?.string
        name = "Hyprland" + (version.map { " \($0)" } ?? "")
        func option(_ key: String) -> Int? {
            ProgramOutput.run(["hyprctl", "-j", "getoption", key], environment: env).flatMap { try? JSONValue.parse($0.output) }?["int"]?.integer
        }
        var lines: [String] = []
        let home = env["XDG_CONFIG_HOME"] ?? (env["HOME"].map { $0 + "/.config" } ?? "")
        if case .success(let bytes) = BoundedFile.read(home + "/hypr/hyprland.conf", limit: 1 << 20) {
            lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { $0.trimmed(of: " \t").hasPrefix("gesture ") || $0.trimmed(of: " \t").hasPrefix("gesture=") }
        }
        gestures = DesktopGesture.hyprland(workspaceSwipe: (option("gestures:workspace_swipe") ?? 0) != 0,
                                           fingers: option("gestures:workspace_swipe_fingers"), gestureLines: lines)
    }

    /// "GNOME Shell 43.9" → 43, "43.9"; "sway version 1.7" → 1, "1.7".
    static func version(_ output: String?) -> (major: Int, text: String)? {
        guard let output else { return nil }
        for word in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let text = String(word.drop { !$0.isNumber })
            if let first = text.split(separator: ".").first, let major = Int(first), text.contains(".") { return (major, text) }
        }
        return nil
    }
}

/// The systemd user service's state, as `systemctl --user` tells it.
enum ServiceExamination {
    static func findings(environment env: [String: String]) -> [DoctorFinding] {
        guard let active = ProgramOutput.run(["systemctl", "--user", "is-active", "gesturemap.service"], environment: env) else {
            return [DoctorFinding(.note, "systemctl is not here: no user service to check")]
        }
        let state = active.output.trimmed(of: "\n ")
        let enabled = ProgramOutput.run(["systemctl", "--user", "is-enabled", "gesturemap.service"], environment: env)?.output.trimmed(of: "\n ") ?? ""
        switch state {
        case "active":
            return [DoctorFinding(.ok, "gesturemap.service is running (\(enabled.isEmpty ? "enabled: unknown" : enabled))")]
        case "failed":
            return [DoctorFinding(.warning, "gesturemap.service failed", fix: "journalctl --user -u gesturemap -e says why; systemctl --user restart gesturemap after the fix")]
        case "inactive", "unknown":
            return [DoctorFinding(.note, "gesturemap.service is not running" + (enabled == "enabled" ? " (enabled)" : ""),
                                  fix: "to run it at login: systemctl --user enable --now gesturemap (the package installs the unit; from a build, examples/systemd/gesturemap.service)")]
        default:
            return [DoctorFinding(.note, "systemctl --user could not tell (\(state.isEmpty ? "no user manager: not logged in at a desktop?" : state))")]
        }
    }
}
