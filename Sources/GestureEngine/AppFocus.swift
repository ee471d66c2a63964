#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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

/// The focused application, kept current inside the engine's one loop: the
/// tracker's descriptor is polled with the inputs (EventLoop), or looked at
/// without waiting between chunks of a replay (Replay), and each change goes
/// to the rules at once.
extension Engine {
    /// Starts following the focus as the options say: a fixed `--app`, a named
    /// source or command, or (for `run`) the one the session's environment calls for.
    func startAppFocus() {
        if let id = options.fixedApp {
            focusChanged(AppInfo(id: id))
            return
        }
        if options.appSource == AppSourceName.none { return }
        let named = options.appSource != nil || options.appCommand != nil
        guard named || options.detectsAppSource else { return }
        let choice = AppSourceChoice.detect(environment: SessionEnvironment.current(), named: options.appSource, command: options.appCommand)
        if case .none(let reason) = choice {
            // No desktop at all (a kiosk, a console, CI) is only news to rules that ask for an app.
            if named || options.verbose || runtime.hasAppRules == true {
                console.say("gesturemap: no app source: \(reason); g.app is nil")
            }
            return
        }
        if options.verbose { console.say("gesturemap: app source: \(choice.name.rawValue)") }
        let tracker = AppTracker(choice: choice, report: { [console] in console.say($0) })
        appTracker = tracker
        tracker.onChange = { [unowned self] app in self.focusChanged(app) }
        if tracker.current != nil { focusChanged(tracker.current) }
    }

    /// The rules follow the new focus; --trace (or -v) says it.
    func focusChanged(_ app: AppInfo?) {
        runtime.setApp(app)
        if options.trace != nil {
            sayTrace(text: AppReport.line(app), json: "{\"type\":\"focus\",\"app\":\(AppReport.json(app))}")
        } else if options.verbose {
            console.say("gesturemap: " + AppReport.line(app))
        }
    }

    /// A replay never waits for the desktop: what has arrived is taken, nothing more.
    func pollAppFocus() {
        runtime.resumeAppMatching(now: MonotonicClock.now())
        guard let tracker = appTracker else { return }
        var set = PollSet<LoopToken>()
        for fd in tracker.descriptors { set.add(fd, .appSource) }
        if case .ready = set.wait(timeout: 0) { tracker.handleReadable() }
        tracker.tick()
    }
}
