import GestureActions
import GestureEngine

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
            switch ExplainRequest(options: options).explain(console: console) {
            case .failure(let status):
                return status
            case .success(let explanation):
                let lines = json ? explanation.jsonLines() : explanation.text()
                let out = LineOutput.standardOutput
                for line in lines where !out.broken { out.write(line: line) }
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
