import Glibc
import GestureContext
import GestureScript
import GestureSystem

/// The session's variables that say which desktop is running and how to reach it.
public enum SessionEnvironment {
    public static let keys = ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE",
                              "XDG_CURRENT_DESKTOP", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"]

    public static func current() -> [String: String] {
        var environment: [String: String] = [:]
        for key in keys {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }
}

/// The focused application: where it comes from, and each change to the
/// rules at once. The loop serves the source (AppFocusSource): polled with
/// the inputs, or looked at without waiting between chunks of a replay.
extension Engine {
    /// Starts following the focus as the options say: a fixed `--app`, a named
    /// source or command, or (for `run`) the one the session's environment
    /// calls for. The tracker to serve, or nil when there is none.
    func startAppFocus() -> AppTracker? {
        if let id = options.fixedApp {
            focusChanged(AppInfo(id: id))
            return nil
        }
        if options.appSource == AppSourceName.none { return nil }
        let named = options.appSource != nil || options.appCommand != nil
        guard named || options.detectsAppSource else { return nil }
        let choice = AppSourceChoice.detect(environment: SessionEnvironment.current(), named: options.appSource, command: options.appCommand)
        if case .none(let reason) = choice {
            // No desktop at all (a kiosk, a console, CI) is only news to rules that ask for an app.
            if named || options.verbose || runtime.hasAppRules == true {
                console.note("no app source: \(reason); g.app is nil")
            }
            return nil
        }
        if options.verbose { console.note("app source: \(choice.name.rawValue)") }
        let tracker = AppTracker(choice: choice, report: { [console] in console.note($0) })
        tracker.onChange = { [unowned self] app in self.focusChanged(app) }
        if tracker.current != nil { focusChanged(tracker.current) }
        return tracker
    }

    /// The rules follow the new focus; --trace (or -v) says it.
    func focusChanged(_ app: AppInfo?) {
        runtime.setApp(app)
        if options.trace != nil {
            sayTrace(text: AppReport.line(app), json: "{\"type\":\"focus\",\"app\":\(AppReport.json(app))}")
        } else if options.verbose {
            console.note(AppReport.line(app))
        }
    }
}
