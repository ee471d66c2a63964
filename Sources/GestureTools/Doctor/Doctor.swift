import Glibc
import GestureActions
import GestureCore
import GestureEngine
import GestureInput
import GestureScript
import GestureSystem

/// `gesturemap doctor`: what a run needs, what is missing, and the fix for
/// each. It looks and asks; it never changes anything.
public struct Doctor {
    /// What it reads: the process's environment by default; tests give their own.
    public var environment: [String: String]
    /// `--rules`, else the lookup's (`RulesLookup`).
    public var rulesPath: String?
    public var survey = TouchDeviceSurvey()
    public var uinputPath = VirtualKeyboard.path
    /// udev reads rules from these folders (udev(7)); /run is where a test system puts them.
    public var udevRulePlaces = ["/etc/udev/rules.d/70-gesturemap.rules", "/run/udev/rules.d/70-gesturemap.rules",
                                 "/usr/lib/udev/rules.d/70-gesturemap.rules", "/lib/udev/rules.d/70-gesturemap.rules"]
    public var udevData = DeviceSizeProbe.defaultUdevData
    /// What the app source says, found by the command (it knows the desktop's
    /// sockets), waiting for its answer no later than the deadline it is given.
    public var appSource: ((_ deadline: Double) -> DoctorFinding)?

    public init(environment: [String: String], rulesPath: String?) {
        self.environment = environment
        self.rulesPath = rulesPath
    }

    public func examine() -> DoctorReport {
        var report = DoctorReport()
        // Every program asked runs from now, beside the checks that need none.
        let programs = DoctorPrograms(environment: environment, deadline: MonotonicClock.now() + DoctorPrograms.budget,
                                      commands: DesktopExamination.Kind(environment: environment).programs + ServiceExamination.programs)
        let rules = RulesExamination(path: rulesPath, environment: environment)
        let devices = survey.devices()
        report.add("touch devices", deviceFindings(devices))
        report.add("uinput (key(), pointer, touchpad, --share)", uinputFindings(needed: rules.uses))
        report.add("the udev rule", udevFindings(devices))
        let app = appSource?(programs.deadline)
        let desktop = DesktopExamination(programs: programs)
        report.add("the desktop", desktop.findings + (app.map { [$0] } ?? []))
        report.add("the desktop's own gestures", collisionFindings(desktop: desktop, rules: rules, hasTouchpad: devices.contains { $0.kind == .touchpad && !$0.isVirtual }))
        report.add("the rules", rules.findings)
        report.add("the service", ServiceExamination.findings(programs: programs))
        return report
    }

    // MARK: Devices

    private func deviceFindings(_ devices: [TouchDeviceSurvey.Device]) -> [DoctorFinding] {
        let own = devices.filter { $0.isVirtual && $0.name == VirtualPointingDevice.touchpadName }
        let real = devices.filter { !own.contains($0) }
        guard !real.isEmpty else {
            return [DoctorFinding(.problem, "no touchscreen or touchpad in \(survey.inputDirectory)",
                                  fix: "a live run needs one; without one, give gesturemap a recording or pipe events in (gesturemap serve makes a phone the touch surface)")]
                + own.map { DoctorFinding(.note, "\($0.node)  \($0.name): gesturemap's own") }
        }
        var findings: [DoctorFinding] = []
        for device in real {
            let label = "\(device.node)  \(TerminalText.escaped(device.name)) (\(device.kind.rawValue)\(device.isVirtual ? ", virtual" : ""))"
            guard access(device.node, R_OK) == 0 else {
                findings.append(DoctorFinding(.problem, label + ": this user may not read it", fix: DoctorFixes.readDevices))
                continue
            }
            findings.append(DoctorFinding(.ok, label + ": readable; " + sizeText(device.node)))
        }
        findings += own.map { DoctorFinding(.note, "\($0.node)  \($0.name): gesturemap's own (a run reads it not)") }
        return findings
    }

    /// The size a run will use and where it came from, as `run -v` says it.
    private func sizeText(_ node: String) -> String {
        guard let device = try? InputDevice(path: node) else { return "its size unknown (it could not be opened)" }
        let hints = DeviceSizeProbe(udevData: udevData, sysfs: survey.sysfs).hints(fd: device.fd, description: device.description)
        let converter = UnitConverter(device: device.description.deviceInfo, hints: hints)
        var text = converter.explanation(source: node)
        if text.hasPrefix(node + ": ") { text.removeFirst(node.count + 2) }
        let millimetres = { (v: Double) in Checked.clampedInteger(v.rounded(), as: Int.self).map(String.init) ?? "?" }
        return (converter.surface.map { "\(millimetres($0.width)) x \(millimetres($0.height)) mm; " } ?? "") + text
    }

    // MARK: uinput

    private func uinputFindings(needed: RuleUses) -> [DoctorFinding] {
        let why = needed.uinputReasons
        var info = stat()
        guard stat(uinputPath, &info) == 0 else {
            let text = "\(uinputPath) does not exist"
            return [DoctorFinding(why.isEmpty ? .note : .problem, why.isEmpty ? text + " (the rules need it not)" : text + "; the rules need it: " + why.joined(separator: ", "),
                                  fix: "sudo modprobe uinput; echo uinput | sudo tee /etc/modules-load.d/uinput.conf")]
        }
        guard access(uinputPath, W_OK) == 0 else {
            let text = "this user may not write \(uinputPath)"
            return [DoctorFinding(why.isEmpty ? .note : .problem, why.isEmpty ? text + " (the rules need it not)" : text + "; the rules need it: " + why.joined(separator: ", "),
                                  fix: DoctorFixes.writeUinput)]
        }
        return [DoctorFinding(.ok, "\(uinputPath): writable" + (why.isEmpty ? "" : "; the rules use it: " + why.joined(separator: ", ")))]
    }

    // MARK: udev

    private func udevFindings(_ devices: [TouchDeviceSurvey.Device]) -> [DoctorFinding] {
        guard let installed = udevRulePlaces.first(where: { access($0, F_OK) == 0 }) else {
            let root = geteuid() == 0
            return [DoctorFinding(root ? .note : .warning, "70-gesturemap.rules is not installed (looked in \(udevRulePlaces.joined(separator: ", ")))" + (root ? "; root needs it not" : ""),
                                  fix: root ? nil : DoctorFixes.installRule)]
        }
        var findings = [DoctorFinding(.ok, "installed: \(installed)")]
        for device in devices where !(device.isVirtual && device.name == VirtualPointingDevice.touchpadName) {
            guard let tags = udevTags(device.node) else { continue }
            if tags.contains("uaccess") {
                findings.append(DoctorFinding(.ok, "\(device.node): tagged uaccess (logind gives it to the user at the seat)"))
            } else {
                findings.append(DoctorFinding(.warning, "\(device.node): not tagged uaccess: the rule is installed but not applied to it",
                                              fix: "sudo udevadm control --reload && sudo udevadm trigger"))
            }
        }
        return findings
    }

    /// The tags udev's database gives the node (`G:uaccess`, `Q:uaccess`), or nil when it has no entry.
    private func udevTags(_ node: String) -> Set<String>? {
        let name = node.split(separator: "/").last.map(String.init) ?? node
        guard case .success(let numbers) = BoundedFile.read(survey.sysfs + "/class/input/\(name)/dev", limit: 64) else { return nil }
        let id = String(decoding: numbers, as: UTF8.self).trimmed(of: "\n ")
        guard case .success(let data) = BoundedFile.read(udevData + "/c" + id, limit: 1 << 16) else { return nil }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("G:") || line.hasPrefix("Q:") ? String(line.dropFirst(2)) : nil
        })
    }

    // MARK: Collisions

    private func collisionFindings(desktop: DesktopExamination, rules: RulesExamination, hasTouchpad: Bool) -> [DoctorFinding] {
        guard let name = desktop.name else { return [DoctorFinding(.note, "no desktop known here: nothing to compare the rules with")] }
        let own = desktop.gestures
        guard !own.isEmpty else { return [DoctorFinding(.note, "\(name): no touchpad gestures of its own known to gesturemap")] }
        guard !rules.rules.isEmpty else { return [DoctorFinding(.note, "\(name) acts on " + own.map(\.phrase).joined(separator: ", ") + "; the rules bind none")] }
        var findings: [DoctorFinding] = []
        for rule in rules.rules {
            for gesture in own where gesture.collides(with: rule.spec) {
                let both = "\(name)'s \(gesture.phrase) (\(gesture.action)) and the rule for \"\(rule.spec.phrase)\""
                if rules.shares && (rule.claims || rules.claimFingers.map { n in gesture.fingers.map { $0 >= n } ?? false } ?? false) {
                    findings.append(DoctorFinding(.ok, both + ": claimed with share on, so the desktop does not see those fingers"))
                } else {
                    let fingers = gesture.fingers.map(String.init) ?? "N"
                    findings.append(DoctorFinding(.warning, both + ": on a touchpad both act" + (hasTouchpad ? "" : " (no touchpad here now)"),
                                                  fix: "share the device and claim the gesture: { claim = true } on the rule, with config{ share = true } (or config{ share = true, claim_fingers = \(fingers) } for every \(fingers)-finger touch); see docs/sharing.md"))
                }
            }
        }
        return findings.isEmpty ? [DoctorFinding(.ok, "\(name) acts on " + own.map(\.phrase).joined(separator: ", ") + "; no rule binds the same")] : findings
    }
}

/// The fixes doctor gives, written once.
enum DoctorFixes {
    static let installRule = """
        sudo cp examples/udev/70-gesturemap.rules /etc/udev/rules.d/   # from a build; the Debian package installs it itself
        sudo udevadm control --reload && sudo udevadm trigger
        then log out and in again at the seat (no group to join, not even input)
        """
    static let readDevices = """
        the udev rule 70-gesturemap.rules gives touch devices to the user logged in at the seat (uaccess):
        """ + installRule.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + """

        a kiosk with no one at the seat: sudo adduser USER gesturemap (the package makes the group; reading only)
        """
    static let writeUinput = """
        the udev rule 70-gesturemap.rules gives /dev/uinput to the user logged in at the seat:
        """ + installRule.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + """

        a kiosk with no one at the seat runs gesturemap as the gesturemap user (User=gesturemap); or run with --dry-run to print what would be sent
        """
}
