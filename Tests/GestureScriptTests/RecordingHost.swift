import GestureCore
import GestureScript

/// Records what the rules do, in place of stdout and stderr.
final class RecordingHost: ScriptHost {
    var lines: [String] = []
    var messages: [String] = []
    /// Times the runtime said its rules changed.
    var rulesChanges = 0

    func emit(line: String) { lines.append(line) }
    func log(_ message: String) { messages.append(message) }
    func rulesChanged() { rulesChanges += 1 }
}

/// A runtime loaded from `source` as if it were the file `rules.lua`.
func loadRules(_ source: String, options: ScriptOptions = ScriptOptions()) throws -> (ScriptRuntime, RecordingHost) {
    let host = RecordingHost()
    guard let runtime = ScriptRuntime(host: host, options: options) else { throw RuleLoadError(problems: ["no Lua state"]) }
    try runtime.load(source: source, chunkName: "@rules.lua")
    return (runtime, host)
}

/// The load error's problems for `source`, or [] when it loads.
func loadProblems(_ source: String) -> [String] {
    do {
        _ = try loadRules(source)
        return []
    } catch let error as RuleLoadError {
        return error.problems
    } catch {
        return ["\(error)"]
    }
}

func swipe(_ direction: Direction, fingers: Int = 1, at t: Double = 1.5) -> GestureEvent {
    GestureEvent(kind: .swipe, phase: .ended, fingers: fingers, direction: direction, time: t,
                 duration: 0.2, delta: Vector(-30, 1), velocity: 150, position: Vector(100, 50))
}
