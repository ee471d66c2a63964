/// Everything one configuration file gave: its bindings, its settings, and what
/// could not be read.
public struct ImportResult: Sendable {
    public var format: ImportFormat
    public var bindings: [ImportedBinding] = []
    public var settings: [ImportedSetting] = []
    public var diagnostics: [ImportDiagnostic] = []

    public init(format: ImportFormat) {
        self.format = format
    }

    /// A binding that a later one for the same gesture and context replaces is
    /// written commented out: the tools keep the later one, and so would gesturemap,
    /// whose `check` fails on a rule that never runs.
    mutating func commentOutOverridden() {
        var laterLine: [String: Int] = [:]
        for i in bindings.indices.reversed() where bindings[i].isLive && bindings[i].handlerPhase == nil {
            let key = bindings[i].ruleKey
            if let later = laterLine[key] {
                bindings[i].action = .unsupported("overridden: line \(later) binds the same gesture again, and the later one is the one that runs, there as here")
            } else {
                laterLine[key] = bindings[i].line
            }
        }
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    mutating func error(_ line: Int?, _ message: String) {
        diagnostics.append(ImportDiagnostic(line: line, severity: .error, message: message))
    }

    mutating func warning(_ line: Int?, _ message: String) {
        diagnostics.append(ImportDiagnostic(line: line, severity: .warning, message: message))
    }
}

/// A threshold or interval: a `config{}` key where gesturemap has one, else a comment.
public struct ImportedSetting: Equatable, Sendable {
    public var line: Int
    /// The gesturemap key and its value, when one carries the meaning.
    public var key: String?
    public var value: Double?
    /// What the setting was and how it maps, for the comment.
    public var note: String

    public init(line: Int, key: String? = nil, value: Double? = nil, note: String) {
        self.line = line
        self.key = key
        self.value = value
        self.note = note
    }
}

/// A message about the input, for people: `FILE:LINE: message`.
public struct ImportDiagnostic: Equatable, Sendable {
    public enum Severity: Sendable { case error, warning }
    public var line: Int?
    public var severity: Severity
    public var message: String

    public init(line: Int?, severity: Severity, message: String) {
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// The message as stderr shows it, after the file's name.
    public func rendered(file: String) -> String {
        let place = line.map { "\(file):\($0)" } ?? file
        return severity == .warning ? "\(place): warning: \(message)" : "\(place): \(message)"
    }
}
