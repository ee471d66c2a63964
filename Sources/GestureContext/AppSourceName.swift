/// Where the focused application comes from: `--app-source NAME`.
public enum AppSourceName: String, CaseIterable, Sendable {
    case x11, sway, i3, hyprland, wlroots, gnome, kde, command, none
}

/// The backend a session calls for, and how to reach it, decided from the
/// environment (or named), before anything is connected.
public enum AppSourceChoice: Equatable, Sendable {
    case x11(display: String?)
    /// sway and i3 share their IPC protocol.
    case i3ipc(name: AppSourceName, socket: String)
    case hyprland(signature: String, runtimeDirectory: String?)
    case wlroots(display: String?)
    /// The GNOME Shell extension or the KWin script, over the session bus.
    case dbus(desktop: AppSourceName, address: String?)
    case command(String)
    /// No source: g.app stays nil; `reason` says why, for one line on stderr.
    case none(reason: String)

    public var name: AppSourceName {
        switch self {
        case .x11: return .x11
        case .i3ipc(let name, _): return name
        case .hyprland: return .hyprland
        case .wlroots: return .wlroots
        case .dbus(let desktop, _): return desktop
        case .command: return .command
        case .none: return .none
        }
    }

    /// Decides from the session's variables: Hyprland, sway and i3 by their
    /// sockets; on Wayland, GNOME and KDE by XDG_CURRENT_DESKTOP, any other
    /// compositor through wlroots' window list; X11 by DISPLAY. `named` (from
    /// --app-source) wins; `command` (--app-command) wins over detection.
    public static func detect(environment env: [String: String], named: AppSourceName? = nil,
                              command: String? = nil) -> AppSourceChoice {
        func value(_ key: String) -> String? {
            guard let v = env[key], !v.isEmpty else { return nil }
            return v
        }
        let desktops = (value("XDG_CURRENT_DESKTOP") ?? "").uppercased().split(separator: ":").map(String.init)
        switch named {
        case .x11?: return .x11(display: value("DISPLAY"))
        case .sway?:
            guard let socket = value("SWAYSOCK") ?? value("I3SOCK") else {
                return .none(reason: "--app-source sway needs SWAYSOCK, which is not set; run gesturemap inside the sway session, or set SWAYSOCK to the socket (sway --get-socketpath)")
            }
            return .i3ipc(name: .sway, socket: socket)
        case .i3?:
            guard let socket = value("I3SOCK") ?? value("SWAYSOCK") else {
                return .none(reason: "--app-source i3 needs I3SOCK, which is not set; run gesturemap inside the i3 session, or set I3SOCK to the socket (i3 --get-socketpath)")
            }
            return .i3ipc(name: .i3, socket: socket)
        case .hyprland?:
            guard let signature = value("HYPRLAND_INSTANCE_SIGNATURE") else {
                return .none(reason: "--app-source hyprland needs HYPRLAND_INSTANCE_SIGNATURE, which is not set; run gesturemap inside the Hyprland session")
            }
            return .hyprland(signature: signature, runtimeDirectory: value("XDG_RUNTIME_DIR"))
        case .wlroots?: return .wlroots(display: value("WAYLAND_DISPLAY"))
        case .gnome?: return .dbus(desktop: .gnome, address: value("DBUS_SESSION_BUS_ADDRESS"))
        case .kde?: return .dbus(desktop: .kde, address: value("DBUS_SESSION_BUS_ADDRESS"))
        case .command?:
            guard let command, !command.isEmpty else {
                return .none(reason: "--app-source command needs --app-command CMD")
            }
            return .command(command)
        case .none?: return .none(reason: "--app-source none")
        case nil: break
        }
        if let command, !command.isEmpty { return .command(command) }
        if let signature = value("HYPRLAND_INSTANCE_SIGNATURE") {
            return .hyprland(signature: signature, runtimeDirectory: value("XDG_RUNTIME_DIR"))
        }
        if let socket = value("SWAYSOCK") { return .i3ipc(name: .sway, socket: socket) }
        if let socket = value("I3SOCK") { return .i3ipc(name: .i3, socket: socket) }
        if let display = value("WAYLAND_DISPLAY") {
            if desktops.contains("GNOME") { return .dbus(desktop: .gnome, address: value("DBUS_SESSION_BUS_ADDRESS")) }
            if desktops.contains("KDE") { return .dbus(desktop: .kde, address: value("DBUS_SESSION_BUS_ADDRESS")) }
            return .wlroots(display: display)
        }
        if let display = value("DISPLAY") { return .x11(display: display) }
        return .none(reason: "no desktop session found: none of WAYLAND_DISPLAY, DISPLAY, SWAYSOCK, I3SOCK or HYPRLAND_INSTANCE_SIGNATURE is set (a system service or a console?); start gesturemap inside the desktop session, or choose one with --app-source NAME or --app-command CMD")
    }
}

extension AppSourceChoice {
    /// The socket whose answers the source waits for (a compositor's IPC), for
    /// messages about one that does not answer; nil for the other sources.
    public var answeringSocket: String? {
        switch self {
        case .i3ipc(_, let socket): return socket
        case .hyprland(let signature, let runtime): return HyprlandBackend.directory(signature: signature, runtimeDirectory: runtime) + "/.socket.sock"
        default: return nil
        }
    }
}
