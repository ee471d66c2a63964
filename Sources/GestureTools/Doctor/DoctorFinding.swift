/// One thing `doctor` found: fine, worth knowing, worth fixing, or in the way
/// of a run; with the exact fix where there is one.
public struct DoctorFinding: Equatable, Sendable {
    public enum Status: String, Sendable, Comparable {
        case ok = "ok", note = "note", warning = "warning", problem = "PROBLEM"

        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
        private var rank: Int {
            switch self {
            case .ok: return 0
            case .note: return 1
            case .warning: return 2
            case .problem: return 3
            }
        }
    }

    public var status: Status
    public var text: String
    /// What to do, as exact commands where there are some.
    public var fix: String?

    public init(_ status: Status, _ text: String, fix: String? = nil) {
        self.status = status
        self.text = text
        self.fix = fix
    }
}

/// The findings under their headings, in the order checked.
public struct DoctorReport: Sendable {
    public private(set) var sections: [(title: String, findings: [DoctorFinding])] = []

    public init() {}

    public mutating func add(_ title: String, _ findings: [DoctorFinding]) {
        sections.append((title, findings))
    }

    /// A run has what it needs: nothing found in its way.
    public var passes: Bool { !sections.contains { $0.findings.contains { $0.status == .problem } } }

    /// For people: a heading a section, a line a finding, its fix indented under it.
    public var lines: [String] {
        var lines: [String] = []
        for (title, findings) in sections {
            lines.append(title)
            for finding in findings {
                let label = finding.status.rawValue
                lines.append("  " + label + String(repeating: " ", count: max(1, 9 - label.count)) + finding.text)
                if let fix = finding.fix {
                    for (i, line) in fix.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                        lines.append("           " + (i == 0 ? "fix: " : "     ") + line)
                    }
                }
            }
        }
        let problems = sections.reduce(0) { $0 + $1.findings.filter { $0.status == .problem }.count }
        let warnings = sections.reduce(0) { $0 + $1.findings.filter { $0.status == .warning }.count }
        lines.append(problems == 0
            ? "gesturemap doctor: a run has what it needs" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s") above)" : "")
            : "gesturemap doctor: \(problems) problem\(problems == 1 ? "" : "s") in the way of a run, each with its fix above")
        return lines
    }
}
