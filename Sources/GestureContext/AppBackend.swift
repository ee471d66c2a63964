/// One live connection to the desktop that knows the focused application: an X
/// server, a compositor's socket, the session bus, a helper command. Created
/// connected; when the other side goes away it throws `AppSourceLost`, and
/// `AppTracker` makes a new one later.
public protocol AppBackend: AnyObject {
    /// The descriptor for the caller's poll(): readable means `handleReadable()` has work.
    var fd: Int32 { get }
    /// The focused application, or nil when nothing has the focus.
    var current: AppInfo? { get }
    /// Reads what arrived, without blocking; true when `current` may have changed.
    func handleReadable() throws(AppSourceLost) -> Bool
    /// Every window the backend can see, the focused one marked.
    func windows() -> [WindowInfo]
    /// Closes the connection (and stops a helper command).
    func close()
    /// Things people should hear about that did not end the connection.
    func takeNotices() -> [String]
}

extension AppBackend {
    public func takeNotices() -> [String] { [] }
}

/// The desktop connection ended, or could not be made: the message says why, for people.
public struct AppSourceLost: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
