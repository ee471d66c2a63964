#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A real headless sway for a test, run as an unprivileged user (sway refuses
/// root) with its own XDG_RUNTIME_DIR, and foot windows with chosen app_ids.
/// The test (root) connects to that user's sockets. Cancels (skips) the test,
/// saying why, when sway cannot start here.
final class SwaySession {
    static let user = "gesturemap-test"
    let runtimeDirectory: String
    let waylandDisplay = "wayland-gm"
    private(set) var socket = ""
    private var children: [Child] = []
    private let uid: uid_t
    private let gid: gid_t

    /// `config`: lines for sway's config after the headless output's.
    init(config extra: String = "") throws {
        guard let sway = which("sway"), which("foot") != nil, let setpriv = which("setpriv") else {
            throw try cancelled("sway, foot or setpriv is not installed (apt-get install sway foot util-linux); scripts/test installs them")
        }
        guard getuid() == 0 else { throw try cancelled("starting sway as a separate test user needs root") }
        if getpwnam(SwaySession.user) == nil {
            run("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SwaySession.user])
        }
        guard let entry = getpwnam(SwaySession.user) else { throw try cancelled("could not create the user \(SwaySession.user)") }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
        let dir = try temporaryDirectory("sway")
        runtimeDirectory = dir.path
        chown(runtimeDirectory, uid, gid)
        chmod(runtimeDirectory, 0o700)
        let config = dir.appendingPathComponent("config")
        try ("output HEADLESS-1 resolution 1280x800\n" + extra).write(to: config, atomically: true, encoding: .utf8)
        chown(config.path, uid, gid)
        let environment = ["XDG_RUNTIME_DIR": runtimeDirectory, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
                           "WLR_LIBINPUT_NO_DEVICES": "1", "WAYLAND_DISPLAY": "", "DISPLAY": "", "SWAYSOCK": "", "HOME": runtimeDirectory]
        let child = try Child(setpriv, ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", sway, "-c", config.path],
                              environment: environment, errorLog: runtimeDirectory + "/sway.log")
        children.append(child)
        var found = ""
        let started = waitFor(10) {
            found = (try? FileManager.default.contentsOfDirectory(atPath: self.runtimeDirectory))?
                .first { $0.hasPrefix("sway-ipc.") }.map { self.runtimeDirectory + "/" + $0 } ?? ""
            return !found.isEmpty || !child.process.isRunning
        }
        guard started, child.process.isRunning else {
            let listing = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            throw try cancelled("headless sway did not start here (running: \(child.process.isRunning), \(runtimeDirectory) holds \(listing))")
        }
        socket = found
        // sway names its first display wayland-1 (or -0); find it.
        let display = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?
            .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
        guard let display else { throw try cancelled("sway made no Wayland socket") }
        waylandDisplayName = display
    }

    private(set) var waylandDisplayName = ""

    /// sway's own process (setpriv execs it).
    var pid: Int32 { children.first?.pid ?? -1 }

    /// A foot terminal whose window has `appID`; waits until sway shows it.
    func openWindow(appID: String) throws {
        guard let foot = which("foot"), let setpriv = which("setpriv") else { throw try cancelled("foot is not installed") }
        children.append(try Child(setpriv, ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", foot, "-a", appID, "sleep", "600"],
                                  environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": waylandDisplayName,
                                                "HOME": runtimeDirectory, "DISPLAY": ""]))
        let shown = waitFor(10) { self.message(["-t", "get_tree"]).contains("\"app_id\": \"\(appID)\"") }
        guard shown else { throw try cancelled("foot -a \(appID) did not open a window under sway") }
    }

    /// `swaymsg ARGS` against this sway.
    @discardableResult
    func message(_ arguments: [String]) -> String {
        run("/usr/bin/swaymsg", ["-s", socket] + arguments).output
    }

    func focus(appID: String) {
        message(["[app_id=\"\(appID)\"] focus"])
    }

    func stop() {
        for child in children.reversed() { child.stop() }
        children.removeAll()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    deinit { stop() }
}
