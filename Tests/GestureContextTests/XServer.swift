#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A real X server (Xvfb) for a test, with a real window manager (openbox) when
/// asked, and real windows (xmessage, xcalc). Cancels (skips) the test, saying
/// why, when the server cannot start here.
final class XServer {
    let display: String
    private var children: [Child] = []

    init(windowManager: Bool) throws {
        guard let xvfb = which("Xvfb") else { throw try cancelled("Xvfb is not installed (apt-get install xvfb); scripts/test installs it") }
        var number = 0
        var server: Child?
        for candidate in (0..<20).map({ _ in Int.random(in: 100...900) }) {
            guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(candidate)"),
                  !FileManager.default.fileExists(atPath: "/tmp/.X\(candidate)-lock") else { continue }
            let child = try Child(xvfb, [":\(candidate)", "-screen", "0", "800x600x24", "-nolisten", "tcp"])
            // The socket appears before the server takes connections: ask it something.
            let ready = waitFor(5) {
                !child.process.isRunning || run("/usr/bin/xprop", ["-root", "-display", ":\(candidate)", "_XKB_RULES_NAMES"]).status == 0
            }
            if ready, child.process.isRunning {
                number = candidate
                server = child
                break
            }
            child.stop()
        }
        guard let server else { throw try cancelled("Xvfb did not start") }
        display = ":\(number)"
        children.append(server)
        if windowManager {
            guard let openbox = which("openbox") else { throw try cancelled("openbox is not installed (apt-get install openbox)") }
            children.append(try Child(openbox, ["--sm-disable"], environment: ["DISPLAY": display]))
            // openbox announces itself with _NET_SUPPORTING_WM_CHECK on the root;
            // on a loaded machine that can take a while.
            let started = waitFor(15) {
                run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: ["DISPLAY": self.display]).output.contains("window id")
            }
            guard started else { throw try cancelled("openbox did not start on \(display)") }
        }
    }

    /// Starts a program with a window and waits until a window of `windowClass` is mapped.
    @discardableResult
    func open(_ program: String, _ arguments: [String], windowClass: String) throws -> String {
        guard let path = which(program) else { throw try cancelled("\(program) is not installed (x11-utils, x11-apps)") }
        children.append(try Child(path, arguments, environment: ["DISPLAY": display]))
        var window = ""
        let found = waitFor(5) {
            window = run("/usr/bin/xdotool", ["search", "--onlyvisible", "--class", "^\(windowClass)$"], environment: ["DISPLAY": self.display])
                .output.split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        }
        guard found else { throw try cancelled("\(program)'s window did not appear") }
        return window
    }

    /// What a person does by clicking a window: the window manager activates it.
    /// Returns once the window manager says so in _NET_ACTIVE_WINDOW (under
    /// load, --sync can return while openbox still has it cleared).
    func activate(_ window: String) {
        run("/usr/bin/xdotool", ["windowactivate", "--sync", window], environment: ["DISPLAY": display])
        _ = waitFor(5) {
            run("/usr/bin/xdotool", ["getactivewindow"], environment: ["DISPLAY": self.display])
                .output.trimmingCharacters(in: .whitespacesAndNewlines) == window
        }
    }

    /// Without a window manager, focus is set on the window itself.
    func focus(_ window: String) {
        run("/usr/bin/xdotool", ["windowfocus", "--sync", window], environment: ["DISPLAY": display])
    }

    /// Sets a window's title (WM_NAME and _NET_WM_NAME), returning once the server has handled it.
    func retitle(_ window: String, _ title: String) {
        run("/usr/bin/xdotool", ["set_window", "--name", title, window], environment: ["DISPLAY": display])
    }

    /// Stops and resumes the X server itself (SIGSTOP, SIGCONT): a server that does not answer.
    func pause() { if let server = children.first { kill(server.pid, SIGSTOP) } }
    func resume() { if let server = children.first { kill(server.pid, SIGCONT) } }

    func stop() {
        resume()
        for child in children.reversed() { child.stop() }
        children.removeAll()
    }

    deinit { stop() }
}
