/// What the rules reach outside Lua. The engine implements it with the actions
/// module; tests implement it with recording fakes.
public protocol ScriptHost: AnyObject {
    /// One complete JSON line, without its newline.
    func emit(line: String)
    /// A message for people, already prefixed with its position.
    func log(_ message: String)
    /// The name of the device a gesture came from, for `g.device`.
    func deviceName(_ device: Int) -> String?
}

extension ScriptHost {
    public func deviceName(_ device: Int) -> String? { nil }
}

public struct ScriptOptions: Sendable {
    /// Bytes Lua may hold; 0 means no limit.
    public var memoryLimit: Int
    /// Lua VM instructions one call into Lua may run; 0 means no limit.
    public var instructionBudget: Int

    public init(memoryLimit: Int = 64 << 20, instructionBudget: Int = 10_000_000) {
        self.memoryLimit = memoryLimit
        self.instructionBudget = instructionBudget
    }
}
