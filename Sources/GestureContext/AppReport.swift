import GestureCore
/// What `gesturemap apps` prints: a table for people (stderr) or JSON (stdout).
public enum AppReport {
    public static func json(_ app: AppInfo?) -> String {
        guard let app else { return "null" }
        return "{\"id\":\(JSONValue.quote(app.id)),\"title\":\(JSONValue.quote(app.title)),\"pid\":\(app.pid.map(String.init) ?? "null")}"
    }

    /// `{"source":"x11","focused":{...}|null,"windows":[{...,"focused":true},...]}`
    public static func json(source: String, focused: AppInfo?, windows: [WindowInfo]) -> String {
        let list = windows.map { w in
            String(json(w.app).dropLast()) + ",\"focused\":\(w.focused)}"
        }
        return "{\"source\":\(JSONValue.quote(source)),\"focused\":\(json(focused)),\"windows\":[\(list.joined(separator: ","))]}"
    }

    /// One change under --watch --json: `{"source":"sway","app":{...}|null}`
    public static func watchJSON(source: String, app: AppInfo?) -> String {
        "{\"source\":\(JSONValue.quote(source)),\"app\":\(json(app))}"
    }

    /// One change under --watch: `focus: firefox  "Mozilla Firefox"  pid 1234`
    public static func line(_ app: AppInfo?) -> String {
        guard let app else { return "focus: (nothing focused)" }
        var text = "focus: \(app.id.isEmpty ? "(no id)" : TerminalText.escaped(app.id))"
        if !app.title.isEmpty { text += "  " + TerminalText.quoted(app.title) }
        if let pid = app.pid { text += "  pid \(pid)" }
        return text
    }

    /// The focused app, then every window in columns, the focused one starred.
    public static func table(source: String, focused: AppInfo?, windows: [WindowInfo]) -> [String] {
        var lines = ["app source: \(source)", line(focused).replacingFirst("focus:", with: "focused:")]
        guard !windows.isEmpty else {
            lines.append("windows: none seen")
            return lines
        }
        let idWidth = max(2, windows.map { TerminalText.escaped($0.app.id).count }.max() ?? 0)
        let pidWidth = max(3, windows.map { $0.app.pid.map(String.init)?.count ?? 1 }.max() ?? 0)
        lines.append("")
        lines.append("  " + pad("ID", idWidth) + "  " + pad("PID", pidWidth) + "  TITLE")
        for w in windows {
            let pid = w.app.pid.map(String.init) ?? "-"
            lines.append((w.focused ? "* " : "  ") + pad(TerminalText.escaped(w.app.id), idWidth) + "  " + pad(pid, pidWidth) + "  "
                         + TerminalText.escaped(w.app.title))
        }
        return lines
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}

private extension String {
    func replacingFirst(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
