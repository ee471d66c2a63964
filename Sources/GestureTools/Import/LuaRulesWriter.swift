/// Writes imported bindings as a commented Lua rules file.
public enum LuaRulesWriter {
    public static func write(_ result: ImportResult, sourceName: String) -> String {
        var text = ""
        write(result, sourceName: sourceName) { text += $0 }
        return text
    }

    /// The rules file, handed to `emit` a few lines at a time (each piece ends
    /// with a newline), so that a large one is never held whole.
    public static func write(_ result: ImportResult, sourceName: String, emit: (String) -> Void) {
        var out: [String] = []
        func drain() {
            if !out.isEmpty { emit(out.joined(separator: "\n") + "\n") }
            out.removeAll(keepingCapacity: true)
        }
        let name = LuaText.printable(sourceName)
        out.append("-- Rules imported by `gesturemap import` from \(name) (\(result.format.toolName)).")
        out.append("-- Each rule's comment gives the line it came from; docs/import.md says what maps to what.")
        out.append("-- Check them with: gesturemap check FILE")
        out.append("-- \(countLine(result.bindings))")
        for note in result.headerNotes { out.append("-- \(LuaText.printable(note, limit: 400))") }
        if !result.settings.isEmpty { out.append("") }
        for setting in result.settings {
            out.append("-- \(name):\(setting.line): \(LuaText.printable(setting.note, limit: 400))")
            if let key = setting.key, let value = setting.value {
                out.append("config{ \(key) = \(LuaText.number(value)) }")
            }
        }
        let lists = AppListNames(result.bindings)
        out += lists.declarations(sourceName: name)
        var written = Set<Int>()
        var phased: [String: [Int]] = [:]
        for (i, b) in result.bindings.enumerated() where b.isLive && b.handlerPhase != nil {
            phased[b.ruleKey, default: []].append(i)
        }
        for (index, binding) in result.bindings.enumerated() where !written.contains(index) {
            if out.count > 256 { drain() }
            out.append("")
            written.insert(index)
            guard binding.isLive else {
                out += comment(binding, name: name)
                if binding.kind != .other {
                    out.append("-- " + rule(binding, body: "function(g) end", lists: lists))
                }
                continue
            }
            guard binding.handlerPhase != nil else {
                out += comment(binding, name: name)
                let body = statements(binding.action)
                out.append(rule(binding, body: body.isEmpty ? "function(g) end" : "function(g) \(body) end", lists: lists))
                continue
            }
            // One rule per gesture and context: of several rules for one gesture only one runs,
            // so the phases of one gesture go in one handler table.
            let group = (phased[binding.ruleKey] ?? [index]).filter { $0 == index || !written.contains($0) }
            var phases: [(ImportedBinding.Phase, [Int])] = []
            for i in group {
                written.insert(i)
                let phase = result.bindings[i].handlerPhase ?? .began
                if let k = phases.firstIndex(where: { $0.0 == phase }) { phases[k].1.append(i) } else { phases.append((phase, [i])) }
            }
            var table = ["{"]
            // Actions for one phase run one after the other, each kept to its direction, as fusuma runs them.
            for (phase, members) in phases {
                for i in members {
                    for line in comment(result.bindings[i], name: name) { table.append("  " + line) }
                }
                let body = members.map { guarded(result.bindings[$0]) }.joined(separator: "; ")
                table.append("  \(phase.rawValue) = function(g) \(body) end,")
            }
            table.append("}")
            out += rule(binding, body: table.joined(separator: "\n"), lists: lists).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        drain()
    }

    /// How many rules the file written defines, as `write` writes them: one per
    /// live binding, one per gesture whose phases share a handler table, and one
    /// per 64 applications of a longer list.
    static func definedRules(_ bindings: [ImportedBinding]) -> Int {
        var phasedGestures = Set<String>()
        var rules = 0
        for b in bindings where b.isLive {
            if b.handlerPhase != nil, !phasedGestures.insert(b.ruleKey).inserted { continue }
            let names = b.apps?.names.count ?? 0
            rules += names > AppListNames.maxPatterns ? (names + AppListNames.maxPatterns - 1) / AppListNames.maxPatterns : 1
        }
        return rules
    }

    /// "12 bindings: 9 imported, 3 commented out.", each binding counted as often as the source binds it.
    static func countLine(_ bindings: [ImportedBinding]) -> String {
        var live = 0, commented = 0, nothing = 0
        for b in bindings {
            if case .nothing = b.action { nothing += b.sourceCount } else if b.isLive { live += b.sourceCount } else { commented += b.sourceCount }
        }
        let total = live + commented + nothing
        let doNothing = nothing > 0 ? ", \(nothing) written as rules that do nothing" : ""
        return "\(total) binding\(total == 1 ? "" : "s"): \(live) imported, \(commented) commented out\(doNothing)."
    }

    /// `on(phrase, body, options)`; over the parts of an application list too long for one rule, a loop.
    static func rule(_ b: ImportedBinding, body: String, lists: AppListNames) -> String {
        let phrase = LuaText.literal(phrase(b))
        if let apps = b.apps, let reference = lists.reference(apps), apps.names.count > AppListNames.maxPatterns {
            return "for _, list in ipairs(\(reference)) do on(\(phrase), \(body), \(options(b, app: "list"))) end"
        }
        let app = b.apps.map { lists.reference($0) ?? AppListNames.literal($0) }
        return "on(\(phrase), \(body)\(app == nil && b.modifiers == nil ? "" : ", " + options(b, app: app)))"
    }

    static func options(_ b: ImportedBinding, app: String?) -> String {
        var parts: [String] = []
        if let app { parts.append("app = \(app)") }
        if let m = b.modifiers { parts.append("modifiers = \(LuaText.literal(m))") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// The action, kept to its direction when it has one.
    static func guarded(_ b: ImportedBinding) -> String {
        guard let direction = b.onlyWhen else { return statements(b.action) }
        let condition: String
        switch (b.kind, direction) {
        case (.pinch, "in"): condition = "g.scale < 1"
        case (.pinch, _): condition = "g.scale > 1"
        case (.rotate, "clockwise"): condition = "g.rotation > 0"
        case (.rotate, _): condition = "g.rotation < 0"
        default: condition = "g.direction == \(LuaText.literal(direction))"
        }
        return "if \(condition) then \(statements(b.action)) end"
    }

    static func comment(_ binding: ImportedBinding, name: String) -> [String] {
        var lines = ["-- \(name):\(binding.line): \(LuaText.printable(binding.original))"]
        switch binding.action {
        case .unsupported(let reason):
            lines.append("--   not imported: \(LuaText.printable(reason, limit: 400))")
        case .nothing(let reason):
            lines.append("--   does nothing here: \(LuaText.printable(reason, limit: 400))")
        default:
            if let problem = binding.fingersProblem {
                lines.append("--   not imported: \(problem)")
            }
        }
        for note in binding.notes { lines.append("--   \(LuaText.printable(note, limit: 400))") }
        return lines
    }

    /// Why a binding is written commented out, for stderr.
    public static func reasonNotImported(_ binding: ImportedBinding) -> String? {
        if case .unsupported(let reason) = binding.action { return reason }
        if let problem = binding.fingersProblem { return problem }
        return nil
    }

    /// gesturemap's phrase for the gesture: "3-finger swipe left", "any-finger pinch in".
    public static func phrase(_ b: ImportedBinding) -> String {
        var words: [String] = []
        if let fingers = b.fingers {
            words.append("\(fingers)-finger")
        } else {
            words.append("any-finger")
        }
        if b.kind == .tap && b.taps == 2 { words.append("double") }
        if b.kind == .tap && b.taps == 3 { words.append("triple") }
        words.append(b.kind.rawValue)
        if let d = b.direction { words.append(d) }
        return words.joined(separator: " ")
    }

    static func statements(_ action: ImportedAction) -> String {
        switch action {
        case .shell(let line): return "shell(\(LuaText.literal(line)))"
        case .exec(let argv): return "exec({ " + argv.map(LuaText.literal).joined(separator: ", ") + " })"
        case .keys(let combos): return combos.map { "key(\(LuaText.literal($0)))" }.joined(separator: "; ")
        case .unsupported, .nothing: return ""
        }
    }
}
