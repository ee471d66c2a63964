import GestureEngine
import GestureTools
import GestureScript

enum CheckCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var files: [String] = []
        var shapes: String?
        var luaMemory = RunOptions().luaMemory
        var a = Arguments(args, command: "check")
        while let arg = a.next() {
            if arg == "-h" || arg == "--help" {
                printOut(Help.check)
                return .ok
            }
            let (name, inline) = Arguments.split(arg)
            if name == "--shapes" || name == "--lua-memory" {
                do throws(UsageError) {
                    if name == "--shapes" {
                        shapes = try a.value(for: name, inline: inline)
                    } else {
                        // Rules that load under run's limit load under check's: the same limit, the same answer.
                        luaMemory = try a.luaMemory(for: name, inline: inline)
                    }
                } catch {
                    return usageFailure(error, command: "check", console: console)
                }
                continue
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
            let problems = RuleChecker.problems(in: file, options: ScriptOptions(memoryLimit: luaMemory), shapesPath: shapes)
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
