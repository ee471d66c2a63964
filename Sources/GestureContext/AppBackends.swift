/// Makes the backend a choice calls for. A missing library (a kiosk without
/// X11, Wayland or D-Bus) is a failure with a message, like a missing server.
public enum AppBackends {
    public static func connect(_ choice: AppSourceChoice) throws(AppSourceLost) -> any AppBackend {
        switch choice {
        case .x11(let display): return try X11Backend(display: display)
        case .i3ipc(_, let socket): return try I3IPCBackend(socket: socket)
        case .hyprland(let signature, let runtime): return try HyprlandBackend(signature: signature, runtimeDirectory: runtime)
        case .wlroots(let display): return try WlrootsBackend(display: display)
        case .dbus(let desktop, let address): return try DBusBackend(desktop: desktop, address: address)
        case .command(let command): return try CommandBackend(command: command)
        case .none(let reason): throw AppSourceLost(reason)
        }
    }
}
