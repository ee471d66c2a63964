import Glibc
import GestureEngine
import GestureSystem
import GestureTools

/// `gesturemap import FILE`: another tool's configuration as Lua rules on stdout.
enum ImportCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var file: String?
        var format: ImportFormat?
        var a = Arguments(args, command: "import")
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-h", "--help":
                    printOut(Help.importConfig)
                    return .ok
                case "--format":
                    format = try a.choice(for: name, inline: inline) as ImportFormat
                default:
                    if arg.hasPrefix("-") && arg != "-" { throw UsageError(message: "unknown option \(arg)") }
                    guard file == nil else { throw UsageError(message: "give one file to import, not \"\(file ?? "")\" and \"\(arg)\"") }
                    file = arg
                }
            }
        } catch {
            return usageFailure(error, command: "import", console: console)
        }
        guard let file else {
            return usageFailure(UsageError(message: "give the file to import, as in: gesturemap import ~/.config/fusuma/config.yml > rules.lua"), command: "import", console: console)
        }
        let name = file == "-" ? "stdin" : file
        let bytes: [UInt8]
        switch file == "-" ? StandardInput.read(limit: ConfigImporter.maxBytes) : BoundedFile.read(file, limit: ConfigImporter.maxBytes) {
        case .success(let b): bytes = b
        case .failure(let error):
            if case .tooLarge = error.reason {
                console.say("gesturemap import: \(name): larger than \(FileError.describe(bytes: ConfigImporter.maxBytes)); configurations are a few kilobytes: is this the right file?")
                return .dataError
            }
            console.say("gesturemap import: cannot read \(file == "-" ? "stdin: " + error.reasonText : error.message)")
            return .noInput
        }
        let result: ImportResult
        switch ConfigImporter.read(bytes, name: name, format: format) {
        case .success(let r): result = r
        case .failure(let failure):
            if case .binary(let line) = failure {
                console.say("\(name):\(line): \(failure.message)")
            } else {
                console.say("\(name): \(failure.message)")
            }
            return .dataError
        }
        // In the file's order: what could not be read, and what is written commented out.
        var messages = result.diagnostics
        for binding in result.bindings {
            if let reason = LuaRulesWriter.reasonNotImported(binding) {
                messages.append(ImportDiagnostic(line: binding.line, severity: .warning, message: "\(binding.original): written commented out: \(reason)"))
            } else if case .nothing(let reason) = binding.action {
                messages.append(ImportDiagnostic(line: binding.line, severity: .warning, message: "\(binding.original): written as a rule that does nothing: \(reason)"))
            }
        }
        for message in messages.enumerated().sorted(by: { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }) {
            console.say(message.element.rendered(file: name))
        }
        let out = LineOutput.standardOutput
        out.write(bytes: Array(LuaRulesWriter.write(result, sourceName: name).utf8))
        if let failure = out.failure {
            return ExitCode.forOutput(failure, command: "gesturemap import", console: console)
        }
        return result.hasErrors ? .dataError : .ok
    }
}

