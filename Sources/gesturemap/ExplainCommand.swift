import GestureActions
import GestureCore
import GestureEngine
import GestureTools

/// `gesturemap explain INPUT [--rules FILE] [--json]`.
enum ExplainCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var json = false
        var rest: [String] = []
        var a = Arguments(args, command: "explain")
        do throws(UsageError) {
            while let arg = a.next() {
                if arg == "--json" { json = true } else { rest.append(arg) }
            }
            guard let options = try RunCommand.parse(rest, command: "explain") else {
                printOut(Help.explain)
                return .ok
            }
            guard options.inputs.count == 1 else {
                throw UsageError(message: options.inputs.isEmpty
                    ? "give the recording to explain, as in: gesturemap explain swipe.jsonl --rules rules.lua"
                    : "explain takes one input, not \(options.inputs.count)")
            }
            let out = LineOutput.standardOutput
            let result = ExplainRequest(options: options).explain(console: console) { sequence in
                if json {
                    out.write(line: Explanation.json(sequence))
                } else {
                    // Text for people on stdout: terminal-safe, as the console's lines are.
                    for line in Explanation.text(sequence) { out.write(line: TerminalText.escapedKeepingLines(line)) }
                }
                // A reader that went away (`| head`) wants no more: the replay stops.
                return !out.broken
            } tellPress: { press in
                if json {
                    out.write(line: Explanation.json(press))
                } else {
                    for line in Explanation.text(press) { out.write(line: TerminalText.escapedKeepingLines(line)) }
                }
                return !out.broken
            }
            switch result {
            case .failure(let status):
                out.flush()
                return status
            case .success(let (rules, tally)):
                let summary = json ? Explanation.summaryJSON(rules: rules, tally: tally)
                    : Explanation.summaryText(rules: rules, tally: tally).map(TerminalText.escapedKeepingLines)
                for line in summary where !out.broken { out.write(line: line) }
                out.flush()
                if let failure = out.failure {
                    return ExitCode.forOutput(failure, command: "gesturemap explain", console: console)
                }
                return .ok
            }
        } catch {
            return usageFailure(error, command: "explain", console: console)
        }
    }
}
