import GestureCore

/// What the rules reach outside Lua. The engine implements it with the actions
/// module; tests implement it with recording fakes.
public protocol ScriptHost: AnyObject {
    /// One complete JSON line, without its newline.
    func emit(line: String)
    /// The same, as the UTF-8 bytes `emit` wrote: no String made on the way.
    func emit(utf8 line: UnsafeBufferPointer<UInt8>)
    /// A message for people, already prefixed with its position.
    func log(_ message: String)
    /// A notice of gesturemap's own for people: the host names the program.
    func note(_ message: String)
    /// The name of the device a gesture came from, for `g.device`.
    func deviceName(_ device: Int) -> String?
    /// Starts a program; throws, for the rule author, when it cannot.
    func exec(_ request: ExecRequest) throws(HostActionError)
    /// Presses and releases a key combination such as "ctrl+alt+Right".
    func key(_ combo: String, origin: String) throws(HostActionError)
    /// Moves, clicks or scrolls the virtual pointer.
    func pointer(_ request: PointerRequest, origin: String) throws(HostActionError)
    /// Lands, moves or lifts fingers on the virtual touchpad.
    func touchpad(_ request: TouchpadRequest, origin: String) throws(HostActionError)
    /// The rules, their activity, the mode or the thresholds changed (a mode
    /// switch, a binding disabled, a rule defined at run time): what the core
    /// matches against must follow.
    func rulesChanged()
}

extension ScriptHost {
    public func note(_ message: String) { log("gesturemap: " + message) }
    public func emit(utf8 line: UnsafeBufferPointer<UInt8>) { emit(line: String(decoding: line, as: UTF8.self)) }
    public func deviceName(_ device: Int) -> String? { nil }
    public func exec(_ request: ExecRequest) throws(HostActionError) { throw .unavailable(.exec) }
    public func key(_ combo: String, origin: String) throws(HostActionError) { throw .unavailable(.key) }
    public func pointer(_ request: PointerRequest, origin: String) throws(HostActionError) { throw .unavailable(.pointer) }
    public func touchpad(_ request: TouchpadRequest, origin: String) throws(HostActionError) { throw .unavailable(.touchpad) }
    public func rulesChanged() {}
}

/// Why a rule's `exec()` or `key()` did not happen.
public enum HostActionError: Error, CustomStringConvertible {
    /// The rule function that asked, as messages name it.
    public enum Action: String, Sendable {
        case exec, key, pointer, touchpad
    }

    /// A host that runs no programs or types no keys (`check`, tests).
    case unavailable(Action)
    /// The host tried and could not. Its own error: running programs and
    /// typing keys belong to modules this one does not import.
    case failed(any Error & CustomStringConvertible & Sendable)

    public var description: String {
        switch self {
        case .unavailable(let action): return "\(action.rawValue) is not available here"
        case .failed(let error): return error.description
        }
    }
}

/// `exec(argv [, { timeout =, env =, cwd = }])` and `shell(cmdline)`.
public struct ExecRequest: Sendable {
    public var argv: [String]
    /// Seconds before the child's process group is killed; nil for the default.
    public var timeout: Double?
    public var environment: [String: String]
    public var directory: String?
    /// The gesture being handled, passed on as GESTURE_* variables.
    public var gesture: GestureEvent?
    public var deviceName: String?
    /// "rules.lua:12", for messages about this request.
    public var origin: String

    public init(argv: [String], timeout: Double? = nil, environment: [String: String] = [:], directory: String? = nil,
                gesture: GestureEvent? = nil, deviceName: String? = nil, origin: String) {
        self.argv = argv
        self.timeout = timeout
        self.environment = environment
        self.directory = directory
        self.gesture = gesture
        self.deviceName = deviceName
        self.origin = origin
    }
}

public struct ScriptOptions: Sendable {
    /// Bytes Lua may hold; 0 means no limit.
    public var memoryLimit: Int
    /// Lua VM instructions one call into Lua may run; 0 means no limit.
    public var instructionBudget: Int
    /// Seconds of CPU time one call into Lua may take, whatever it does (a
    /// second guard behind the instruction budget, for work no instruction
    /// count sees); 0 means no limit.
    public var timeLimit: Double
    /// Running as root, rules files that group or others can write are refused unless this is set.
    public var allowInsecureRules: Bool
    /// Device names for hosts that do not name devices themselves (tests).
    public var deviceNames: [String] = []

    public init(memoryLimit: Int = 64 << 20, instructionBudget: Int = 10_000_000, timeLimit: Double = 1,
                allowInsecureRules: Bool = false) {
        self.memoryLimit = memoryLimit
        self.instructionBudget = instructionBudget
        self.timeLimit = timeLimit
        self.allowInsecureRules = allowInsecureRules
    }
}
