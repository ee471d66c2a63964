import GestureScript

/// `gesturemap check`: loads rule files without running them and lists every
/// problem, each as `file:line: message`.
public enum RuleChecker {
    private final class SilentHost: ScriptHost {
        var messages: [String] = []
        func emit(line: String) {}
        func log(_ message: String) { messages.append(message) }
    }

    /// Problems in one file, warnings included (a rule shadowed by another);
    /// empty when it loads cleanly.
    public static func problems(in path: String) -> [String] {
        let host = SilentHost()
        guard let runtime = ScriptRuntime(host: host) else { return ["\(path): cannot create a Lua state"] }
        do {
            try runtime.load(path: path)
            return runtime.warnings
        } catch {
            return error.problems + runtime.warnings
        }
    }
}
