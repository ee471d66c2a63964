/// The process's exit status (contract).
public enum ExitCode: Int32, Error, Sendable {
    case ok = 0
    /// Rules failed to load, or `check` found problems.
    case ruleFailure = 1
    case usage = 64
    /// Malformed input under `--strict`.
    case dataError = 65
    case noInput = 66
    /// A device or uinput is unavailable.
    case unavailable = 69
    /// Output cannot be written (a full disk, an I/O error, a file that cannot be created).
    case cannotWrite = 74
    /// The reader of stdout went away (EPIPE). `main` ends the process by
    /// SIGPIPE, as `cat` or `seq` would end under `head`: shells report 141.
    case outputClosed = 141
}
