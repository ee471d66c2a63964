import Glibc

/// Why a rule's program could not run at all. A program that runs and fails
/// is its own business: it has its exit status, not one of these.
public enum LaunchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `exec{}` with no program, or an empty one.
    case noProgram
    case noWorkingDirectory(program: String, directory: String)
    /// `onPath`: the name has no `/`, so it was looked for on PATH.
    case notFound(program: String, onPath: Bool)
    case permissionDenied(program: String)
    case spawnFailed(program: String, errno: Int32)

    /// The message the rule author reads, from `exec()`'s second result and the log.
    public var description: String {
        switch self {
        case .noProgram:
            return "exec needs a program to run"
        case let .noWorkingDirectory(program, directory):
            return "cannot run \"\(program)\": its working directory \(directory) does not exist"
        case let .notFound(program, onPath):
            return "cannot run \"\(program)\": no such program\(onPath ? " on PATH" : "")"
        case .permissionDenied(let program):
            return "cannot run \"\(program)\": permission denied"
        case let .spawnFailed(program, code):
            return "cannot run \"\(program)\": \(String(cString: strerror(code)))"
        }
    }

    /// What posix_spawn's error `code` means for `program`.
    init(spawning program: String, errno code: Int32) {
        switch code {
        case ENOENT: self = .notFound(program: program, onPath: !program.contains("/"))
        case EACCES: self = .permissionDenied(program: program)
        default: self = .spawnFailed(program: program, errno: code)
        }
    }
}
