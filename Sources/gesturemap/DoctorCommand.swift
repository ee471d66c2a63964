import Glibc
import GestureContext
import GestureCore
import GestureEngine
import GestureSystem
import GestureTools

/// `gesturemap doctor`: why a gesture would do nothing here, and the fix.
enum DoctorCommand {
    static let help = """
    usage: gesturemap doctor [--rules FILE]

    Checks what a run needs and says what it found, with the exact fix for each
    problem: the touch devices (their kind, size and where the size came from,
    and whether you may read them), /dev/uinput (for key(), pointer, touchpad and
    --share), the udev rule, the desktop and its app source, the desktop's own
    touchpad gestures that the rules' gestures collide with (and whether --share
    with a claim resolves them), the rules file (where it is looked for, whether
    it loads, what it uses) and the systemd user service. The programs it asks
    have 3 s in all: one that has not finished is named and stopped. It changes
    nothing. The report is its output, on stdout (gesturemap doctor | less);
    only a usage error goes to stderr.

    options:
      -r, --rules FILE   the rules to examine (default: where run looks)

    exit status: 0 when a run has what it needs, 1 when something is in its way
    """

    static func main(_ args: [String], console: Console) -> ExitCode {
        var rules: String?
        var a = Arguments(args, command: "doctor")
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-h", "--help":
                    printOut(help)
                    return .ok
                case "-r", "--rules": rules = try a.value(for: name, inline: inline)
                default: throw UsageError(message: "unknown option \(arg)")
                }
            }
        } catch {
            return usageFailure(error, command: "doctor", console: console)
        }
        let environment = ProcessEnvironment.current
        var doctor = Doctor(environment: environment, rulesPath: rules)
        doctor.appSource = { deadline in appSource(environment, deadline: deadline) }
        let report = doctor.examine()
        // The report is what doctor makes, as --help's text is: stdout, terminal-safe as the console's lines are.
        let out = LineOutput.standardOutput
        for line in report.lines where !out.broken { out.write(line: TerminalText.escapedKeepingLines(line)) }
        out.flush()
        if let failure = out.failure {
            return ExitCode.forOutput(failure, command: "gesturemap doctor", console: console)
        }
        return report.passes ? .ok : .ruleFailure
    }

    /// As long as a run's app source waits for a compositor's first answer.
    static let answerWait = 2.0

    /// Where `g.app` would come from, and whether it answers by `deadline`:
    /// a socket that takes the connection and never answers is no app source.
    static func appSource(_ environment: [String: String], deadline: Double) -> DoctorFinding {
        let choice = AppSourceChoice.detect(environment: environment)
        if case .none(let reason) = choice {
            return DoctorFinding(.note, "app source: none (\(reason)); rules limited to an application never run", fix: "docs/apps.md says what each desktop needs")
        }
        var said: [String] = []
        let tracker = AppTracker(choice: choice, report: { said.append($0) })
        guard tracker.isConnected else {
            return DoctorFinding(.warning, "app source \(tracker.sourceName) does not answer" + (said.isEmpty ? "" : ": " + said.joined(separator: "; ")),
                                 fix: notConnectedFix(choice))
        }
        let wait = max(0, min(deadline - MonotonicClock.now(), answerWait))
        tracker.wait(upTo: wait) { tracker.hasAnswered || !tracker.isConnected }
        guard tracker.isConnected && tracker.hasAnswered else {
            let within = wait >= 1 ? "\(Int(wait.rounded())) s" : "\(Int((wait * 1000).rounded())) ms"
            return DoctorFinding(.warning, "app source \(tracker.sourceName): \(choice.answeringSocket ?? "its server") took the connection but did not answer within \(within)",
                                 fix: silentPeerFix(choice))
        }
        return DoctorFinding(.ok, "app source: \(tracker.sourceName), connected")
    }

    /// GNOME's and KDE's app sources are the Shell extension and the KWin script
    /// gesturemap ships; the others are the desktop's own.
    static func notConnectedFix(_ choice: AppSourceChoice) -> String {
        guard case .dbus = choice else { return "docs/apps.md in gesturemap's source says what each desktop needs" }
        return helperFix
    }

    static var helperFix: String {
        let extensionFolder = InstalledFiles.example("gnome-extension"), legacyFolder = InstalledFiles.example("gnome-extension-legacy")
        let script = InstalledFiles.example("kwin")
        guard let extensionFolder, let script else {
            return "GNOME and KDE need the Shell extension or the KWin script from examples/ in gesturemap's source (docs/apps.md there says how)"
        }
        // GNOME 45 loads only ES-module extensions, and GNOME 44 and earlier only the older kind.
        let older = legacyFolder.map { " (GNOME 40 to 44: the one in \($0))" } ?? ""
        return "GNOME needs the Shell extension in \(extensionFolder)\(older), KDE the KWin script in \(script) (docs/apps.md in gesturemap's source says how to install them)"
    }

    private static func silentPeerFix(_ choice: AppSourceChoice) -> String {
        switch choice {
        case .i3ipc(let name, _):
            return "is \(name.rawValue) stopped or stuck? \(name == .sway ? "swaymsg" : "i3-msg") -t get_version asks it directly; a \(name == .sway ? "SWAYSOCK" : "I3SOCK") left from an earlier session names a socket no one answers on: run gesturemap inside the running session"
        case .hyprland:
            return "is Hyprland stopped or stuck? hyprctl version asks it directly; a HYPRLAND_INSTANCE_SIGNATURE left from an earlier session names sockets no one answers on: run gesturemap inside the running session"
        default:
            return "docs/apps.md says what each desktop needs"
        }
    }
}
