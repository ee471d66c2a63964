import GestureEngine

enum CheckCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var files: [String] = []
        for arg in args {
            if arg == "-h" || arg == "--help" {
                printOut(Help.check)
                return .ok
            }
            if arg.hasPrefix("-") && arg != "-" {
                return usageFailure(UsageError(message: "unknown option \(arg)"), command: "check", console: console)
            }
            files.append(arg)
        }
        guard !files.isEmpty else {
            return usageFailure(UsageError(message: "give the rules files to check, as in: gesturemap check rules.lua"), command: "check", console: console)
        }
        var failed = false
        for file in files {
            let problems = RuleChecker.problems(in: file)
            if problems.isEmpty {
                console.say("\(file): ok")
            } else {
                failed = true
                for problem in problems { console.say(problem) }
            }
        }
        return failed ? .ruleFailure : .ok
    }
}
