import GestureCore
import GestureScript
import GestureSystem

/// The engine's side of shapes and Lua recognizers: the shapes file, and what
/// each device's core is given.
extension Engine {
    /// Reads the shapes file (`--shapes`, or `shapes.jsonl` beside the rules
    /// when there is one) and tells the rules which shapes they may bind.
    /// Nil when the run may go on; the exit status when it may not.
    func loadShapes(into runtime: ScriptRuntime) -> ExitCode? {
        switch Self.shapeLibrary(options: options, console: console) {
        case .success(let templates):
            cores.shapeTemplates = templates
            runtime.shapeNames = ShapeFile.names(templates)
            return nil
        case .failure(let status):
            return status
        }
    }

    /// The templates a run matches against; a named file that cannot be read is an error.
    public static func shapeLibrary(options: RunOptions, console: Console) -> Result<[ShapeTemplate], ExitCode> {
        let named = options.shapesPath != nil
        let path = options.shapesPath ?? ShapeFile.besideRules(options.rulesPath)
        // Without --rules there is no file beside them to look for.
        guard named || options.rulesPath != nil else { return .success(BuiltinShapes.templates) }
        guard named || FileSystem.kind(of: path) == .file else { return .success(BuiltinShapes.templates) }
        switch ShapeFile.read(path) {
        case .failure(let error):
            console.note("cannot read the shapes file \(error.message); check the path given to --shapes")
            return .failure(.noInput)
        case .success(let file):
            for problem in file.problems { console.say(problem) }
            if options.verbose {
                console.note("\(file.templates.count) shape templates from \(path)")
            }
            return .success(ShapeFile.library(adding: file.templates))
        }
    }

    /// A device's core gets the rules' recognizers and the shape templates.
    func configureUserGestures(_ arena: inout GestureArena) {
        arena.setUserGestures(recognizers: runtime.recognizerNames, templates: cores.shapeTemplates)
    }
}
