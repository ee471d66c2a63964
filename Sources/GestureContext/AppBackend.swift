/// One live connection to the desktop that knows the focused application: an X
/// server, a compositor's socket, the session bus, a helper command. Created
/// connected; when the other side goes away it throws `AppSourceLost`, and
/// `AppTracker` makes a new one later.
public protocol AppBackend: AnyObject {
    /// The connection's descriptor: readable means `handleReadable()` has work.
    var fd: Int32 { get }
    /// Every descriptor to poll: `fd`, and those of requests still waiting for
    /// their answers (a backend never waits for one).
    var descriptors: [Int32] { get }
    /// When `tick(now:)` has work: an answer overdue, a helper to stop.
    var deadline: Double? { get }
    /// Acts on what is due; true when `current` may have changed. Throws when
    /// the peer has misbehaved past its deadline.
    func tick(now: Double) throws(AppSourceLost) -> Bool
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
    /// Something arrived that poll() on `fd` will not report (X11: events xcb
    /// queued while waiting for a reply): call `handleReadable()` anyway.
    var hasPendingWork: Bool { get }
    /// Whether the other side has answered since the connection was made: a
    /// socket can accept a connection (the kernel does that) and never answer.
    var hasAnswered: Bool { get }
}

extension AppBackend {
    public func takeNotices() -> [String] { [] }
    public var hasPendingWork: Bool { false }
    /// X11's connection is made only once the server has sent its setup;
    /// D-Bus and a helper command count as answering once connected.
    public var hasAnswered: Bool { true }
    public var descriptors: [Int32] { [fd] }
    public var deadline: Double? { nil }
    public func tick(now: Double) throws(AppSourceLost) -> Bool { false }
}

/// The desktop connection ended, or could not be made: the message says why, for people.
public struct AppSourceLost: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
