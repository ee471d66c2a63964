import GestureCore
import GestureSystem

/// Which desktop this is, its version, and the touchpad gestures it acts on
/// itself: read from its IPC or its programs where it has them.
struct DesktopExamination {
    var name: String?
    var gestures: [DesktopGesture] = []
    var findings: [DoctorFinding] = []
    /// What was found about its gestures beyond the gestures themselves: lines
    /// its version does not read, a version that could not be told.
    var gestureFindings: [DoctorFinding] = []

    /// The desktop the environment names, and what doctor asks it.
    enum Kind {
        case sway(socket: String), hyprland, gnome, kde, other(String), none

        init(environment env: [String: String]) {
            let current = (env["XDG_CURRENT_DESKTOP"] ?? "").lowercased()
            if let socket = env["SWAYSOCK"], !socket.isEmpty {
                self = .sway(socket: socket)
            } else if let signature = env["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty {
                self = .hyprland
            } else if current.contains("gnome") {
                self = .gnome
            } else if current.contains("kde") {
                self = .kde
            } else if let name = env["XDG_CURRENT_DESKTOP"], !name.isEmpty {
                self = .other(name)
            } else {
                self = .none
            }
        }

        /// The programs its examination runs, to start them all at once.
        var programs: [[String]] {
            switch self {
            case .sway(let socket): return [DesktopExamination.swayVersion, DesktopExamination.swayConfig(socket)]
            case .hyprland: return [DesktopExamination.hyprlandVersion] + DesktopExamination.hyprlandOptions.map(DesktopExamination.hyprlandOption)
            case .gnome: return [DesktopExamination.gnomeVersion, GnomeTouchpadSettings.command]
            case .kde: return [DesktopExamination.kdeVersion]
            case .other, .none: return []
            }
        }
    }

    static let swayVersion = ["sway", "--version"]
    static func swayConfig(_ socket: String) -> [String] { ["swaymsg", "-s", socket, "-r", "-t", "get_config"] }
    static let hyprlandVersion = ["hyprctl", "version", "-j"]
    static let hyprlandOptions = ["gestures:workspace_swipe", "gestures:workspace_swipe_fingers"]
    static func hyprlandOption(_ key: String) -> [String] { ["hyprctl", "-j", "getoption", key] }
    static let gnomeVersion = ["gnome-shell", "--version"]
    static let kdeVersion = ["plasmashell", "--version"]

    init(programs: DoctorPrograms) {
        let env = programs.environment
        let session = env["XDG_SESSION_TYPE"] ?? (env["WAYLAND_DISPLAY"].map { _ in "wayland" } ?? env["DISPLAY"].map { _ in "x11" } ?? "unknown")
        switch Kind(environment: env) {
        case .sway(let socket):
            examineSway(socket: socket, programs: programs)
        case .hyprland:
            examineHyprland(programs: programs)
        case .gnome:
            let version = version(of: Self.gnomeVersion, programs)
            let gnomeName = "GNOME" + (version.map { " \($0.text)" } ?? "")
            name = gnomeName
            let touchpad = answer(GnomeTouchpadSettings.command, programs).flatMap { GnomeTouchpadSettings(listing: $0.output) }
            gestures = DesktopGesture.gnome(major: version?.major ?? 40, touchpad: touchpad)
            gestureFindings += touchpad?.findings(desktop: gnomeName) ?? []
            if version == nil { findings.append(DoctorFinding(.note, "gnome-shell --version said nothing: its gestures are taken as GNOME 40 to 46's")) }
        case .kde:
            let version = version(of: Self.kdeVersion, programs)
            let kdeName = "KDE Plasma" + (version.map { " \($0.text)" } ?? "")
            name = kdeName
            let effects = KWinEffectSettings.read(environment: env)
            gestures = DesktopGesture.kde(major: version?.major ?? 6, effects: effects)
            if !effects.overview {
                gestureFindings.append(DoctorFinding(.note, "kwinrc turns KWin's overview off ([Plugins] overviewEnabled=false): its 4-finger swipe up does nothing"))
            }
            if !effects.desktopGrid {
                gestureFindings.append(DoctorFinding(.note, "kwinrc turns KWin's desktop grid off ([Plugins] desktopgridEnabled=false): its 4-finger swipe down does nothing"))
            }
        case .other(let desktop):
            name = desktop
        case .none:
            break
        }
        if let name {
            findings.insert(DoctorFinding(.ok, "\(name), a \(session) session"), at: 0)
        } else {
            findings.insert(DoctorFinding(.note, "no desktop found (XDG_CURRENT_DESKTOP, SWAYSOCK and HYPRLAND_INSTANCE_SIGNATURE are unset): a kiosk, a console or ssh; the app source and the desktop's gestures are not checked"), at: 0)
        }
    }

    /// A program's answer; one that ran out of time is said, once, and is no answer.
    private mutating func answer(_ argv: [String], _ programs: DoctorPrograms) -> ProgramOutput.Result? {
        guard let result = programs.answer(argv) else { return nil }
        guard !result.timedOut else {
            findings.append(DoctorPrograms.unanswered(argv, so: nil))
            return nil
        }
        return result
    }

    private mutating func version(of argv: [String], _ programs: DoctorPrograms) -> DesktopVersion? {
        DesktopVersion(parsing: answer(argv, programs)?.output)
    }

    /// sway reads `bindgesture` from 1.8 on; 1.7 rejects the line at start-up.
    static let swayBindgesture = DesktopVersion(1, 8)
    /// Hyprland reads `gesture = ...` lines from 0.51 on.
    static let hyprlandGestureLines = DesktopVersion(0, 51)

    private mutating func examineSway(socket: String, programs: DoctorPrograms) {
        let version = version(of: Self.swayVersion, programs)
        let swayName = "sway" + (version.map { " \($0.text)" } ?? "")
        name = swayName
        let ask = Self.swayConfig(socket)
        let reply = programs.answer(ask)
        if reply?.timedOut == true {
            findings.append(DoctorPrograms.unanswered(ask, so: "sway's bindgesture lines are not checked"))
            return
        }
        guard let reply, reply.status == 0, let config = (try? JSONValue.parse(reply.output))?["config"]?.string else {
            findings.append(DoctorFinding(.warning, "swaymsg -t get_config did not answer on \(socket): sway's bindgesture lines are not checked"))
            return
        }
        let lines = DesktopGesture.swayBindgestureLines(config: config)
        guard let version else {
            gestures = DesktopGesture.sway(config: config)
            if !lines.isEmpty {
                gestureFindings.append(DoctorFinding(.note, "sway --version said nothing: its bindgesture lines are taken as sway \(Self.swayBindgesture.text)'s and later's, which act on them"))
            }
            return
        }
        guard version >= Self.swayBindgesture else {
            gestureFindings += lines.map { line in
                DoctorFinding(.note, "\(swayName) has no bindgesture (it came in sway \(Self.swayBindgesture.text)) and rejected the config's line at start-up: \"\(line)\" does nothing on this version",
                              fix: "delete the line (sway \(version.text) shows a config error for it at every start), or upgrade to sway \(Self.swayBindgesture.text) or later, where it acts beside the rules")
            }
            return
        }
        gestures = DesktopGesture.sway(config: config)
    }

    private mutating func examineHyprland(programs: DoctorPrograms) {
        let env = programs.environment
        let tag = answer(Self.hyprlandVersion, programs).flatMap { try? JSONValue.parse($0.output) }?["tag"]?.string
        let version = DesktopVersion(parsing: tag)
        let hyprlandName = "Hyprland" + (tag.map { " \($0)" } ?? "")
        name = hyprlandName
        var values: [Int?] = []
        for key in Self.hyprlandOptions {
            values.append(answer(Self.hyprlandOption(key), programs).flatMap { try? JSONValue.parse($0.output) }?["int"]?.integer)
        }
        var lines: [String] = []
        // Empty is unset (the XDG base directory rules).
        let configured = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        let home = configured ?? (env["HOME"].map { $0 + "/.config" } ?? "")
        if case .success(let bytes) = BoundedFile.read(home + "/hypr/hyprland.conf", limit: 1 << 20) {
            lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { $0.trimmed(of: " \t").hasPrefix("gesture ") || $0.trimmed(of: " \t").hasPrefix("gesture=") }
        }
        if let version, version < Self.hyprlandGestureLines {
            gestureFindings += lines.map { line in
                DoctorFinding(.note, "\(hyprlandName) has no gesture lines (they came in Hyprland \(Self.hyprlandGestureLines.text)): \"\(line.trimmed(of: " \t"))\" in hyprland.conf does nothing on this version",
                              fix: "delete the line, or upgrade to Hyprland \(Self.hyprlandGestureLines.text) or later, where it acts beside the rules")
            }
            lines = []
        }
        gestures = DesktopGesture.hyprland(workspaceSwipe: (values[0] ?? 0) != 0, fingers: values[1], gestureLines: lines)
    }
}

/// The systemd user service's state, as `systemctl --user` tells it.
enum ServiceExamination {
    static let isActive = ["systemctl", "--user", "is-active", "gesturemap.service"]
    static let isEnabled = ["systemctl", "--user", "is-enabled", "gesturemap.service"]
    static let programs = [isActive, isEnabled]

    static func findings(programs: DoctorPrograms) -> [DoctorFinding] {
        guard let active = programs.answer(isActive) else {
            return [DoctorFinding(.note, "systemctl is not here: no user service to check")]
        }
        if active.timedOut { return [DoctorPrograms.unanswered(isActive, so: "the service is not checked")] }
        let enabledAnswer = programs.answer(isEnabled)
        if enabledAnswer?.timedOut == true { return [DoctorPrograms.unanswered(isEnabled, so: "the service is not checked")] }
        let state = active.output.trimmed(of: "\n ")
        let enabled = enabledAnswer?.output.trimmed(of: "\n ") ?? ""
        switch state {
        case "active":
            return [DoctorFinding(.ok, "gesturemap.service is running (\(enabled.isEmpty ? "enabled: unknown" : enabled))")]
        case "failed":
            return [DoctorFinding(.warning, "gesturemap.service failed", fix: "journalctl --user -u gesturemap -e says why; systemctl --user restart gesturemap after the fix")]
        case "inactive", "unknown":
            return [DoctorFinding(.note, "gesturemap.service is not running" + (enabled == "enabled" ? " (enabled)" : ""), fix: startFix(enabled: enabled))]
        default:
            return [DoctorFinding(.note, "systemctl --user could not tell (\(state.isEmpty ? "no user manager: not logged in at a desktop?" : state))")]
        }
    }

    /// What is left to do to run it, by what `is-enabled` said: nothing (systemd
    /// knows no such unit) means it is not installed.
    static func startFix(enabled: String) -> String {
        switch enabled {
        case "enabled":
            return "it starts at login; to start it now: systemctl --user start gesturemap"
        case "masked":
            return "systemctl --user unmask gesturemap && systemctl --user enable --now gesturemap"
        case "", "not-found":
            let unit = InstalledFiles.example("systemd/gesturemap.service")
            return "to run it at login: mkdir -p ~/.config/systemd/user && cp \(unit ?? "gesturemap.service") ~/.config/systemd/user/"
                + (unit == nil ? "   # from examples/systemd/ in gesturemap's source" : "")
                + "\nsystemctl --user daemon-reload && systemctl --user enable --now gesturemap"
        default:
            return "to run it at login: systemctl --user enable --now gesturemap"
        }
    }
}
