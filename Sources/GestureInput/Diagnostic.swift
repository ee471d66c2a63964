/// A problem with the input, tied to where it was found. Rendered as
/// `SOURCE:LINE: message`, the form editors and CI logs link to.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    public var source: String
    /// 1-based line (or record) number; 0 when the problem has no single line.
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(source):\(line): \(message)" : "\(source): \(message)"
    }
}
