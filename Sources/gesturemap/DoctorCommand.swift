import Glibc
import GestureContext
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
    it loads, what it uses) and the systemd user service. It changes nothing.

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
        doctor.appSource = appSource(environment)
        let report = doctor.examine()
        for line in report.lines { console.say(line) }
        return report.passes ? .ok : .ruleFailure
    }

    /// Where `g.app` would come from, and whether it answers.
    static func appSource(_ environment: [String: String]) -> DoctorFinding {
        let choice = AppSourceChoice.detect(environment: environment)
        if case .none(let reason) = choice {
            return DoctorFinding(.note, "app source: none (\(reason)); rules limited to an application never run", fix: "docs/apps.md says what each desktop needs")
        }
        var said: [String] = []
        let tracker = AppTracker(choice: choice, report: { said.append($0) })
        guard tracker.isConnected else {
            return DoctorFinding(.warning, "app source \(tracker.sourceName) does not answer" + (said.isEmpty ? "" : ": " + said.joined(separator: "; ")),
                                 fix: "docs/apps.md: GNOME and KDE need the Shell extension or the KWin script that examples/ ships")
        }
        return DoctorFinding(.ok, "app source: \(tracker.sourceName), connected")
    }
}
