import GestureScript

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

    /// Lines for the header of the rules file: what was assumed of the tool.
    public var headerNotes: [String] = []
    /// Whether the tool keeps a binding it runs nothing for in its table, so
    /// that a broader one (for every application, any finger count) does not
    /// run in its place: Touchégg and libinput-gestures look the gesture up
    /// once, and a binding gesturemap cannot carry out then does nothing.
    var unsupportedBindingsKeepBroaderOnesOut = false

    /// A binding that a later one for the same gesture and context replaces is
    /// written commented out: the tools keep the later one, and so would
    /// gesturemap, whose `check` fails on a rule that never runs. Then a
    /// binding gesturemap cannot carry out, where a broader rule would run in
    /// its place, becomes a rule that does nothing.
    mutating func commentOutOverridden() {
        var laterLine: [String: Int] = [:]
        var overridden = Set<Int>()
        for i in bindings.indices.reversed() where bindings[i].keepsSlot {
            let key = bindings[i].ruleKey + "|" + (bindings[i].handlerPhase?.rawValue ?? "")
            if let later = laterLine[key] {
                overridden.insert(i)
                if bindings[i].isLive {
                    bindings[i].action = .unsupported("overridden: line \(later) binds the same gesture again, and the later one is the one that runs, there as here")
                }
            } else {
                laterLine[key] = bindings[i].line
            }
        }
        if unsupportedBindingsKeepBroaderOnesOut { keepBroaderRulesOut(except: overridden) }
    }

    /// For each binding the tool keeps but gesturemap cannot carry out: when a
    /// live rule for every application, or for any finger count, or an earlier
    /// one for some of the same applications, would run in its place, a rule
    /// that does nothing instead.
    private mutating func keepBroaderRulesOut(except overridden: Set<Int>) {
        func group(_ b: ImportedBinding) -> String {
            "\(b.kind.rawValue)|\(b.direction ?? "")|\(b.taps)|\(b.modifiers ?? "")|\(b.handlerPhase?.rawValue ?? "")"
        }
        var everyApp: [String: Int] = [:]
        var firstForApps: [String: Int] = [:]
        var anyFingers: [String: Int] = [:]
        for (i, b) in bindings.enumerated() where b.isLive {
            let g = group(b) + "|" + (b.fingers.map(String.init) ?? "any")
            if b.apps == nil { everyApp[g] = everyApp[g] ?? i } else { firstForApps[g] = firstForApps[g] ?? i }
            if b.fingers == nil { anyFingers[group(b) + "|" + (b.apps.map { "\($0.setID)" } ?? "")] = i }
        }
        for i in bindings.indices where !overridden.contains(i) && bindings[i].keepsSlot && !bindings[i].isLive {
            let b = bindings[i]
            guard case .unsupported(let reason) = b.action, b.fingersProblem == nil else { continue }
            var broader: Int?
            if b.apps != nil {
                for fingers in [b.fingers.map(String.init) ?? "any", "any"] {
                    let g = group(b) + "|" + fingers
                    broader = broader ?? everyApp[g] ?? firstForApps[g].flatMap { $0 < i ? $0 : nil }
                }
            }
            if b.fingers != nil {
                broader = broader ?? anyFingers[group(b) + "|" + (b.apps.map { "\($0.setID)" } ?? "")]
            }
            guard let other = broader else { continue }
            bindings[i].action = .nothing("\(reason); so that the broader rule of line \(bindings[other].line) does not run in its place: the tool looks this binding up first, and runs that one only where this one is missing")
        }
    }

    /// More bindings than any configuration has: gesturemap loads at most 1000
    /// rules from one file, and reading more would only cost memory.
    public static let maxBindings = 20_000
    /// The line of the first binding past `maxBindings`, which is not kept.
    private(set) var overflowLine: Int?

    /// Whether a binding past `maxBindings` came: the rest of the file need not be read.
    var isFull: Bool { overflowLine != nil }

    mutating func add(_ binding: ImportedBinding) {
        guard bindings.count < Self.maxBindings else {
            if overflowLine == nil { overflowLine = binding.line }
            return
        }
        bindings.append(binding)
    }

    /// Past `maxBindings`, nothing is imported live: what the rest of the file
    /// would have replaced is unknown.
    mutating func refuseIfTooMany() {
        guard let line = overflowLine else { return }
        error(line, "more than \(Self.maxBindings) bindings: no configuration has so many, and gesturemap loads at most 1000 rules from one file; import stops here and writes none of them live")
        let reason = "the file has more than \(Self.maxBindings) bindings (line \(line)), so none is imported live"
        for i in bindings.indices { bindings[i].action = .unsupported(reason) }
    }

    /// More rules than `check` and `run` load from one file (each binding's
    /// rule, and a rule per 64 applications of a longer list): nothing is
    /// imported live, as past `maxBindings`, rather than a file that does not load.
    mutating func refuseIfMoreRulesThanLoad() {
        let rules = LuaRulesWriter.definedRules(bindings)
        guard rules > ScriptRuntime.maxRules else { return }
        error(nil, "the rules would be \(rules), more than the \(ScriptRuntime.maxRules) gesturemap loads from one file, so none is imported live: import a part of the file at a time, or keep the bindings you use")
        let reason = "the file makes \(rules) rules, more than the \(ScriptRuntime.maxRules) gesturemap loads from one file, so none is imported live"
        for i in bindings.indices where bindings[i].isLive { bindings[i].action = .unsupported(reason) }
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
