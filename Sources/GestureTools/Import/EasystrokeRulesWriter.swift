import GestureEngine

/// Writes an Easystroke import as a commented Lua rules file.
public enum EasystrokeRulesWriter {
    /// - Parameter shapesFile: where the templates were written (for the header), if they were.
    public static func write(_ result: EasystrokeImport, sourceName: String, shapesFile: String?) -> String {
        let name = LuaText.printable(sourceName)
        var out: [String] = []
        out.append("-- Rules imported by `gesturemap import` from \(name) (Easystroke's actions file).")
        out.append("-- Each rule's comment gives the line it came from; docs/import.md says what maps to what.")
        out.append("-- Check them with: gesturemap check FILE")
        out.append("-- \(countLine(result.rules))")
        if result.hasErrors {
            for d in result.diagnostics where d.severity == .error {
                out.append("-- \(LuaText.printable(d.rendered(file: sourceName), limit: 400))")
            }
            out.append("-- Nothing is imported live.")
        }
        let button = EasystrokeGestures.buttonNames[result.strokeButton]
        out.append("-- The stroke button: \(button ?? "none gesturemap binds") (X's button \(result.strokeButton)), \(LuaText.printable(result.strokeButtonSource, limit: 300)).")
        let config = "config{ share_mice = true" + (button.map { ", stroke_button = \(LuaText.literal($0))" } ?? "") + " }"
        out.append(result.hasErrors ? "-- " + config : config)
        if let shapesFile, !result.shapes.isEmpty {
            out.append("-- The drawn shapes' templates are in \(LuaText.printable(shapesFile)), which gesturemap reads beside this file.")
        }
        for rule in result.rules {
            out.append("")
            out.append("-- \(name):\(rule.line): \(LuaText.printable(rule.original, limit: 300))")
            switch rule.body {
            case .run(let statements):
                out.append(self.rule(rule, body: "function(g) \(statements) end", strokeButton: button))
            case .nothing(let reason):
                out.append("--   does nothing here: \(LuaText.printable(reason, limit: 400))")
                out.append(self.rule(rule, body: "function(g) end", strokeButton: button))
            case .commented(let reason):
                out.append("--   not imported: \(LuaText.printable(reason, limit: 400))")
                if rule.gesture != nil { out.append("-- " + self.rule(rule, body: "function(g) end", strokeButton: button)) }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// "12 strokes: 9 imported, 3 commented out."
    static func countLine(_ rules: [EasystrokeImport.Rule]) -> String {
        var live = 0, commented = 0, nothing = 0
        for r in rules {
            switch r.body {
            case .run: live += 1
            case .nothing: nothing += 1
            case .commented: commented += 1
            }
        }
        let total = live + commented + nothing
        let doNothing = nothing > 0 ? ", \(nothing) written as rules that do nothing" : ""
        return "\(total) rule\(total == 1 ? "" : "s"): \(live) imported, \(commented) commented out\(doNothing)."
    }

    static func rule(_ rule: EasystrokeImport.Rule, body: String, strokeButton: String?) -> String {
        var options: [String] = []
        if let app = rule.app { options.append("app = \(AppListNames.pattern(app))") }
        if !rule.name.isEmpty { options.append("description = \(LuaText.literal(rule.name))") }
        let spec = rule.gesture.map { self.spec($0, strokeButton: strokeButton) } ?? "{}"
        return "on(\(spec), \(body)\(options.isEmpty ? "" : ", { " + options.joined(separator: ", ") + " }"))"
    }

    static func spec(_ gesture: EasystrokeImport.Gesture, strokeButton: String?) -> String {
        switch gesture {
        case .stroke(let button, let direction):
            let held = button == strokeButton ? "" : "button = \(LuaText.literal(button)), "
            return "{ kind = \"stroke\", \(held)direction = \(LuaText.literal(direction)) }"
        case .shape(let button, let template):
            return "{ kind = \"shape\", button = \(LuaText.literal(button)), name = \(LuaText.literal(template)) }"
        case .chord(let button, let press):
            return "{ kind = \"chord\", button = \(LuaText.literal(button)), press = \(LuaText.literal(press)) }"
        case .wheel(let button, let wheel):
            return "{ kind = \"chord\", button = \(LuaText.literal(button)), wheel = \(LuaText.literal(wheel)) }"
        case .click(let button):
            return "{ kind = \"click\", button = \(LuaText.literal(button)) }"
        }
    }

    /// The shapes file: one template a line, in millimetres.
    public static func shapesFile(_ result: EasystrokeImport) -> String {
        result.shapes.map { ShapeFile.line(name: $0.name, points: $0.points) }.joined(separator: "\n") + (result.shapes.isEmpty ? "" : "\n")
    }
}
