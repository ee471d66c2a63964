import GestureEngine
import GestureTools
import GestureSystem

/// `gesturemap test RULES [CASES ...]`: golden tests for a rules file.
enum TestCommand {
    struct Request {
        var options: RunOptions
        var cases: [String]
        var update = false
    }

    static func main(_ args: [String], console: Console) -> ExitCode {
        let request: Request
        do throws(UsageError) {
            guard let parsed = try parse(args) else {
                printOut(Help.test)
                return .ok
            }
            request = parsed
        } catch {
            return usageFailure(error, command: "test", console: console)
        }
        let list = GoldenCaseList(paths: request.cases)
        for problem in list.problems { console.say("gesturemap test: " + problem) }
        let runner = GoldenTestRunner(options: request.options)
        var passed = 0
        var failed = list.problems.count
        for testCase in list.cases {
            let outcome = runner.run(testCase, progress: console)
            if case .broken(.ruleFailure) = outcome.verdict {
                for message in outcome.messages { console.say(message) }
                console.say("gesturemap test: the rules did not load, so no case ran; fix them (gesturemap check \(request.options.rulesPath ?? "")) and try again")
                return .ruleFailure
            }
            if report(outcome, update: request.update, verbose: request.options.verbose, console: console) { passed += 1 } else { failed += 1 }
        }
        console.say("\(passed) passed, \(failed) failed")
        return failed == 0 ? .ok : .ruleFailure
    }

    /// Prints one case's result; true when it passed (or was updated to pass).
    private static func report(_ outcome: GoldenTestRunner.Outcome, update: Bool, verbose: Bool, console: Console) -> Bool {
        let name = outcome.testCase.input
        var passed = false
        switch outcome.verdict {
        case .passed:
            console.say("pass  \(name)")
            passed = true
        case .broken(let status):
            console.say("FAIL  \(name): the run stopped (exit \(status.rawValue))")
        case .unexpected where update, .failed where update:
            do throws(FileError) {
                try GoldenTestRunner.accept(outcome)
                let count = outcome.actual.count
                console.say("updated  \(outcome.testCase.expected) (\(count) line\(count == 1 ? "" : "s"))")
                passed = true
            } catch {
                console.say("FAIL  \(name): cannot write the expectations: \(error.message)")
            }
        case .unexpected:
            console.say("FAIL  \(name): no expectations in \(outcome.testCase.expected); run with --update to keep this output as them:")
            for line in outcome.actual { console.say("    + " + line) }
        case .failed(let diff):
            console.say("FAIL  \(name): the output differs from \(outcome.testCase.expected) (- expected, + actual):")
            for line in diff { console.say(line) }
        }
        if !passed || verbose {
            for problem in outcome.expectationProblems { console.say("    " + problem) }
            for message in outcome.messages { console.say("    stderr: " + message) }
        }
        return passed
    }

    /// The request, or nil when help was asked for. The run options are
    /// `run`'s own; the first positional is the rules file unless --rules gave it.
    static func parse(_ args: [String]) throws(UsageError) -> Request? {
        var rest: [String] = []
        var update = false
        for arg in args {
            if arg == "--update" || arg == "-u" { update = true } else { rest.append(arg) }
        }
        guard var options = try RunCommand.parse(rest, command: "test") else { return nil }
        var cases = options.inputs
        if options.rulesPath == nil {
            guard !cases.isEmpty else {
                throw UsageError(message: "give a rules file and its cases, as in: gesturemap test rules.lua cases/")
            }
            options.rulesPath = cases.removeFirst()
        }
        if cases.isEmpty {
            throw UsageError(message: "give the cases to run, as in: gesturemap test \(options.rulesPath ?? "rules.lua") cases/ (a case is a recording such as NAME.jsonl with NAME.expected beside it)")
        }
        if cases.contains("-") { throw UsageError(message: "cases are files or folders; standard input cannot be a case") }
        options.inputs = []
        return Request(options: options, cases: cases, update: update)
    }
}
