/// Writes imported bindings as a commented Lua rules file.
public enum LuaRulesWriter {
    public static func write(_ result: ImportResult, sourceName: String) -> String {
        var out: [String] = []
        let name = LuaText.printable(sourceName)
        out.append("-- Rules imported by `gesturemap import` from \(name) (\(result.format.toolName)).")
        out.append("-- Each rule's comment gives the line it came from; docs/import.md says what maps to what.")
        out.append("-- Check them with: gesturemap check FILE")
        let live = result.bindings.filter(\.isLive).count
        out.append("-- \(result.bindings.count) bindings: \(live) imported, \(result.bindings.count - live) commented out.")
        if !result.settings.isEmpty { out.append("") }
        for setting in result.settings {
            out.append("-- \(name):\(setting.line): \(LuaText.printable(setting.note, limit: 400))")
            if let key = setting.key, let value = setting.value {
                out.append("config{ \(key) = \(LuaText.number(value)) }")
            }
        }
        var written = Set<Int>()
        var phased: [String: [Int]] = [:]
        for (i, b) in result.bindings.enumerated() where b.isLive && b.handlerPhase != nil {
            phased[b.ruleKey, default: []].append(i)
        }
        for (index, binding) in result.bindings.enumerated() where !written.contains(index) {
            out.append("")
            guard binding.isLive else {
                written.insert(index)
                out += comment(binding, name: name)
                out.append("-- on(\(LuaText.literal(phrase(binding))), function(g) end\(options(binding)))")
                continue
            }
            guard binding.handlerPhase != nil else {
                written.insert(index)
                out += comment(binding, name: name)
                out.append("on(\(LuaText.literal(phrase(binding))), function(g) \(statements(binding.action)) end\(options(binding)))")
                continue
            }
            // One rule per gesture and context: of several rules for one gesture only one runs,
            // so the phases of one gesture go in one handler table.
            let group = (phased[binding.ruleKey] ?? [index]).filter { !written.contains($0) }
            out.append("on(\(LuaText.literal(phrase(binding))), {")
            // Actions for one phase run one after the other, each kept to its direction, as fusuma runs them.
            var phases: [(ImportedBinding.Phase, [Int])] = []
            for i in group {
                written.insert(i)
                let phase = result.bindings[i].handlerPhase ?? .began
                if let k = phases.firstIndex(where: { $0.0 == phase }) { phases[k].1.append(i) } else { phases.append((phase, [i])) }
            }
            for (phase, members) in phases {
                for i in members {
                    for line in comment(result.bindings[i], name: name) { out.append("  " + line) }
                }
                let body = members.map { guarded(result.bindings[$0]) }.joined(separator: "; ")
                out.append("  \(phase.rawValue) = function(g) \(body) end,")
            }
            out.append("}\(options(binding)))")
        }
        return out.joined(separator: "\n") + "\n"
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
        if case .unsupported(let reason) = binding.action {
            lines.append("--   not imported: \(LuaText.printable(reason, limit: 400))")
        } else if let fingers = binding.fingers, !(1...5).contains(fingers) {
            lines.append("--   not imported: \(unsupportedFingers(fingers))")
        }
        for note in binding.notes { lines.append("--   \(LuaText.printable(note, limit: 400))") }
        return lines
    }

    static func unsupportedFingers(_ fingers: Int) -> String {
        "\(fingers) fingers: gesturemap recognizes gestures of 1 to 5 fingers"
    }

    /// Why a binding is written commented out, for stderr.
    public static func reasonNotImported(_ binding: ImportedBinding) -> String? {
        if case .unsupported(let reason) = binding.action { return reason }
        if let fingers = binding.fingers, !(1...5).contains(fingers) { return unsupportedFingers(fingers) }
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

    static func options(_ b: ImportedBinding) -> String {
        var parts: [String] = []
        if let app = b.app { parts.append("app = \(LuaText.literal("^" + LuaText.patternEscaped(app) + "$"))") }
        if let m = b.modifiers { parts.append("modifiers = \(LuaText.literal(m))") }
        return parts.isEmpty ? "" : ", { " + parts.joined(separator: ", ") + " }"
    }

    static func statements(_ action: ImportedAction) -> String {
        switch action {
        case .shell(let line): return "shell(\(LuaText.literal(line)))"
        case .exec(let argv): return "exec({ " + argv.map(LuaText.literal).joined(separator: ", ") + " })"
        case .keys(let combos): return combos.map { "key(\(LuaText.literal($0)))" }.joined(separator: "; ")
        case .unsupported: return ""
        }
    }
}
