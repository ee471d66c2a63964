#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A machine for `doctor` to examine, made of files: touch devices in a sysfs
/// tree and a device folder, udev's database and rules folder, a uinput node,
/// and the programs it asks (the desktop's, systemctl) as scripts first on PATH.
/// Each test builds the machine it needs; nothing of the real one is read.
final class DoctorWorld {
    let root: URL
    var input: String { root.path + "/input" }
    var sysfs: String { root.path + "/sys" }
    var udevData: String { root.path + "/udev-data" }
    var udevRules: String { root.path + "/udev-rules" }
    var bin: String { root.path + "/bin" }
    var home: String { root.path + "/home" }
    /// Where GESTUREMAP_UINPUT points: nothing there until `uinput(mode:tagged:)`.
    var uinputNode: String { root.path + "/uinput" }
    /// The desktop's variables, none until a test names its desktop.
    var desktop: [String: String] = [:]

    enum Kind { case touchpad, touchscreen }

    init() throws {
        root = try Binary.temporaryDirectory()
        for folder in [input, sysfs + "/class/input", udevData, udevRules, bin, home] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // The test may run doctor as nobody: every folder of the machine is readable.
        for folder in [root.path, input, sysfs, udevData, udevRules, bin, home] { chmod(folder, 0o755) }
        try service(active: "inactive", enabled: "disabled")
    }

    var environment: [String: String] {
        var env = DoctorHostileTests.noDesktop
        env["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        env["GESTUREMAP_INPUT_DIR"] = input
        env["GESTUREMAP_SYSFS"] = sysfs
        env["GESTUREMAP_UDEV_DATA"] = udevData
        env["GESTUREMAP_UDEV_RULES"] = udevRules
        env["GESTUREMAP_UINPUT"] = uinputNode
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = ""
        env["GESTUREMAP_SYSTEM_CONFIG"] = root.path + "/etc-gesturemap"
        for (key, value) in desktop { env[key] = value }
        return env
    }

    /// `/dev/input/eventN` and its sysfs entry: under `devices/virtual` when
    /// made through uinput, with `phys` as the kernel gives it; `mode` of the
    /// node (root's); `tags`, udev's tags for it (nil: no entry in udev's database).
    func device(_ number: Int, _ name: String, _ kind: Kind, virtual: Bool = false, phys: String = "",
                mode: mode_t = 0o644, tags: [String]? = nil) throws {
        let event = "event\(number)"
        let parent = virtual ? "devices/virtual/input/input\(number)" : "devices/platform/i8042/serio1/input/input\(number)"
        let inputFolder = sysfs + "/" + parent
        try FileManager.default.createDirectory(atPath: inputFolder + "/capabilities", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: inputFolder + "/" + event, withIntermediateDirectories: true)
        // A touchpad: BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP and _TRIPLETAP; a pointer and a
        // clickpad. A touchscreen: BTN_TOUCH, and direct. Both: ABS_X/Y and the multitouch slots.
        let keys = kind == .touchpad ? "6420 10000 0 0 0 0" : "400 0 0 0 0 0"
        try write(inputFolder + "/capabilities/key", keys + "\n")
        try write(inputFolder + "/capabilities/abs", "260800000000003\n")
        try write(inputFolder + "/properties", kind == .touchpad ? "5\n" : "2\n")
        try write(inputFolder + "/name", name + "\n")
        try write(inputFolder + "/phys", phys + "\n")
        try write(inputFolder + "/" + event + "/dev", "13:\(64 + number)\n")
        try FileManager.default.createSymbolicLink(atPath: inputFolder + "/" + event + "/device", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: sysfs + "/class/input/" + event, withDestinationPath: "../../" + parent + "/" + event)
        let node = input + "/" + event
        try write(node, "")
        chmod(node, mode)
        if let tags { try write(udevData + "/c13:\(64 + number)", tags.map { "G:" + $0 + "\n" }.joined()) }
    }

    /// The uinput node, root's with `mode`, and sysfs's misc/uinput with udev's tags for it.
    func uinput(mode: mode_t, tags: [String]?) throws {
        try write(uinputNode, "")
        chmod(uinputNode, mode)
        try FileManager.default.createDirectory(atPath: sysfs + "/class/misc/uinput", withIntermediateDirectories: true)
        try write(sysfs + "/class/misc/uinput/dev", "10:223\n")
        if let tags { try write(udevData + "/c10:223", tags.map { "G:" + $0 + "\n" }.joined()) }
    }

    /// 70-gesturemap.rules where udev reads rules.
    func installRule() throws {
        try write(udevRules + "/70-gesturemap.rules", "# installed\n")
    }

    /// A program first on PATH that prints `output` whatever it is asked.
    func program(_ name: String, prints output: String) throws {
        let printed = bin + "/" + name + ".out"
        try write(printed, output)
        try script(name, "exec cat '\(printed)'\n")
    }

    /// systemctl --user's answers about gesturemap.service.
    func service(active: String, enabled: String) throws {
        try script("systemctl", """
            case "$2" in
              is-active) echo '\(active)' ;;
              is-enabled) [ -n '\(enabled)' ] && echo '\(enabled)'; [ -n '\(enabled)' ] ;;
            esac
            """)
    }

    func script(_ name: String, _ body: String) throws {
        let path = bin + "/" + name
        try write(path, "#!/bin/sh\n" + body)
        chmod(path, 0o755)
    }

    /// `doctor ARGS` on this machine; as nobody when `unprivileged`.
    func doctor(_ arguments: [String] = [], unprivileged: Bool = false) throws -> Binary.Result {
        try Binary.run(["doctor"] + arguments, environment: environment, killAfter: 30, unprivileged: unprivileged)
    }

    private func write(_ path: String, _ text: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
    }
}
