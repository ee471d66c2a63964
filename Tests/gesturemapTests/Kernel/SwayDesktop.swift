#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real desktop in the guest: Debian's sway (1.7, wlroots 0.15) with its
/// libinput backend reading every input device of the seat, as a user's
/// session does, and the suite's own Wayland client (`gesture-client/`),
/// fullscreen, printing every pointer, touch and pointer-gesture event it is
/// sent. seatd opens the devices for sway (sway refuses to run as root); sway
/// and the client run as the gesturemap user.
final class SwayDesktop {
    static let width = 1920, height = 1080
    /// Built on the host by `gesture-client/build`, which scripts/kernel-test runs.
    static let clientPath = Binary.packageRoot.appendingPathComponent(".build/gesture-client/gesture-client").path
    static var available: Bool {
        ["/usr/bin/sway", "/usr/sbin/seatd", "/usr/bin/swaymsg", clientPath].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let seatd: Child
    private let sway: Child
    private let client: Child
    private let runtime: String
    private let environment: [String: String]

    init() throws {
        guard let account = getpwnam("gesturemap") else { throw KernelTestError("no gesturemap user in the guest") }
        let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        runtime = "/tmp/sway-desktop-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(runtime, 0o700) == 0, chown(runtime, uid, gid) == 0 else {
            throw KernelTestError("cannot make \(runtime): \(String(cString: strerror(errno)))")
        }
        unlink("/run/seatd.sock")
        seatd = try Child(["/usr/sbin/seatd", "-u", "gesturemap", "-g", "gesturemap", "-l", "error"])
        guard KernelGuest.wait(upTo: 10, until: { FileManager.default.fileExists(atPath: "/run/seatd.sock") }) else {
            _ = seatd.terminate()
            throw KernelTestError("seatd made no socket: \(seatd.stderr)")
        }
        let config = runtime + "/config"
        // No borders or bars: the client's surface is the whole screen, so every
        // pointer position is over it. Tap-to-click on, as desktops set it.
        try """
            output HEADLESS-1 resolution \(Self.width)x\(Self.height)
            default_border none
            xwayland disable
            input type:touchpad tap enabled

            """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = chown(config, uid, gid)
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime,
            "WLR_BACKENDS": "headless,libinput", "WLR_RENDERER": "pixman", "LIBSEAT_BACKEND": "seatd",
        ]
        sway = try Child(KernelAccessTests.gesturemapUser + ["/usr/bin/sway", "-c", config], environment: environment)
        let directory = runtime
        guard KernelGuest.wait(upTo: 30, until: { FileManager.default.fileExists(atPath: directory + "/wayland-1") && Self.ipcSocket(in: directory) != nil }) else {
            let why = sway.stderr
            _ = sway.terminate()
            _ = seatd.terminate()
            throw KernelTestError("sway did not start: \(why.suffix(2000))")
        }
        var clientEnvironment = environment
        clientEnvironment["WAYLAND_DISPLAY"] = "wayland-1"
        // A client that connects while sway is still setting up its output may
        // get no window; under a loaded guest it may also be slow to start:
        // one more try with a fresh client before giving up.
        var started: Child?
        var why = ""
        for _ in 0..<2 where started == nil {
            let client = try Child(KernelAccessTests.gesturemapUser + [Self.clientPath], environment: clientEnvironment)
            if client.wait(upTo: 45, until: { out, _ in out.contains("ready \(Self.width) \(Self.height)") }) {
                started = client
            } else {
                why += "gesture-client (\(client.isRunning ? "running" : "ended")): \(client.stdout)\(client.stderr)\n"
                _ = client.terminate(grace: 2)
            }
        }
        guard let started else {
            why += "sway: " + sway.stderr.suffix(2000)
            _ = sway.terminate()
            _ = seatd.terminate()
            throw KernelTestError("the client got no window of the screen's size: \(why)")
        }
        client = started
    }

    deinit {
        _ = client.terminate(grace: 2)
        _ = sway.terminate(grace: 5)
        _ = seatd.terminate(grace: 2)
        try? FileManager.default.removeItem(atPath: runtime)
    }

    private static func ipcSocket(in directory: String) -> String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).first { $0.hasPrefix("sway-ipc.") }.map { directory + "/" + $0 }
    }

    /// `swaymsg ARGUMENTS`, as the session's user; its output.
    @discardableResult
    func message(_ arguments: [String]) throws -> String {
        guard let socket = Self.ipcSocket(in: runtime) else { throw KernelTestError("sway's socket is gone") }
        var env = environment
        env["SWAYSOCK"] = socket
        let child = try Child(KernelAccessTests.gesturemapUser + ["/usr/bin/swaymsg"] + arguments, environment: env)
        guard child.waitForExit(upTo: 20) == 0 else { throw KernelTestError("swaymsg \(arguments): \(child.stdout)\(child.stderr)") }
        return child.stdout
    }

    /// How many of sway's inputs have this name (`swaymsg -t get_inputs`).
    func inputCount(named name: String) -> Int {
        let inputs = (try? message(["-t", "get_inputs", "-r"])) ?? ""
        // json-c writes "/" as "\/".
        let quoted = "\"" + name.replacingOccurrences(of: "/", with: "\\/") + "\""
        return inputs.components(separatedBy: quoted).count - 1
    }

    /// Waits until sway has taken a device of this name, `count` of them at least, or exactly.
    func waitForInput(named name: String, count: Int = 1, exactly: Bool = false) -> Bool {
        KernelGuest.wait(upTo: 20) {
            let found = inputCount(named: name)
            return exactly ? found == count : found >= count
        }
    }

    /// The pointer to the middle of the screen, so that no motion is cut at an edge.
    func centrePointer() throws {
        try message(["seat", "seat0", "cursor", "set", "\(Self.width / 2)", "\(Self.height / 2)"])
    }

    /// The client's lines so far: a reading starts from `lines.count`.
    var lines: [String] { client.outputLines }

    /// Waits until the client has printed nothing new for `quiet` seconds.
    func settle(quiet: Double = 1.0, timeout: Double = 30) {
        client.waitForQuiet(quiet, upTo: timeout)
    }

    func reading(fromLine first: Int) -> ClientReading { ClientReading(lines: Array(lines.dropFirst(first))) }
}

