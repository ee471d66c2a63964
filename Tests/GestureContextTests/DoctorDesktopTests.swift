import Foundation
import Testing

/// `gesturemap doctor` against real desktops' servers: a headless sway whose
/// config binds touchpad gestures, and Xvfb.
@Suite("doctor on real desktop servers", .serialized)
struct DoctorDesktopTests {
    static func doctor(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AppsCommandTests.binary)
        process.arguments = ["doctor"] + arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP"] { env[key] = nil }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func rules(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).lua")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The installed sway's version, as `sway --version` prints it: "1.7".
    static func swayVersion() -> (text: String, hasBindgesture: Bool)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sway", "--version"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let version = text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        let numbers = version.split(separator: ".").compactMap { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 2 else { return nil }
        // bindgesture came in sway 1.8.
        return (version, numbers[0] > 1 || (numbers[0] == 1 && numbers[1] >= 8))
    }

    @Test("sway: its bindgesture lines, read over IPC, collide with the rules' gestures where this sway reads them (1.8 and later), and a claim with share on resolves them; sway 1.7 rejected them, and doctor says they do nothing; the app source answers")
    func sway() throws {
        let sway = try SwaySession(config: "bindgesture swipe:3:right workspace next\nbindgesture swipe:4:up exec wofi\n")
        defer { sway.stop() }
        let version = try #require(Self.swayVersion(), "sway --version said no version")
        let environment = ["SWAYSOCK": sway.socket, "XDG_CURRENT_DESKTOP": "sway", "XDG_RUNTIME_DIR": sway.runtimeDirectory,
                           "WAYLAND_DISPLAY": sway.waylandDisplayName]
        let plain = try Self.rules("""
            on("3-finger swipe right", function(g) key("ctrl+Tab") end)
            on("3-finger swipe left", function(g) key("ctrl+shift+Tab") end)
            """)
        let (_, text) = try Self.doctor(["--rules", plain], environment: environment)
        #expect(text.contains("  ok       sway \(version.text), a wayland session"), "\(text)")
        #expect(text.contains("app source: sway, connected"), "\(text)")
        #expect(text.contains("they use key()"), "\(text)")
        guard version.hasBindgesture else {
            // sway 1.7 (Debian 12's): it said "Unknown/invalid command 'bindgesture'" at start-up.
            #expect(text.contains("  note     sway \(version.text) has no bindgesture (it came in sway 1.8) and rejected the config's line at start-up: \"bindgesture swipe:3:right workspace next\" does nothing on this version\n"), "\(text)")
            #expect(text.contains("  note     sway \(version.text) has no bindgesture (it came in sway 1.8) and rejected the config's line at start-up: \"bindgesture swipe:4:up exec wofi\" does nothing on this version\n"), "\(text)")
            #expect(!text.contains("both act"), "\(text)")
            return
        }
        #expect(text.contains("  warning  sway \(version.text)'s 3-finger swipe right (runs \"workspace next\") and the rule for \"3-finger swipe right\": on a touchpad both act"), "\(text)")
        #expect(text.contains("fix: share the device and claim the gesture: { claim = true } on the rule, with config{ share = true }"), "\(text)")
        #expect(!text.contains("the rule for \"3-finger swipe left\""), "only the way sway binds collides: \(text)")

        let claimed = try Self.rules("""
            config{ share = true }
            on("3-finger swipe right", function(g) key("ctrl+Tab") end, { claim = true })
            on("4-finger swipe up", function(g) key("super") end)
            """)
        let (_, after) = try Self.doctor(["--rules", claimed], environment: environment)
        #expect(after.contains("'s 3-finger swipe right (runs \"workspace next\") and the rule for \"3-finger swipe right\": claimed with share on, so the desktop does not see those fingers"), "\(after)")
        #expect(after.contains("'s 4-finger swipe up (runs \"exec wofi\") and the rule for \"4-finger swipe up\": on a touchpad both act"), "\(after)")
        #expect(after.contains("they use key(), share"), "\(after)")
    }

    @Test("Xvfb: the X11 app source answers; rules that do not load are a problem, exit 1, with the check command as the fix")
    func x11() throws {
        let x = try XServer(windowManager: true)
        defer { x.stop() }
        let broken = try Self.rules("on(\"swipe sideways\", function(g) end)\n")
        let (status, text) = try Self.doctor(["--rules", broken], environment: ["DISPLAY": x.display])
        #expect(text.contains("  ok       app source: x11, connected"), "\(text)")
        #expect(status == 1)
        #expect(text.contains("  PROBLEM  they do not load:"), "\(text)")
        #expect(text.contains("\(broken):1: cannot read gesture phrase \"swipe sideways\""), "\(text)")
        #expect(text.contains("fix: gesturemap check \(broken) says the same; fix each line it names"), "\(text)")
        #expect(text.hasSuffix("each with its fix above\n"), "\(text)")
    }
}
