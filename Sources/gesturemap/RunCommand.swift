import GestureActions
import GestureEngine
import GestureInput

enum RunCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        do throws(UsageError) {
            guard let options = try parse(args) else {
                printOut(Help.run)
                return .ok
            }
            let engine = Engine(options: options, console: console, output: LineOutput.standardOutput)
            return engine.run()
        } catch {
            return usageFailure(error, command: "run", console: console)
        }
    }

    /// The options, or nil when help was asked for.
    static func parse(_ args: [String], command: String = "run") throws(UsageError) -> RunOptions? {
        var options = RunOptions()
        var a = Arguments(args, command: command)
        var onlyPositionals = false
        while let arg = a.next() {
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                options.inputs.append(arg)
                continue
            }
            let (name, inline) = Arguments.split(arg)
            switch name {
            case "--": onlyPositionals = true
            case "-h", "--help": return nil
            case "--rules", "-r": options.rulesPath = try a.value(for: name, inline: inline)
            case "--strict": options.strict = true
            case "-v", "--verbose": options.verbose = true
            case "--trace": options.trace = true
            case "--timing": options.timing = true
            case "--realtime": options.realtime = true
            case "--grab": options.grab = true
            case "--dry-run", "-n": options.dryRun = true
            case "--allow-insecure-rules": options.allowInsecureRules = true
            case "--no-watch": options.watchRules = false
            case "--resolution":
                options.resolution = try parseResolution(try a.value(for: name, inline: inline))
            case "--rotate", "--flip-x", "--flip-y", "--calibration":
                try TransformOptions.parse(name, inline: inline, arguments: &a, into: &options)
            case "--format": options.format = try a.choice(for: name, inline: inline) as InputFormat
            case "--lua-memory":
                let text = try a.value(for: name, inline: inline)
                guard let mib = Int(text), mib >= 1, mib <= 4096 else {
                    throw UsageError(message: "--lua-memory takes MiB from 1 to 4096, not \"\(text)\"")
                }
                options.luaMemory = mib << 20
            default:
                throw UsageError(message: "unknown option \(name)")
            }
        }
        return options
    }

    /// "16" for both axes, or "16,12" for x and y, in units per millimetre.
    static func parseResolution(_ text: String) throws(UsageError) -> (x: Double, y: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        let values = parts.compactMap { $0 }
        guard values.count == parts.count, values.count == 1 || values.count == 2, values.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw UsageError(message: "--resolution takes units per millimetre, as 16 or 16,12 (x,y), not \"\(text)\"")
        }
        return (values[0], values.count == 2 ? values[1] : values[0])
    }
}
