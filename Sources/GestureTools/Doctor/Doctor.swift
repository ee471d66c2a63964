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
    public var uinputPath = UinputDevice.path
    /// udev reads rules from these folders (udev(7)); /run is where a test system puts them.
    public var udevRulePlaces = ["/etc/udev/rules.d/70-gesturemap.rules", "/run/udev/rules.d/70-gesturemap.rules",
                                 "/usr/lib/udev/rules.d/70-gesturemap.rules", "/lib/udev/rules.d/70-gesturemap.rules"]
    public var udevData = UdevDatabase.defaultRoot
    /// What the app source says, found by the command (it knows the desktop's
    /// sockets), waiting for its answer no later than the deadline it is given.
    public var appSource: ((_ deadline: Double) -> DoctorFinding)?

    public init(environment: [String: String], rulesPath: String?) {
        self.environment = environment
        self.rulesPath = rulesPath
        // Tests put a rule where this names, instead of the system's folders.
        if let folders = environment["GESTUREMAP_UDEV_RULES"] {
            udevRulePlaces = folders.split(separator: ":").map { $0 + "/" + DoctorFixes.ruleName }
        }
    }

    public func examine() -> DoctorReport {
        var report = DoctorReport()
        // Every program asked runs from now, beside the checks that need none.
        let programs = DoctorPrograms(environment: environment, deadline: MonotonicClock.now() + DoctorPrograms.budget,
                                      commands: DesktopExamination.Kind(environment: environment).programs + ServiceExamination.programs)
        let rules = RulesExamination(path: rulesPath, environment: environment)
        let devices = survey.devices()
        let fixes = accessFixes()
        report.add("touch devices", deviceFindings(devices, fixes: fixes))
        report.add("uinput (key(), pointer, touchpad, --share)", uinputFindings(needed: rules.uses, fixes: fixes))
        report.add("the udev rule", udevFindings(devices, fixes: fixes))
        let app = appSource?(programs.deadline)
        let desktop = DesktopExamination(programs: programs)
        report.add("the desktop", desktop.findings + (app.map { [$0] } ?? []))
        // One judgement of which devices a run reads, for the list above and for this.
        let hasTouchpad = devices.contains { $0.isReadByRun && $0.kind == .touchpad }
        report.add("the desktop's own gestures", collisionFindings(desktop: desktop, rules: rules, hasTouchpad: hasTouchpad))
        report.add("the rules", rules.findings + (rules.claimFingers.map { [FingerClaimCost.finding(claimFingers: $0, shares: rules.shares)] } ?? [])
                   + (rules.shares ? [Self.wayOut] : []))
        report.add("the service", ServiceExamination.findings(programs: programs))
        return report
    }

    /// How a user sharing a device gets it back, whatever the rules do.
    static let wayOut = DoctorFinding(.note, "the way out of sharing: Backspace+Escape+Enter held together give every device back to the desktop until pressed again; a touch no claim has taken 0.4 s after it landed is the desktop's anyway")

    private func accessFixes() -> DoctorFixes {
        let user = SystemUser.name(environment: environment)
        return DoctorFixes(user: user, installedRule: udevRulePlaces.first { access($0, F_OK) == 0 },
                           ruleSource: InstalledFiles.example("udev/" + DoctorFixes.ruleName),
                           readerGroup: SystemUser.membership(of: user, in: "gesturemap"))
    }

    // MARK: Devices

    private func deviceFindings(_ devices: [TouchDeviceSurvey.Device], fixes: DoctorFixes) -> [DoctorFinding] {
        let read = devices.filter(\.isReadByRun)
        let own = devices.filter { !$0.isReadByRun }
        guard !read.isEmpty else {
            return [DoctorFinding(.problem, "no touchscreen or touchpad in \(survey.inputDirectory)",
                                  fix: "a live run needs one; without one, give gesturemap a recording or pipe events in (gesturemap serve makes a phone the touch surface)")]
                + own.map(ownFinding)
        }
        var findings: [DoctorFinding] = []
        for device in read {
            var label = "\(device.node)  \(TerminalText.escaped(device.name)) (\(device.kind.rawValue)\(device.isVirtual ? ", virtual" : ""))"
            if let clone = devices.first(where: { $0.cloneOf == device.node }) {
                label += ", shared: the desktop reads its clone \(clone.node)"
            }
            guard access(device.node, R_OK) == 0 else {
                findings.append(DoctorFinding(.problem, label + ": this user may not read it", fix: fixes.readDevice(device.node, applied(device.node, fixes))))
                continue
            }
            findings.append(DoctorFinding(.ok, label + ": readable; " + sizeText(device.node)))
        }
        return findings + own.map(ownFinding)
    }

    /// One of gesturemap's own devices, which a run never reads.
    private func ownFinding(_ device: TouchDeviceSurvey.Device) -> DoctorFinding {
        let name = TerminalText.escaped(device.name)
        guard let original = device.cloneOf else {
            return DoctorFinding(.note, "\(device.node)  \(name): gesturemap's own (a run reads it not)")
        }
        return DoctorFinding(.note, "\(device.node)  \(name) (\(device.kind.rawValue)): gesturemap's clone of \(TerminalText.escaped(original)), made by run --share for the desktop, "
            + "with the same name and ids: the desktop lists both, and its settings for the one by name or ids apply to the other (a run reads it not)")
    }

    /// The size a run will use and where it came from, as `run -v` says it.
    private func sizeText(_ node: String) -> String {
        guard let device = try? InputDevice(path: node) else { return "its size unknown (it could not be opened)" }
        let hints = DeviceSizeProbe(udev: UdevDatabase(root: udevData, sysfs: survey.sysfs)).hints(fd: device.fd, description: device.description)
        let converter = UnitConverter(device: device.description.deviceInfo, hints: hints)
        var text = converter.explanation(source: node)
        if text.hasPrefix(node + ": ") { text.removeFirst(node.count + 2) }
        let millimetres = { (v: Double) in Checked.clampedInteger(v.rounded(), as: Int.self).map(String.init) ?? "?" }
        return (converter.surface.map { "\(millimetres($0.width)) x \(millimetres($0.height)) mm; " } ?? "") + text
    }

    // MARK: uinput

    private func uinputFindings(needed: RuleUses, fixes: DoctorFixes) -> [DoctorFinding] {
        let why = needed.uinputReasons
        var info = stat()
        guard stat(uinputPath, &info) == 0 else {
            let text = "\(uinputPath) does not exist"
            return [DoctorFinding(why.isEmpty ? .note : .problem, why.isEmpty ? text + " (the rules need it not)" : text + "; the rules need it: " + why.joined(separator: ", "),
                                  fix: UinputAdvice.loadModule)]
        }
        guard access(uinputPath, W_OK) == 0 else {
            let text = "this user may not write \(uinputPath)"
            let tags = UdevDatabase(root: udevData, sysfs: survey.sysfs).entry(devFile: survey.sysfs + "/class/misc/uinput/dev")?.tags
            return [DoctorFinding(why.isEmpty ? .note : .problem, why.isEmpty ? text + " (the rules need it not)" : text + "; the rules need it: " + why.joined(separator: ", "),
                                  fix: fixes.writeUinput(uinputPath, applied(tags, fixes)))]
        }
        return [DoctorFinding(.ok, "\(uinputPath): writable" + (why.isEmpty ? "" : "; the rules use it: " + why.joined(separator: ", ")))]
    }

    // MARK: udev

    private func udevFindings(_ devices: [TouchDeviceSurvey.Device], fixes: DoctorFixes) -> [DoctorFinding] {
        guard let installed = fixes.installedRule else {
            let root = geteuid() == 0
            return [DoctorFinding(root ? .note : .warning, "70-gesturemap.rules is not installed (looked in \(udevRulePlaces.joined(separator: ", ")))" + (root ? "; root needs it not" : ""),
                                  fix: root ? nil : fixes.installRule)]
        }
        var findings = [DoctorFinding(.ok, "installed: \(installed)")]
        for device in devices where device.isReadByRun {
            guard let tags = udevTags(device.node) else { continue }
            if tags.contains("uaccess") {
                findings.append(DoctorFinding(.ok, "\(device.node): tagged uaccess (logind gives it to the user at the seat)"))
            } else {
                findings.append(DoctorFinding(.warning, "\(device.node): not tagged uaccess: the rule is installed but not applied to it",
                                              fix: DoctorFixes.reload))
            }
        }
        return findings
    }

    /// How far the rule has come for a node, for its fix.
    private func applied(_ node: String, _ fixes: DoctorFixes) -> DoctorFixes.Applied {
        applied(udevTags(node), fixes)
    }

    private func applied(_ tags: Set<String>?, _ fixes: DoctorFixes) -> DoctorFixes.Applied {
        guard let tags else { return .unknown }
        return tags.contains("uaccess") ? .tagged : .untagged
    }

    /// The tags udev's database gives the node (`G:uaccess`, `Q:uaccess`), or nil when it has no entry.
    private func udevTags(_ node: String) -> Set<String>? {
        UdevDatabase(root: udevData, sysfs: survey.sysfs).entry(ofNode: node)?.tags
    }

    // MARK: Collisions

    private func collisionFindings(desktop: DesktopExamination, rules: RulesExamination, hasTouchpad: Bool) -> [DoctorFinding] {
        guard let name = desktop.name else { return [DoctorFinding(.note, "no desktop known here: nothing to compare the rules with")] }
        let own = desktop.gestures
        guard !own.isEmpty else { return desktop.gestureFindings + [DoctorFinding(.note, "\(name): no touchpad gestures of its own known to gesturemap")] }
        var findings = desktop.gestureFindings
        if rules.shares, let n = rules.claimFingers {
            findings += FingerClaimCost.unboundFindings(desktop: name, gestures: own, rules: rules.rules, claimFingers: n)
        }
        guard !rules.rules.isEmpty else { return findings + [DoctorFinding(.note, "\(name) acts on " + own.map(\.phrase).joined(separator: ", ") + "; the rules bind none")] }
        let before = findings.count
        for rule in rules.rules {
            for gesture in own where gesture.collides(with: rule.spec) {
                let both = "\(name)'s \(gesture.phrase) (\(gesture.action)) and the rule for \"\(rule.spec.phrase)\""
                if rules.shares && (rule.claims || rules.claimFingers.map { n in gesture.fingers.map { $0 >= n } ?? false } ?? false) {
                    findings.append(DoctorFinding(.ok, both + ": claimed with share on, so the desktop does not see those fingers"))
                } else {
                    let fingers = gesture.fingers.map(String.init) ?? "N"
                    findings.append(DoctorFinding(.warning, both + ": on a touchpad both act" + (hasTouchpad ? "" : " (no touchpad here now)"),
                                                  fix: "share the device and claim the gesture: { claim = true } on the rule, with config{ share = true } (or config{ share = true, claim_fingers = \(fingers) } for every \(fingers)-finger touch); man gesturemap says more under --share"))
                }
            }
        }
        return findings.count == before ? findings + [DoctorFinding(.ok, "\(name) acts on " + own.map(\.phrase).joined(separator: ", ") + "; no rule binds the same")] : findings
    }
}
