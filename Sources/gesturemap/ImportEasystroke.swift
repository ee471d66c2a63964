import GestureEngine
import GestureSystem
import GestureTools

/// `gesturemap import` of Easystroke's actions file: the rules on stdout, the
/// drawn shapes' templates in the `--shapes` file, messages on stderr.
enum ImportEasystroke {
    static func main(_ bytes: [UInt8], name: String, path: String?, shapes: String?, console: Console) -> ExitCode {
        if let shapes, FileSystem.kind(of: shapes) != .missing {
            console.say("gesturemap import: \(shapes) exists, and import never overwrites a shapes file: move it away, or give --shapes a new file's name")
            return .usage
        }
        let button = preferences(besides: path)
        for warning in button.warnings { console.say(warning) }
        let result = EasystrokeImport.read(bytes, strokeButton: button.number, strokeButtonSource: button.source, shapesLive: shapes != nil)
        say(result, name: name, console: console)
        if let shapes, !result.shapes.isEmpty, !result.hasErrors {
            do throws(FileError) {
                try FileSystem.replace(shapes, with: Array(EasystrokeRulesWriter.shapesFile(result).utf8))
            } catch {
                console.say("gesturemap import: cannot write the shapes file \(error.message)")
                return .cannotWrite
            }
        } else if let shapes {
            console.say("gesturemap import: \(name): \(result.hasErrors ? "nothing is imported" : "no stroke is a drawn shape"), so \(shapes) is not written")
        }
        let shapesFile = shapes.flatMap { result.shapes.isEmpty || result.hasErrors ? nil : $0 }
        let out = LineOutput.standardOutput
        out.write(bytes: Array(EasystrokeRulesWriter.write(result, sourceName: name, shapesFile: shapesFile).utf8))
        if let failure = out.failure {
            return ExitCode.forOutput(failure, command: "gesturemap import", console: console)
        }
        return result.hasErrors ? .dataError : .ok
    }

    /// The stroke button of the preferences file in the actions file's directory (the first
    /// of Easystroke's names present); the middle one without one.
    static func preferences(besides actionsPath: String?) -> EasystrokePreferences.StrokeButton {
        guard let actionsPath else { return EasystrokePreferences.middle(because: "standard input has no preferences file beside it") }
        let directory = actionsPath.lastIndex(of: "/").map { String(actionsPath[...$0]) } ?? ""
        for name in EasystrokePreferences.names where FileSystem.kind(of: directory + name) == .file {
            switch BoundedFile.read(directory + name, limit: 1 << 20) {
            case .success(let bytes): return EasystrokePreferences.read(bytes, path: directory + name)
            case .failure(let error):
                return EasystrokePreferences.middle(because: "the preferences file cannot be read", warnings: ["gesturemap import: cannot read \(error.message); the stroke button is the middle one, Easystroke's default"])
            }
        }
        return EasystrokePreferences.middle(because: "no preferences file beside the actions file")
    }

    /// Errors, then what is written commented out or as a rule that does nothing, in the file's order.
    static func say(_ result: EasystrokeImport, name: String, console: Console) {
        var messages: [(line: Int, rank: Int, message: ImportDiagnostic)] = result.diagnostics.enumerated().map {
            ($0.element.line ?? 0, $0.offset, $0.element)
        }
        for (i, rule) in result.rules.enumerated() {
            let rank = result.diagnostics.count + i
            switch rule.body {
            case .run: continue
            case .commented(let reason):
                messages.append((rule.line, rank, ImportDiagnostic(line: rule.line, severity: .warning, message: "\(rule.original): written commented out: \(reason)")))
            case .nothing(let reason):
                messages.append((rule.line, rank, ImportDiagnostic(line: rule.line, severity: .warning, message: "\(rule.original): written as a rule that does nothing: \(reason)")))
            }
        }
        messages.sort { ($0.line, $0.rank) < ($1.line, $1.rank) }
        var warnings = 0
        for entry in messages {
            if entry.message.severity == .warning {
                warnings += 1
                if warnings > ImportCommand.maxWarnings { continue }
            }
            console.say(entry.message.rendered(file: name))
        }
        if warnings > ImportCommand.maxWarnings {
            console.say("\(name): warning: \(warnings - ImportCommand.maxWarnings) more warnings like these are not shown; the comment above each rule in the output says why it is written so")
        }
    }
}
