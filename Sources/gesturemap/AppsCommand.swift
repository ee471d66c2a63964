import Glibc
import GestureContext
import GestureEngine

/// `gesturemap apps`: the focused application and the windows the app source
/// sees, so people can find the names to put in rules; --watch follows changes.
enum AppsCommand {
    struct Options {
        var watch = false
        var json = false
        var source: AppSourceName?
        var command: String?
    }

    static func main(_ args: [String], console: Console) -> ExitCode {
        var options = Options()
        var a = Arguments(args, command: "apps")
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-h", "--help":
                    printOut(Help.apps)
                    return .ok
                case "-w", "--watch": options.watch = true
                case "--json": options.json = true
                case "--app-source": options.source = try a.choice(for: name, inline: inline)
                case "--app-command": options.command = try a.value(for: name, inline: inline)
                default: throw UsageError(message: "unknown option \(arg)")
                }
            }
        } catch {
            return usageFailure(error, command: "apps", console: console)
        }
        var environment: [String: String] = [:]
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE",
                    "XDG_CURRENT_DESKTOP", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        let choice = AppSourceChoice.detect(environment: environment, named: options.source, command: options.command)
        if case .none(let reason) = choice {
            console.say("gesturemap apps: no app source: \(reason)")
            return .unavailable
        }
        let tracker = AppTracker(choice: choice, report: console.note)
        if options.watch { return watch(tracker, options: options, console: console) }
        guard tracker.isConnected else { return .unavailable }
        if case .dbus = choice {
            waitForDesktop(tracker, console: console)
        } else {
            // The first focus is asked for without waiting; here it is worth a moment.
            tracker.wait(upTo: 2.5) { !tracker.isAwaitingAnswer }
        }
        let windows = tracker.windows()
        if options.json {
            LineOutput.standardOutput.write(line: AppReport.json(source: tracker.sourceName, focused: tracker.current, windows: windows))
        } else {
            for line in AppReport.table(source: tracker.sourceName, focused: tracker.current, windows: windows) { console.say(line) }
        }
        return .ok
    }

    /// The extension or script calls when it sees gesturemap take its bus name;
    /// give it a moment before printing.
    private static func waitForDesktop(_ tracker: AppTracker, console: Console) {
        if !tracker.wait(upTo: 1.5, until: { tracker.current != nil || !tracker.isConnected }) || tracker.current == nil {
            let what = tracker.choice.name == .kde ? "the KWin script (examples/kwin)" : "the GNOME Shell extension (examples/gnome-extension)"
            console.say("gesturemap apps: nothing heard from \(what) yet; is it installed and enabled? (docs/apps.md)")
        }
    }

    /// Prints the focus, then each change, until interrupted or stdout closes.
    private static func watch(_ tracker: AppTracker, options: Options, console: Console) -> ExitCode {
        let out = LineOutput.standardOutput
        func show(_ app: AppInfo?) {
            if options.json {
                out.write(line: AppReport.watchJSON(source: tracker.sourceName, app: app))
            } else {
                console.say(AppReport.line(app))
            }
        }
        if !options.json { console.say("app source: \(tracker.sourceName); watching focus changes (Ctrl-C stops)") }
        tracker.wait(upTo: 2.5) { !tracker.isAwaitingAnswer }
        show(tracker.current)
        tracker.onChange = { show($0) }
        while !out.broken {
            var fds = tracker.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), tracker.timeout() ?? -1)
            if ready < 0 {
                if errno == EINTR { continue }
                console.say("gesturemap apps: poll failed: \(String(cString: strerror(errno)))")
                return .unavailable
            }
            if ready > 0 { tracker.handleReadable() }
            tracker.tick()
        }
        return .ok
    }
}
