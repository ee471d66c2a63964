import GestureScript

/// `gesturemap check`: loads rule files without running them and lists every
/// problem, each as `file:line: message`.
public enum RuleChecker {
    /// What the rules log while loading is not what `check` reports: dropped.
    private final class SilentHost: ScriptHost {
        func emit(line: String) {}
        func log(_ message: String) {}
    }

    /// Problems in one file, warnings included (a rule shadowed by another);
    /// empty when it loads cleanly. The rules load under the same limits as
    /// with `run`'s defaults.
    public static func problems(in path: String, options: ScriptOptions = ScriptOptions()) -> [String] {
        let host = SilentHost()
        guard let runtime = ScriptRuntime(host: host, options: options) else {
            return ["\(path): cannot create a Lua state within the memory limit"]
        }
        do {
            try runtime.load(path: path)
            return runtime.warnings
        } catch {
            return error.problems + runtime.warnings
        }
    }
}
