import GestureCore
import GestureScript

/// Easystroke's actions file as gesturemap rules: each list's strokes as the
/// rules Easystroke's lookup makes of them (the default list for every
/// window, an application's list for its WM_CLASS), and the shape templates
/// the rules that are drawn shapes need.
public struct EasystrokeImport: Sendable {
    public typealias Gesture = EasystrokeGestures.Gesture

    public enum Body: Equatable, Sendable {
        case run(String)
        /// A live rule that does nothing: the reason.
        case nothing(String)
        /// Written commented out: the reason.
        case commented(String)
    }

    public struct Rule: Sendable {
        public var line: Int
        /// The WM_CLASS the rule serves; nil for every window.
        public var app: String?
        public var gesture: Gesture?
        /// The entry's name (StrokeInfo's), for the rule's description.
        public var name: String
        /// What the file said, for the comment and messages.
        public var original: String
        public var body: Body
    }

    public var rules: [Rule] = []
    public var shapes: [(name: String, points: [Vector])] = []
    /// X's number of the stroke button, and where it came from.
    public var strokeButton: Int
    public var strokeButtonSource: String
    public var diagnostics: [ImportDiagnostic] = []
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// Whether shape rules are written live (a shapes file is given).
    public var shapesLive: Bool

    /// Rules past this are not written live: gesturemap loads at most 1000 rules from one file.
    public static let maxRules = ImportResult.maxBindings

    /// - Parameters:
    ///   - strokeButton: X's number of the preferences' stroke button (2, the middle one, by default), and where it came from.
    ///   - shapesLive: whether the shape templates go to a file beside the rules, so shape rules can be live.
    public static func read(_ bytes: [UInt8], strokeButton: Int = 2, strokeButtonSource: String = "Easystroke's default", shapesLive: Bool) -> EasystrokeImport {
        var result = EasystrokeImport(strokeButton: strokeButton, strokeButtonSource: strokeButtonSource, shapesLive: shapesLive)
        let tree: Easystroke.ActionList
        switch EasystrokeArchive.load(bytes, strokeButton: strokeButton) {
        case .success(let t): tree = t
        case .failure(let failure):
            result.diagnostics.append(ImportDiagnostic(line: failure.line, severity: .error, message: failure.message + "; Easystroke cannot load the file either (\"Couldn't read action database\") and runs none of it, so nothing is imported"))
            return result
        }
        // The default list's entries with no stroke are never matched (get_strokes leaves them out).
        for (_, info) in tree.added where info.strokes.isEmpty {
            result.diagnostics.append(ImportDiagnostic(line: info.line, severity: .warning, message: "\(result.quoted(info.name)): \(EasystrokeActionText.describe(info.action)): no stroke is recorded for it, so Easystroke never runs it; nothing to import"))
        }
        let lists = EasystrokeLists(tree)
        if let line = lists.overflowLine {
            result.diagnostics.append(ImportDiagnostic(line: line, severity: .error, message: "the lists bind more than \(EasystrokeLists.maxBindings) strokes once each application's list takes its parents': no configuration has so many, and gesturemap loads at most 1000 rules from one file; nothing is imported"))
            return result
        }
        // Every stroke of the default list is a rule of its own: past the limit, nothing more need be read.
        if lists.root.bindings.count > Self.maxRules {
            result.diagnostics.append(ImportDiagnostic(line: lists.root.line, severity: .error, message: "the default list binds \(lists.root.bindings.count) strokes, more than \(Self.maxRules) rules: no configuration has so many, and gesturemap loads at most 1000 rules from one file; nothing is imported"))
            return result
        }
        for r in lists.replacedApps {
            result.diagnostics.append(ImportDiagnostic(line: r.line, severity: .warning, message: "application \(LuaText.printable(r.name)): a later list of the same name (line \(r.by)) replaces this one, in Easystroke as here: its strokes are not imported"))
        }
        result.assemble(lists)
        return result
    }

    private mutating func assemble(_ lists: EasystrokeLists) {
        let gestures = EasystrokeGestures(lists, strokeButton: strokeButton)
        shapes = gestures.templates
        // The default list: one rule per stroke; a list's two strokes of one entry that read alike are one rule.
        var general: [Gesture: (binding: EasystrokeLists.Binding, live: Bool)] = [:]
        var inherited: [String: EasystrokeLists.Binding] = [:]
        func key(_ b: EasystrokeLists.Binding) -> String { "\(b.unique) \(b.stroke.id)" }
        for b in lists.root.bindings {
            inherited[key(b)] = b
            let rule = makeRule(b, gesture: gestures.gestures[b.stroke.id], app: nil)
            if let g = rule.gesture {
                guard general[g] == nil else { continue }
                general[g] = (b, rule.isLive)
            }
            rules.append(rule)
        }
        if !lists.apps.isEmpty {
            // grabber.cc get_wm_class: XGetClassHint's res_name.
            let names = AppLists.summary(lists.apps.compactMap(\.app))
            diagnostics.append(ImportDiagnostic(line: lists.apps[0].line, severity: .warning, message: "Easystroke looks a window's list up by its WM_CLASS instance name (the first of xprop's two), and gesturemap's app by the class (the second), in either case: for \(names), check that each is also its program's class, as `gesturemap apps --watch` prints it (Firefox's instance is Navigator, its class firefox), else change the app pattern to the class"))
        }
        var seenApps: [String: String] = [:]
        for context in lists.apps {
            guard let app = context.app else { continue }
            let folded = AppPatternText.lowercasedASCII(app)
            if let other = seenApps[folded] {
                diagnostics.append(ImportDiagnostic(line: context.line, severity: .warning, message: "application \(LuaText.printable(app)): gesturemap matches application ids in either case, so its rules would also serve \(LuaText.printable(other)); its list is not imported"))
                continue
            }
            seenApps[folded] = app
            guard !app.isEmpty else {
                diagnostics.append(ImportDiagnostic(line: context.line, severity: .warning, message: "an application list with no name, which no window's WM_CLASS looks up; not imported"))
                continue
            }
            var own = Set<Gesture>()
            for b in context.bindings {
                let gesture = gestures.gestures[b.stroke.id]
                if case .success(let g)? = gesture {
                    guard own.insert(g).inserted else { continue }
                }
                // The default list's rule serves the application too when nothing differs.
                if let b0 = inherited[key(b)], b0.action == b.action, b0.name == b.name { continue }
                var rule = makeRule(b, gesture: gesture, app: app)
                if case .commented(let reason) = rule.body, let g = rule.gesture, let g0 = general[g], g0.live {
                    rule.body = .nothing("\(reason); so that the default list's rule of line \(g0.binding.line) does not run here, where Easystroke runs this one instead")
                }
                rules.append(rule)
            }
            for (g, g0) in general.sorted(by: { $0.value.binding.line < $1.value.binding.line }) where g0.live && !own.contains(g) {
                rules.append(Rule(line: context.line, app: app, gesture: g, name: g0.binding.name,
                                  original: "application \(LuaText.printable(app)) has no \(quoted(g0.binding.name)) of the default list (line \(g0.binding.line))",
                                  body: .nothing("its list deletes that stroke, so Easystroke runs nothing for it in this application")))
            }
            if rules.count > Self.maxRules { break }
        }
        if rules.count > Self.maxRules {
            diagnostics.append(ImportDiagnostic(line: nil, severity: .error, message: "more than \(Self.maxRules) rules: no configuration has so many, and gesturemap loads at most 1000 rules from one file; none is imported live"))
            for i in rules.indices { rules[i].body = .commented("the file makes more than \(Self.maxRules) rules, so none is imported live") }
            return
        }
        // Each live rule is one on(): past what check and run load, a file that does not load.
        let live = rules.filter(\.isLive).count
        if live > ScriptRuntime.maxRules {
            diagnostics.append(ImportDiagnostic(line: nil, severity: .error, message: "the rules would be \(live), more than the \(ScriptRuntime.maxRules) gesturemap loads from one file, so none is imported live: remove the application lists you do not use from Easystroke, or keep the rules you use"))
            for i in rules.indices where rules[i].isLive { rules[i].body = .commented("the file makes \(live) rules, more than the \(ScriptRuntime.maxRules) gesturemap loads from one file, so none is imported live") }
        }
    }

    private func quoted(_ name: String) -> String {
        name.isEmpty ? "unnamed stroke" : "\"\(LuaText.printable(name, limit: 60))\""
    }

    private func makeRule(_ b: EasystrokeLists.Binding, gesture: Result<Gesture, EasystrokeKeys.Reason>?, app: String?) -> Rule {
        let original = "\(quoted(b.name))\(app.map { " in application " + LuaText.printable($0) } ?? ""): \(EasystrokeActionText.describe(b.action))"
        var rule = Rule(line: b.line, app: app, gesture: nil, name: b.name, original: original, body: .commented(""))
        switch gesture {
        case .failure(let reason)?:
            rule.body = .commented(reason.text)
            return rule
        case nil:
            rule.body = .commented("no stroke")
            return rule
        case .success(let g)?:
            rule.gesture = g
        }
        switch EasystrokeActionText.outcome(b.action) {
        case .run(let statements): rule.body = .run(statements)
        case .nothing(let reason): rule.body = .nothing(reason)
        case .unsupported(let reason): rule.body = .commented(reason)
        }
        if case .shape? = rule.gesture, !shapesLive, rule.isLive {
            rule.body = .commented("its stroke reads as no sure direction, so it is a drawn shape, whose template goes to a shapes file: give --shapes FILE.shapes.jsonl (beside FILE.lua) to import it")
        }
        return rule
    }
}

extension EasystrokeImport.Rule {
    public var isLive: Bool {
        if case .commented = body { return false }
        return true
    }
}
