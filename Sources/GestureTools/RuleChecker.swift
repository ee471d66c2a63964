import GestureEngine
import GestureScript
import GestureSystem

/// `gesturemap check`: loads rule files without running them and lists every
/// problem, each as `file:line: message`.
public enum RuleChecker {
    /// Problems in one file, warnings included (a rule shadowed by another);
    /// empty when it loads cleanly. The rules load under the same limits as
    /// with `run`'s defaults.
    public static func problems(in path: String, options: ScriptOptions = ScriptOptions(), shapesPath: String? = nil) -> [String] {
        let host = SilentHost()
        guard let runtime = ScriptRuntime(host: host, options: options) else {
            return ["\(path): cannot create a Lua state within the memory limit"]
        }
        // The shapes the rules may bind: --shapes, or shapes.jsonl beside them; its bad lines are problems too.
        var shapeProblems: [String] = []
        let shapes = shapesPath ?? ShapeFile.besideRules(path)
        if shapesPath != nil || FileSystem.kind(of: shapes) == .file {
            switch ShapeFile.read(shapes) {
            case .failure(let error): shapeProblems.append("cannot read the shapes file \(error.message)")
            case .success(let file):
                shapeProblems = file.problems
                runtime.shapeNames = ShapeFile.names(ShapeFile.library(adding: file.templates))
            }
        }
        do {
            try runtime.load(path: path)
            return shapeProblems + runtime.warnings
        } catch {
            return shapeProblems + error.problems + runtime.warnings
        }
    }
}
