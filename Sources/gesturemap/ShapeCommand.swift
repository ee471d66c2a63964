import GestureActions
import GestureCore
import GestureEngine
import GestureTools
import GestureSystem

/// `gesturemap shape add NAME INPUT [--shapes FILE]` and `gesturemap shape list [--shapes FILE] [-o FILE.svg]`.
enum ShapeCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        guard let sub = args.first, sub != "-h", sub != "--help" else {
            printOut(Help.shape)
            return args.isEmpty ? .usage : .ok
        }
        let rest = Array(args.dropFirst())
        switch sub {
        case "add": return add(rest, console: console)
        case "list": return list(rest, console: console)
        default:
            return usageFailure(UsageError(message: "unknown subcommand \"\(sub)\"; use add or list"), command: "shape", console: console)
        }
    }

    /// Where templates are written and read: --shapes, or shapes.jsonl beside --rules, or in this directory.
    static func shapesPath(_ options: RunOptions) -> String {
        options.shapesPath ?? ShapeFile.besideRules(options.rulesPath)
    }

    static func add(_ args: [String], console: Console) -> ExitCode {
        var gap = Threshold.shapeGap.defaultValue
        var anyDirection = false
        var rest: [String] = []
        var a = Arguments(args, command: "shape add")
        let options: RunOptions
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "--gap":
                    let text = try a.value(for: name, inline: inline)
                    guard let g = Double(text), Threshold.shapeGap.range.contains(g) else {
                        throw UsageError(message: "--gap takes seconds from 0 to 2 between strokes of one drawing, not \"\(text)\"")
                    }
                    gap = g
                case "--any-direction": anyDirection = true
                default: rest.append(arg)
                }
            }
            guard let parsed = try RunCommand.parse(rest, command: "shape add") else {
                printOut(Help.shape)
                return .ok
            }
            guard parsed.inputs.count == 2 else {
                throw UsageError(message: "give the shape's name and a recording of it, as in: gesturemap shape add z z.jsonl")
            }
            options = parsed
        } catch {
            return usageFailure(error, command: "shape add", console: console)
        }
        let name = ShapeName.normalize(options.inputs[0])
        do {
            try ShapeName.validate(name)
        } catch {
            return usageFailure(UsageError(message: error.description), command: "shape add", console: console)
        }
        var runOptions = options
        runOptions.inputs = [options.inputs[1]]
        let path = shapesPath(options)
        let lesson: ShapeTeaching.Lesson
        switch ShapeTeaching(name: name, options: runOptions, gap: gap, anyDirection: anyDirection).learn(console: console) {
        case .failure(.run(let status)): return status
        case .success(let l): lesson = l
        }
        for reason in lesson.skipped { console.say("gesturemap shape add: skipped \(reason)") }
        guard !lesson.lines.isEmpty else {
            console.say("gesturemap shape add: \(options.inputs[1]) has no drawing to learn \"\(name)\" from; record one finger drawing the shape")
            return .dataError
        }
        var existing: [UInt8] = []
        if FileSystem.kind(of: path) == .file {
            switch BoundedFile.read(path, limit: ShapeFile.maxBytes) {
            case .success(let bytes): existing = bytes
            case .failure(let error):
                console.say("gesturemap shape add: cannot read \(error.message)")
                return .noInput
            }
        }
        let before = ShapeFile.parse(existing, path: path)
        if !existing.isEmpty && existing.last != 0x0A { existing.append(0x0A) }
        for line in lesson.lines { existing += Array(line.utf8) + [0x0A] }
        do throws(FileError) {
            try FileSystem.replace(path, with: existing)
        } catch {
            console.say("gesturemap shape add: cannot write \(error.message)")
            return .cannotWrite
        }
        let total = before.templates.filter { $0.name == name }.count + lesson.lines.count
        let added = lesson.lines.count == 1 ? "a template" : "\(lesson.lines.count) templates"
        let replaces = BuiltinShapes.names.contains(name) && total == lesson.lines.count ? "; it replaces the built-in \(name)" : ""
        console.say("\(path): added \(added) of \"\(name)\" (\(total) in all)\(replaces)")
        return .ok
    }

    static func list(_ args: [String], console: Console) -> ExitCode {
        var output: String?
        var rest: [String] = []
        var a = Arguments(args, command: "shape list")
        let options: RunOptions
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-o", "--output": output = try a.value(for: name, inline: inline)
                default: rest.append(arg)
                }
            }
            guard let parsed = try RunCommand.parse(rest, command: "shape list") else {
                printOut(Help.shape)
                return .ok
            }
            guard parsed.inputs.isEmpty else { throw UsageError(message: "list takes no input; name the templates' file with --shapes FILE") }
            options = parsed
        } catch {
            return usageFailure(error, command: "shape list", console: console)
        }
        let path = shapesPath(options)
        var file: ShapeFile?
        if options.shapesPath != nil || FileSystem.kind(of: path) == .file {
            switch ShapeFile.read(path) {
            case .failure(let error):
                console.say("gesturemap shape list: cannot read \(error.message)")
                return .noInput
            case .success(let f):
                for problem in f.problems { console.say(problem) }
                file = f
            }
        }
        let sheet = ShapeSheet(builtIn: BuiltinShapes.templates, file: file)
        for line in sheet.lines { console.say(line) }
        guard let output else { return .ok }
        let title = file.map { "Shapes: built-in and \(baseNameOf($0.path))" } ?? "Shapes: built-in"
        do throws(FileError) {
            try FileSystem.replace(output, with: Array(sheet.svg(title: title).utf8))
        } catch {
            console.say("gesturemap shape list: cannot write \(error.message)")
            return .cannotWrite
        }
        return .ok
    }

    private static func baseNameOf(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
