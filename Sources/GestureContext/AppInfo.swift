/// The application a gesture is for: what rules match with `app = ...` and what
/// handlers see as `g.app`.
public struct AppInfo: Equatable, Hashable, Sendable {
    /// The X11 WM_CLASS class ("firefox", "Evince"), or the Wayland app_id
    /// ("org.gnome.Evince"): what rules match.
    public var id: String
    public var title: String
    /// nil when the desktop does not say (wlroots' window list, --app-command).
    public var pid: Int?

    public init(id: String, title: String = "", pid: Int? = nil) {
        self.id = id
        self.title = title
        self.pid = pid
    }
}

/// One window an app source can see, for `gesturemap apps`.
public struct WindowInfo: Equatable, Sendable {
    public var app: AppInfo
    public var focused: Bool

    public init(app: AppInfo, focused: Bool) {
        self.app = app
        self.focused = focused
    }
}
