import GestureInput

/// What the server tells the engine after serving its descriptors.
public enum PhoneEvent: Equatable, Sendable {
    /// A page's WebSocket opened: a new touch device, named after the connection.
    case connected(id: Int, name: String)
    /// Records of the native format for the engine's decoder of that device.
    case input(id: Int, records: [NDJSONRecord])
    /// The page went away (closed, reloaded, refused for a bad message: `reason`).
    case disconnected(id: Int, reason: String?)
    /// For the console: a refused request and why.
    case note(String)
}
