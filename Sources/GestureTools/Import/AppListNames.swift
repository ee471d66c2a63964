/// The application lists that several rules share, or that are too long for
/// one rule, written once as `apps[N] = { ... }` and named by the rules: so
/// the rules file grows with the source, not with its lists times its gestures.
struct AppListNames {
    /// The most patterns one `app` option takes (ScriptRuntime.maxAppPatterns).
    static let maxPatterns = 64

    private var index: [Int: Int] = [:]
    private var named: [AppList] = []

    init(_ bindings: [ImportedBinding]) {
        var uses: [Int: Int] = [:]
        for b in bindings { if let apps = b.apps { uses[apps.listID, default: 0] += 1 } }
        for b in bindings {
            guard let apps = b.apps, index[apps.listID] == nil else { continue }
            let shared = apps.names.count > 1 && (uses[apps.listID] ?? 0) > 1
            guard shared || apps.names.count > Self.maxPatterns else { continue }
            named.append(apps)
            index[apps.listID] = named.count
        }
    }

    /// `apps[N]` for a named list; nil for one written where it is used.
    func reference(_ list: AppList) -> String? { index[list.listID].map { "apps[\($0)]" } }

    func declarations(sourceName: String) -> [String] {
        guard !named.isEmpty else { return [] }
        var out = ["", "-- The applications' lists the rules share, each as the line of the source names them.", "local apps = {}"]
        for (k, list) in named.enumerated() {
            out.append("-- \(sourceName):\(list.line): \(list.names.count) application\(list.names.count == 1 ? "" : "s")")
            if list.names.count > Self.maxPatterns {
                // An `app` option takes 64 patterns: a longer list is rules of 64 each.
                let parts = stride(from: 0, to: list.names.count, by: Self.maxPatterns).map {
                    Self.patterns(list.names[$0..<min($0 + Self.maxPatterns, list.names.count)])
                }
                out.append("apps[\(k + 1)] = {")
                for part in parts { out.append("  " + part + ",") }
                out.append("}")
            } else {
                out.append("apps[\(k + 1)] = \(Self.patterns(list.names[...]))")
            }
        }
        return out
    }

    /// One name as a string, several as a table: each a pattern for the whole id.
    static func literal(_ list: AppList) -> String {
        list.names.count == 1 ? pattern(list.names[0]) : patterns(list.names[...])
    }

    static func patterns(_ names: ArraySlice<String>) -> String {
        "{ " + names.map(pattern).joined(separator: ", ") + " }"
    }

    static func pattern(_ name: String) -> String {
        LuaText.literal("^" + LuaText.patternEscaped(name) + "$")
    }
}
