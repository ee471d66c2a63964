import Foundation
import Testing

/// What installs with gesturemap: the man page, the systemd unit, the udev rule.
@Suite("Deployment files")
struct DeploymentTests {
    static let root = Binary.packageRoot

    @Test("the man page renders without warnings and covers every command",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func manPage() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        process.arguments = ["--warnings", "-l", Self.root.appendingPathComponent("docs/gesturemap.1").path]
        process.environment = ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings.isEmpty, "\(warnings)")
        for command in ["run", "check", "synth", "devices", "record"] {
            #expect(text.contains("gesturemap \(command)"), "\(command)")
        }
    }

    @Test("the systemd unit runs the installed binary, reloads with SIGHUP, and does not restart into exit 69")
    func systemdUnit() throws {
        let unit = try String(contentsOf: Self.root.appendingPathComponent("examples/systemd/gesturemap.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/gesturemap run --rules %h/.config/gesturemap/rules.lua"))
        #expect(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        #expect(unit.contains("RestartPreventExitStatus=1 64 69"))
        // A lost stdout ends the run by SIGPIPE, which systemd takes for a clean stop.
        #expect(unit.contains("RestartForceExitStatus=SIGPIPE"))
    }

    @Test("the udev rule opens touch devices and uinput to the input group")
    func udevRule() throws {
        let rule = try String(contentsOf: Self.root.appendingPathComponent("examples/udev/70-gesturemap.rules"), encoding: .utf8)
        #expect(rule.contains(#"KERNEL=="uinput""#))
        #expect(rule.contains(#"ENV{ID_INPUT_TOUCHSCREEN}=="1""#))
        #expect(rule.components(separatedBy: #"GROUP="input""#).count == 4)
    }
}
