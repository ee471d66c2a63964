import Glibc

/// Why a uinput device could not be made, or stopped taking events: for
/// every user of uinput, one mapping of the system's errors and one wording
/// of the fix (`UinputAdvice`), each ending in the user's own way out.
public enum UinputAccessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No node at the path: the module is not loaded.
    case missing(UinputUser, uinput: String)
    /// The node is there, and this user may not write it.
    case denied(UinputUser, uinput: String)
    case failed(UinputUser, uinput: String, reason: String)
    /// A device made stopped taking events; `reason` when the system gave one.
    case stopped(UinputUser, reason: String?)

    /// What opening or setting up `uinput` failing with `errno` means.
    public init(errno: Int32, user: UinputUser, uinput: String) {
        switch errno {
        case ENOENT, ENODEV, ENXIO: self = .missing(user, uinput: uinput)
        case EACCES, EPERM: self = .denied(user, uinput: uinput)
        default: self = .failed(user, uinput: uinput, reason: String(cString: strerror(errno)))
        }
    }

    /// What the node's mode says before anything opens it: nil when this user
    /// may write it (making a device may still fail).
    public static func probe(_ uinput: String, for user: UinputUser) -> UinputAccessError? {
        if access(uinput, F_OK) != 0 { return .missing(user, uinput: uinput) }
        if access(uinput, W_OK) != 0 { return .denied(user, uinput: uinput) }
        return nil
    }

    public var user: UinputUser {
        switch self {
        case .missing(let user, _), .denied(let user, _), .failed(let user, _, _), .stopped(let user, _): return user
        }
    }

    public var message: String {
        switch self {
        case let .missing(user, uinput):
            return "\(user.subject) needs \(uinput), which does not exist\(user.purpose.map { ", " + $0 } ?? ""); load the uinput module (\(UinputAdvice.loadModule)), give yourself access with the udev rule examples/udev/70-gesturemap.rules, or \(user.otherwise)"
        case let .denied(user, uinput):
            return "\(user.subject) needs write access to \(uinput)\(user.purpose.map { " " + $0 } ?? ""); \(UinputAdvice.seat); \(UinputAdvice.kiosk); or \(user.otherwise)"
        case let .failed(user, uinput, reason):
            return "\(user.subject) could not set up \(user.device("a")) on \(uinput): \(reason)"
        case let .stopped(user, reason):
            return "\(user.device("the")) stopped taking events" + (reason.map { ": " + $0 } ?? "")
        }
    }

    public var description: String { message }
}
