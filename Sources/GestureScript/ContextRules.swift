import CLuaShim
import GestureContext
import GestureCore
import GestureSystem

/// What the rules know of the gesture's surroundings: the focused application
/// (`g.app`, `app()`, the `app` option) and the modifier keys held
/// (`g.modifiers`, the `modifiers` option). The engine keeps it current.
public struct RuleContext: Equatable, Sendable {
    public var app: AppInfo?
    public var modifiers: Modifiers

    public init(app: AppInfo? = nil, modifiers: Modifiers = []) {
        self.app = app
        self.modifiers = modifiers
    }
}

/// The `app` option: Lua patterns for the application's id, any of which may match.
/// Letters match in either case, and a pattern equal to the id (ignoring case)
/// matches even where it is not a pattern of itself ("libreoffice-impress",
/// whose `-` is a pattern operator), so plain names work as people write them.
struct AppPatterns: Equatable {
    var patterns: [String]
    /// Each pattern as `folded` makes it, for the lower-cased id.
    let folded: [String]
    /// Each pattern lower-cased, to compare with the lower-cased id as a name.
    let lowered: [String]

    init(patterns: [String]) {
        self.patterns = patterns
        folded = patterns.map(Self.folded)
        lowered = patterns.map(Self.lowercasedASCII)
    }

    var byteCount: Int { patterns.reduce(0) { $0 + 3 * $1.utf8.count + 48 } }

    /// A pattern with its letters lower-cased, except the one after each `%`
    /// (`%A`, `%S` are classes, not letters): matched against the lower-cased id.
    static func folded(_ pattern: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pattern.utf8.count)
        var escaped = false
        for byte in pattern.utf8 {
            if escaped {
                out.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "%") {
                out.append(byte)
                escaped = true
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                out.append(byte + 32)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func lowercasedASCII(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension ScriptRuntime {
    /// Patterns one `app` option may list.
    static let maxAppPatterns = 64
    /// How much a rule's context weighs when rules compete for a gesture
    /// (GestureRule.contextRank): held keys are a deliberate act at that moment,
    /// so they outweigh the application; both outweigh neither.
    static let appRank = 1
    static let modifiersRank = 2

    /// Reads `app = ...` or `modifiers = ...` from on()'s options.
    func readContextOption(_ key: String, _ stack: LuaView, at index: Int32, into core: inout GestureRule,
                           options: inout RuleOptions) throws(RuleOptionError) {
        if key == "modifiers" {
            guard let text = stack.string(at: index, limit: 256) else { throw .notModifierKeys }
            do {
                options.modifiers = try Modifiers.parse(text)
            } catch {
                throw .modifiers(error)
            }
            core.contextRank += Self.modifiersRank
            return
        }
        var patterns: [String] = []
        switch stack.type(at: index) {
        case .string:
            guard let s = stack.string(at: index, limit: Self.maxNameBytes) else {
                throw .tooLong(option: "app", bytes: stack.bytes(at: index)?.count ?? 0, most: Self.maxNameBytes)
            }
            patterns = [s]
        case .table:
            let count = Int(lua_rawlen(stack.L, index))
            guard count <= Self.maxAppPatterns else { throw .appPatternCount(count) }
            guard stack.reserve(2) else { throw .appUsage }
            for i in 0..<count {
                lua_rawgeti(stack.L, index, lua_Integer(i + 1))
                let s = stack.string(at: -1, limit: Self.maxNameBytes)
                stack.pop()
                guard let s else { throw .appUsage }
                patterns.append(s)
            }
        default:
            throw .appUsage
        }
        for pattern in patterns {
            do {
                try Self.checkPattern(pattern)
            } catch {
                throw .malformedPattern(option: "app", pattern: pattern, error)
            }
        }
        options.app = AppPatterns(patterns: patterns)
        core.contextRank += Self.appRank
    }

    /// `check` warns about an `app` option that can never match.
    func warnAboutContext(_ options: RuleOptions, at definedAt: String) {
        guard let app = options.app else { return }
        var notes: [String] = []
        if app.patterns.isEmpty {
            notes.append("the option app = {} lists no application, so this rule never runs; name one, as gesturemap apps shows it, or leave the option out")
        }
        if app.patterns.contains("") {
            notes.append("an empty app pattern matches no application; name one, as gesturemap apps shows it (such as \"firefox\")")
        }
        for note in notes {
            let line = "\(definedAt): warning: \(note)"
            if load.loading { load.warnings.append(line) } else { log(line) }
        }
    }

    // MARK: Keeping the context

    /// Some rule has an `app` option: without an app source it could never run.
    public var hasAppRules: Bool { rules.contains { $0.app != nil && !$0.removed } }

    /// The focused application changed: rules with `app` follow it. Only
    /// the id is matched, so a new title or pid changes no rule. `now`: the
    /// monotonic clock, for the budget of matching (AppMatching.swift).
    public func setApp(_ app: AppInfo?, now: Double = MonotonicClock.now()) {
        guard app != context.app else { return }
        let sameID = app?.id == context.app?.id
        context.app = app
        guard !sameID, rules.contains(where: { $0.app != nil }) else { return }
        let before = appState.active
        decideApps(now: now)
        if appState.active != before { rulesDidChange() }
    }

    /// The modifier keys held changed: rules with `modifiers` follow them.
    public func setModifiers(_ modifiers: Modifiers) {
        guard modifiers != context.modifiers else { return }
        context.modifiers = modifiers
        if rules.contains(where: { $0.modifiers != nil }) { rulesDidChange() }
    }

    public func setContext(_ new: RuleContext) {
        setApp(new.app)
        setModifiers(new.modifiers)
    }

    /// Whether the rule's `app` and `modifiers` hold now: part of its activity.
    func contextHolds(_ index: Int) -> Bool {
        if let wanted = rules[index].modifiers, wanted != context.modifiers { return false }
        return appHolds(index)
    }

    /// Whether the rule's `app` holds now (true without one).
    func appHolds(_ index: Int) -> Bool {
        guard rules[index].app != nil else { return true }
        guard context.app != nil else { return false }
        if !appState.started || appState.id != context.app?.id || appState.decisions.count <= index {
            decideApps(now: MonotonicClock.now())
        }
        return appState.decisions.indices.contains(index) && appState.decisions[index] == .yes
    }

    // MARK: Lua's view

    /// Fills `g.app` and `g.modifiers` of the gesture table, valid inside `body`.
    func withContext<R>(_ g: inout gm_gesture, _ body: (UnsafePointer<gm_gesture>) -> R) -> R {
        let held = ModifierNames.pointers(for: context.modifiers)
        return held.withUnsafeBufferPointer { names in
            withOptionalCString(context.app?.id) { id in
                withOptionalCString(context.app?.title) { title in
                    g.app_id = id
                    g.app_title = title
                    g.app_pid = lua_Integer(context.app?.pid ?? 0)
                    g.modifiers = names.baseAddress
                    g.modifier_count = Int32(names.count)
                    return withUnsafePointer(to: &g) { body($0) }
                }
            }
        }
    }

    /// `app()`: the focused application as `{ id, title, pid }`, or nil; for
    /// timers and anything else outside a handler.
    func appFunction(_ stack: LuaView) -> Int32 {
        guard let app = context.app else {
            lua_pushnil(stack.L)
            return 1
        }
        guard stack.reserve(3) else { return raise(stack, "app(): no room on the Lua stack") }
        lua_createtable(stack.L, 0, 3)
        stack.push(app.id)
        lua_setfield(stack.L, -2, "id")
        stack.push(app.title)
        lua_setfield(stack.L, -2, "title")
        if let pid = app.pid, pid > 0 {
            lua_pushinteger(stack.L, lua_Integer(pid))
            lua_setfield(stack.L, -2, "pid")
        }
        return 1
    }
}

/// The modifiers' names as C strings that live as long as the process.
enum ModifierNames {
    nonisolated(unsafe) static let all: [(Modifiers, UnsafePointer<CChar>)] = Modifiers.named.map { entry in
        let bytes = Array(entry.name.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return (entry.modifier, UnsafePointer(copy))
    }

    static func pointers(for held: Modifiers) -> [UnsafePointer<CChar>?] {
        // Most gestures are made with no key held: no list to filter then.
        if held.isEmpty { return [] }
        return all.filter { held.contains($0.0) }.map { $0.1 }
    }
}
