import GestureCore
import GestureEngine

let version = "gesturemap \(releaseVersion)"

extension CommandLine {
    static func dispatch(_ args: [String]) -> ExitCode {
        let console = Console()
        guard let command = args.first else {
            console.say(Help.main)
            return .usage
        }
        let rest = Array(args.dropFirst())
        switch command {
        case "run": return RunCommand.main(rest, console: console)
        case "check": return CheckCommand.main(rest, console: console)
        case "test": return TestCommand.main(rest, console: console)
        case "draw": return DrawCommand.main(rest, console: console)
        case "explain": return ExplainCommand.main(rest, console: console)
        case "synth": return SynthCommand.main(rest, console: console)
        case "record": return RecordCommand.main(rest, console: console)
        case "devices": return DevicesCommand.main(rest, console: console)
        case "apps": return AppsCommand.main(rest, console: console)
        case "shape": return ShapeCommand.main(rest, console: console)
        case "serve": return ServeCommand.main(rest, console: console)
        case "doctor": return DoctorCommand.main(rest, console: console)
        case "completions": return CompletionsCommand.main(rest, console: console)
        case "import": return ImportCommand.main(rest, console: console)
        case "help", "--help", "-h":
            if let topic = rest.first, let text = Help.forCommand(topic) {
                printOut(text)
            } else {
                printOut(Help.main)
            }
            return .ok
        case "--version", "version":
            printOut(version)
            return .ok
        default:
            console.note("unknown command \"\(command)\"; commands: run, serve, check, test, explain, draw, synth, devices, record, apps, shape, doctor, import, completions (see gesturemap --help)")
            return .usage
        }
    }
}

/// Help and version go to stdout when asked for, as people pipe them to a pager;
/// terminal-safe as the console's lines are, though today only gesturemap's own text comes here.
func printOut(_ text: String) {
    let writer = LineOutput.standardOutput
    writer.write(line: TerminalText.escapedKeepingLines(text))
}
