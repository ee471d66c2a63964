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
        #expect(unit.contains("ExecStart=/usr/local/bin/gesturemap run\n"))
        #expect(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        #expect(unit.contains("RestartPreventExitStatus=1 64\n"))
        // A lost stdout ends the run by SIGPIPE, which systemd takes for a clean stop.
        #expect(unit.contains("RestartForceExitStatus=SIGPIPE"))
    }

    /// The rule's lines that are not comments.
    static func ruleLines() throws -> [String] {
        let rule = try String(contentsOf: root.appendingPathComponent("examples/udev/70-gesturemap.rules"), encoding: .utf8)
        return rule.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test("the udev rule gives touch devices to the seat's user (uaccess) and, read-only, to the gesturemap group; no group may write them")
    func udevRuleTouch() throws {
        let lines = try Self.ruleLines()
        for property in ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD"] {
            let matching = lines.filter { $0.contains(#"ENV{\#(property)}=="1""#) }
            #expect(matching.count == 1, "\(property): \(matching)")
            for line in matching {
                #expect(line.contains(#"KERNEL=="event*""#), "\(line)")
                #expect(line.contains(#"TAG+="uaccess""#), "\(line)")
                #expect(line.contains(#"GROUP="gesturemap""#), "\(line)")
                #expect(line.contains(#"MODE="0640""#), "\(line)")
            }
        }
    }

    @Test("the udev rule gives uinput to the seat's user (uaccess) and to the gesturemap user, mode 0600: no group, never input")
    func udevRuleUinput() throws {
        let lines = try Self.ruleLines()
        let uinput = lines.filter { $0.contains(#"KERNEL=="uinput""#) }
        #expect(uinput.count == 1, "\(uinput)")
        for line in uinput {
            #expect(line.contains(#"TAG+="uaccess""#), "\(line)")
            #expect(line.contains(#"OWNER="gesturemap""#), "\(line)")
            #expect(line.contains(#"MODE="0600""#), "\(line)")
            #expect(!line.contains("GROUP="), "\(line)")
            #expect(line.contains(#"OPTIONS+="static_node=uinput""#), "\(line)")
        }
        #expect(!lines.contains { $0.contains(#"GROUP="input""#) }, "\(lines)")
    }

    /// The values a rule line assigns to `key` (`MODE`, `GROUP`, `OWNER`).
    static func values(_ key: String, in lines: [String]) -> [String] {
        lines.flatMap { line in
            line.components(separatedBy: key + #"=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
    }

    @Test("no MODE in the udev rule lets a group write, and the file sorts before the seat rules that act on uaccess")
    func udevRuleModesAndOrder() throws {
        let lines = try Self.ruleLines()
        let modes = Self.values("MODE", in: lines)
        #expect(modes.count == 3, "\(modes)")
        for mode in modes {
            let bits = Int(mode, radix: 8) ?? 0o777
            #expect(bits & 0o022 == 0, "MODE=\(mode)")
        }
        // systemd's 71-seat.rules and 73-seat-late.rules act on the uaccess
        // tag, in the order of the files' names, whatever their directory.
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples/udev").path).filter { $0.hasSuffix(".rules") }
        #expect(shipped == ["70-gesturemap.rules"])
        for name in shipped {
            #expect(name < "71-seat.rules" && name < "73-seat-late.rules", "\(name)")
        }
        let package = try String(contentsOf: Self.root.appendingPathComponent("scripts/package"), encoding: .utf8)
        #expect(package.contains(#""$pkg/usr/lib/udev/rules.d/70-gesturemap.rules""#))
    }

    @Test("the package's postinst creates the group and the user the udev rule names, the user in that group, as Debian makes a daemon's user; no gesturemap-uinput; it stops at the first error")
    func postinstUserAndGroup() throws {
        let postinst = Self.root.appendingPathComponent("scripts/debian/postinst")
        let text = try String(contentsOf: postinst, encoding: .utf8)
        #expect(FileManager.default.isExecutableFile(atPath: postinst.path))
        #expect(text.hasPrefix("#!/bin/sh\n"))
        #expect(text.contains("\nset -e\n"))
        let lines = try Self.ruleLines()
        #expect(Set(Self.values("GROUP", in: lines)) == ["gesturemap"])
        #expect(Set(Self.values("OWNER", in: lines)) == ["gesturemap"])
        let commands = text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("echo ") }
        // On the machine itself, and in a dpkg --root.
        #expect(commands.contains("addgroup --system --quiet gesturemap"), "\(commands)")
        #expect(commands.contains("adduser --system --quiet --ingroup gesturemap --no-create-home --home /nonexistent --shell /usr/sbin/nologin gesturemap"), "\(commands)")
        #expect(commands.contains(#"groupadd --system --force --prefix "$DPKG_ROOT" gesturemap"#), "\(commands)")
        #expect(commands.contains { $0.contains(#"useradd --system --prefix "$DPKG_ROOT" --gid gesturemap --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin gesturemap"#) }, "\(commands)")
        // An earlier version's group is named only to say it is left.
        #expect(!commands.contains { $0.contains("gesturemap-uinput") && !$0.hasPrefix("if getent group gesturemap-uinput ") }, "\(commands)")
    }
}
