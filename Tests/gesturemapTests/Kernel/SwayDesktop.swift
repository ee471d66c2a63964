#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real desktop in the guest: Debian's sway (1.7, wlroots 0.15) with its
/// libinput backend reading every input device of the seat, as a user's
/// session does, and `wev`, a Wayland client that prints every input event it
/// is sent, filling the screen. seatd opens the devices for sway (sway refuses
/// to run as root); sway and wev run as the gesturemap user.
final class SwayDesktop {
    static let width = 1920, height = 1080
    static var available: Bool {
        ["/usr/bin/sway", "/usr/bin/wev", "/usr/sbin/seatd", "/usr/bin/swaymsg", "/usr/bin/stdbuf"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
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
        // No borders or bars: wev's surface is the whole screen, so every
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
            let client = try Child(KernelAccessTests.gesturemapUser + ["/usr/bin/stdbuf", "-oL", "/usr/bin/wev"], environment: clientEnvironment)
            if client.wait(upTo: 45, until: { out, _ in out.contains("width: \(Self.width); height: \(Self.height)") }) {
                started = client
            } else {
                why += "wev (\(client.isRunning ? "running" : "ended")): \(client.stdout)\(client.stderr)\n"
                _ = client.terminate(grace: 2)
            }
        }
        guard let started else {
            why += "sway: " + sway.stderr.suffix(2000)
            _ = sway.terminate()
            _ = seatd.terminate()
            throw KernelTestError("wev got no window of the screen's size: \(why)")
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

    /// Waits until sway has taken a device of this name (`swaymsg -t get_inputs`).
    func waitForInput(named name: String, count: Int = 1) -> Bool {
        KernelGuest.wait(upTo: 20) {
            let inputs = (try? message(["-t", "get_inputs", "-r"])) ?? ""
            // json-c writes "/" as "\/".
            let quoted = "\"" + name.replacingOccurrences(of: "/", with: "\\/") + "\""
            return inputs.components(separatedBy: quoted).count - 1 >= count
        }
    }

    /// The pointer to the middle of the screen, so that no motion is cut at an edge.
    func centrePointer() throws {
        try message(["seat", "seat0", "cursor", "set", "\(Self.width / 2)", "\(Self.height / 2)"])
    }

    /// wev's lines so far: a reading starts from `lines.count`.
    var lines: [String] { client.outputLines }

    /// Waits until wev has printed nothing new for `quiet` seconds.
    func settle(quiet: Double = 1.0, timeout: Double = 30) {
        client.waitForQuiet(quiet, upTo: timeout)
    }

    func reading(fromLine first: Int) -> ClientReading { ClientReading(lines: Array(lines.dropFirst(first))) }
}

/// What a Wayland client was sent, read from wev's lines.
struct ClientReading {
    /// (time in ms, x, y) of each wl_pointer motion.
    var motions: [(time: Double, x: Double, y: Double)] = []
    var scroll = (vertical: 0.0, horizontal: 0.0)
    var buttons: [String] = []
    var touchDowns = 0, touchUps = 0
    /// Time in ms of each wl_touch motion.
    var touchMotionTimes: [Double] = []

    init(lines: [String]) {
        for line in lines {
            guard let close = line.firstIndex(of: "]") else { continue }
            let interface = line[..<close].split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
            let body = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            let time = Self.number(after: "time: ", in: body)
            switch (interface, body.prefix { $0 != ":" }) {
            case ("wl_pointer", "motion"):
                if let time, let (x, y) = Self.point(in: body) { motions.append((time, x, y)) }
            case ("wl_pointer", "axis") where body.contains("value: "):
                let value = Self.number(after: "value: ", in: body) ?? 0
                if body.contains("(vertical)") { scroll.vertical += value } else { scroll.horizontal += value }
            case ("wl_pointer", "button"):
                buttons.append(body.components(separatedBy: "button: ").last ?? body)
            case ("wl_touch", "down"): touchDowns += 1
            case ("wl_touch", "up"): touchUps += 1
            case ("wl_touch", "motion"):
                if let time { touchMotionTimes.append(time) }
            default: continue
            }
        }
    }

    /// How far the pointer went: the length of its path, in pixels.
    var pointerTravel: Double {
        zip(motions, motions.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    /// Seconds from the first to the last of these times (ms).
    static func spread(_ times: [Double]) -> Double { ((times.max() ?? 0) - (times.min() ?? 0)) / 1000 }

    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].prefix { "-0123456789.".contains($0) })
    }

    private static func point(in text: String) -> (Double, Double)? {
        guard let range = text.range(of: "x, y: ") else { return nil }
        let parts = text[range.upperBound...].split(separator: ",").prefix(2).map { Double($0.trimmingCharacters(in: .whitespaces).prefix { "-0123456789.".contains($0) }) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
        return (x, y)
    }
}
