/// A line gesturemap draws on a terminal with controls of its own choosing
/// (the pairing QR code's colours): the one kind of text the console writes
/// as it is. It is made only from gesturemap's own text, never from outside
/// text, which the console escapes (`TerminalText`).
public struct TerminalDrawing: Equatable, Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }
}
