import Glibc
import GestureEngine
import GestureSystem
import GestureTools

/// `gesturemap import FILE`: another tool's configuration as Lua rules on stdout.
enum ImportCommand {
    /// Warnings shown on stderr before the rest are counted instead.
    static let maxWarnings = 200

    static func main(_ args: [String], console: Console) -> ExitCode {
        var file: String?
        var format: ImportFormat?
        var fusuma = FusumaRelease.three
        var shapes: String?
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
                case "--fusuma-version":
                    fusuma = try a.choice(for: name, inline: inline) as FusumaRelease
                case "--shapes":
                    shapes = try a.value(for: name, inline: inline)
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
        switch file == "-" ? BoundedFile.readStandardInput(limit: ConfigImporter.maxBytes) : BoundedFile.read(file, limit: ConfigImporter.maxBytes) {
        case .success(let b): bytes = b
        case .failure(let error):
            if case .tooLarge = error.reason {
                console.say("gesturemap import: \(name): larger than \(FileError.describe(bytes: ConfigImporter.maxBytes)); configurations are a few kilobytes: is this the right file?")
                return .dataError
            }
            console.say("gesturemap import: cannot read \(file == "-" ? "stdin: " + error.reasonText : error.message)")
            return .noInput
        }
        if case .success(.easystroke) = ConfigImporter.format(of: bytes, given: format) {
            return ImportEasystroke.main(bytes, name: name, path: file == "-" ? nil : file, shapes: shapes, console: console)
        }
        if shapes != nil {
            return usageFailure(UsageError(message: "--shapes is for Easystroke's actions file, whose strokes can be drawn shapes; \(name) is no such file"), command: "import", console: console)
        }
        let result: ImportResult
        switch ConfigImporter.read(bytes, name: name, format: format, fusuma: fusuma) {
        case .success(let r): result = r
        case .failure(let failure):
            if case .binary(let line) = failure {
                console.say("\(name):\(line): \(failure.message)")
            } else {
                console.say("\(name): \(failure.message)")
            }
            return .dataError
        }
        // In the file's order: what could not be read, and what is written commented
        // out. Every error; warnings up to a screenful or two, the output's comments say the rest.
        enum Message { case diagnostic(Int), binding(Int) }
        var order: [(line: Int, rank: Int, message: Message)] = result.diagnostics.indices.map { ((result.diagnostics[$0].line ?? 0), $0, .diagnostic($0)) }
        for (i, binding) in result.bindings.enumerated() where !binding.isLive || binding.isNothing {
            order.append((binding.line, result.diagnostics.count + i, .binding(i)))
        }
        order.sort { ($0.line, $0.rank) < ($1.line, $1.rank) }
        var warnings = 0
        for entry in order {
            let message: ImportDiagnostic
            switch entry.message {
            case .diagnostic(let i):
                message = result.diagnostics[i]
            case .binding(let i):
                let binding = result.bindings[i]
                if let reason = LuaRulesWriter.reasonNotImported(binding) {
                    message = ImportDiagnostic(line: binding.line, severity: .warning, message: "\(binding.original): written commented out: \(reason)")
                } else if case .nothing(let reason) = binding.action {
                    message = ImportDiagnostic(line: binding.line, severity: .warning, message: "\(binding.original): written as a rule that does nothing: \(reason)")
                } else {
                    continue
                }
            }
            if message.severity == .warning {
                warnings += 1
                if warnings > Self.maxWarnings { continue }
            }
            console.say(message.rendered(file: name))
        }
        if warnings > Self.maxWarnings {
            console.say("\(name): warning: \(warnings - Self.maxWarnings) more warnings like these are not shown; the comment above each binding in the output says why it is written so")
        }
        let out = LineOutput.standardOutput
        var pending: [UInt8] = []
        LuaRulesWriter.write(result, sourceName: name) { piece in
            pending += piece.utf8
            if pending.count >= 1 << 16 {
                out.write(bytes: pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        out.write(bytes: pending)
        if let failure = out.failure {
            return ExitCode.forOutput(failure, command: "gesturemap import", console: console)
        }
        return result.hasErrors ? .dataError : .ok
    }
}

