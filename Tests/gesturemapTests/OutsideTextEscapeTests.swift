#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Outside text that reaches the terminal through the console, which writes
/// every control in it out: what doctor reads of the desktop (sway's
/// bindgesture lines, hyprland.conf), the environment, a path given on the
/// command line, a config's text in import's warnings, a Lua error in check.
/// Each carries an OSC title (ESC ] 0 ; … BEL) and a clear-screen (ESC [ 2 J).
@Suite("Outside text through the console", .serialized)
struct OutsideTextEscapeTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
    static let shown = #"\u{1B}]0;pwned\u{7}\u{1B}[2J"#

    /// The raw bytes are nowhere in the output, and the escaped form is.
    static func expectEscaped(_ result: Binary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        let all = result.stdout + result.stderr
        #expect(TerminalEscapeTests.raw(all).isEmpty, "raw: \(TerminalEscapeTests.raw(all))", sourceLocation: sourceLocation)
        #expect(all.contains(shown), "\(all)", sourceLocation: sourceLocation)
    }

    /// Programs first on PATH that print `outputs[name]`.
    static func fakePrograms(_ outputs: [String: String]) throws -> String {
        let folder = try Binary.temporaryDirectory()
        for (name, output) in outputs {
            let script = folder.appendingPathComponent(name)
            let printed = folder.appendingPathComponent(name + ".out")
            try output.write(to: printed, atomically: true, encoding: .utf8)
            try "#!/bin/sh\nexec cat '\(printed.path)'\n".write(to: script, atomically: true, encoding: .utf8)
            chmod(script.path, 0o755)
        }
        return folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    static let collidingRules = """
        on("3-finger swipe right", function(g) emit("right") end)
        on("3-finger swipe left", function(g) emit("left") end)
        """

    @Test("doctor: a command in sway's bindgesture lines, and SWAYSOCK")
    func swayConfig() throws {
        let config = "bindgesture swipe:3:right workspace next" + Self.hostile + "\n"
        let json = "{\"config\": \"" + config.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined() + "\"}"
        let path = try Self.fakePrograms(["swaymsg": json, "sway": "sway version 1.9\n"])
        let rules = try Binary.temporaryFile("rules.lua", Self.collidingRules)
        var environment = DoctorHostileTests.noDesktop
        environment["PATH"] = path
        environment["SWAYSOCK"] = "/nonexistent/sway-ipc" + Self.hostile + ".sock"
        let result = try DoctorHostileTests.doctor(["--rules", rules.path], environment: environment).result
        #expect(result.stdout.contains("sway 1.9's 3-finger swipe right (runs \"workspace next" + Self.shown + "\")"), "\(result.stdout)")
        #expect(result.stdout.contains("cannot connect to /nonexistent/sway-ipc" + Self.shown + ".sock"), "\(result.stdout)")
        Self.expectEscaped(result)
    }

    @Test("doctor: a gesture line of hyprland.conf")
    func hyprlandConfig() throws {
        let home = try Binary.temporaryDirectory()
        try FileManager.default.createDirectory(at: home.appendingPathComponent("hypr"), withIntermediateDirectories: true)
        let conf = "gesture = 3, horizontal, workspace" + Self.hostile + "\n"
        try conf.write(to: home.appendingPathComponent("hypr/hyprland.conf"), atomically: true, encoding: .utf8)
        let rules = try Binary.temporaryFile("rules.lua", Self.collidingRules)
        var environment = DoctorHostileTests.noDesktop
        environment["HYPRLAND_INSTANCE_SIGNATURE"] = "none-here"
        environment["XDG_RUNTIME_DIR"] = home.path
        environment["XDG_CONFIG_HOME"] = home.path
        let result = try DoctorHostileTests.doctor(["--rules", rules.path], environment: environment).result
        #expect(result.stdout.contains("3-finger swipe left/right (runs workspace" + Self.shown + ")"), "\(result.stdout)")
        Self.expectEscaped(result)
    }

    @Test("doctor: XDG_CURRENT_DESKTOP and HOME")
    func environmentVariables() throws {
        var environment = DoctorHostileTests.noDesktop
        environment["XDG_CURRENT_DESKTOP"] = "Kiosk" + Self.hostile
        environment["XDG_CONFIG_HOME"] = ""
        environment["HOME"] = "/nonexistent/home" + Self.hostile
        let result = try DoctorHostileTests.doctor(environment: environment).result
        #expect(result.stdout.contains("  ok       Kiosk" + Self.shown + ", a tty session\n"), "\(result.stdout)")
        #expect(result.stdout.contains("no rules file at /nonexistent/home" + Self.shown + "/.config/gesturemap/rules.lua"), "\(result.stdout)")
        Self.expectEscaped(result)
    }

    @Test("doctor and check: the --rules path")
    func rulesPath() throws {
        let rules = try Binary.temporaryDirectory().appendingPathComponent("rules" + Self.hostile + ".lua")
        try "on(\"tap\", function(g) emit(\"tap\") end)\n".write(to: rules, atomically: true, encoding: .utf8)
        let shownPath = rules.deletingLastPathComponent().path + "/rules" + Self.shown + ".lua"
        let doctor = try DoctorHostileTests.doctor(["--rules", rules.path], environment: DoctorHostileTests.noDesktop).result
        #expect(doctor.stdout.contains("  ok       " + shownPath + " (--rules)\n"), "\(doctor.stdout)")
        Self.expectEscaped(doctor)
        let check = try Binary.run(["check", rules.path])
        #expect(check.stderr == shownPath + ": ok\n", "\(check.stderr)")
        Self.expectEscaped(check)
    }

    @Test("import: a config's command in its message")
    func importMessage() throws {
        let config = try Binary.temporaryFile("libinput-gestures.conf", "gesture swipe left 3 _internal ws_up" + Self.hostile + "\n")
        let result = try Binary.run(["import", "--format", "libinput-gestures", config.path])
        #expect(result.stderr.hasPrefix(config.path + ":1: "), "\(result.stderr)")
        Self.expectEscaped(result)
    }

    @Test("check: the text of a Lua error")
    func luaError() throws {
        let rules = try Binary.temporaryFile("error.lua", #"error("bad" .. string.char(27) .. "]0;pwned" .. string.char(7) .. string.char(27) .. "[2J")"# + "\n")
        let result = try Binary.run(["check", rules.path])
        #expect(result.status == 1)
        #expect(result.stderr == rules.path + ":1: bad" + Self.shown + "\n", "\(result.stderr)")
        Self.expectEscaped(result)
    }
}
