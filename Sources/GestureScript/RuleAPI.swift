import CLuaShim
import GestureContext
import GestureCore

/// `on(spec, handler [, options])` and the bindings it returns.
extension ScriptRuntime {
    /// What one rule costs the host besides its strings, charged to the memory limit.
    static let ruleFootprint = 512

    func on(_ stack: LuaView) -> Int32 {
        func refuse(_ message: String) -> Int32 {
            guard load.loading else { return raise(stack, message) }
            problem(stack, message)
            pushBinding(stack, -1)
            return 1
        }
        guard rules.count < Self.maxRules else {
            return raise(stack, "on(): this rules file has defined \(Self.maxRules) rules, the most one may (removed ones count); define rules once and turn them on and off with :enable() and :disable()")
        }
        let spec: GestureSpec
        switch SpecReader.read(stack, at: 1, userKinds: userKinds) {
        case .success(let s): spec = s
        case .failure(let failure): return refuse(failure.message)
        }
        let handlerType = stack.type(at: 2)
        guard handlerType == .function || handlerType == .table else {
            return refuse("on(\"\(spec.phrase)\", ...) needs a handler function or a table of phase handlers { began = f, changed = f, ended = f, cancelled = f }, not a \(handlerType.name)")
        }
        if handlerType == .table {
            do {
                try checkHandlerTable(stack, at: 2)
            } catch {
                return refuse(error.description)
            }
        }
        var core = GestureRule(spec: spec, allPhases: handlerType == .table)
        var options = RuleOptions()
        if stack.type(at: 3) == .table {
            do {
                try readOptions(stack, at: 3, into: &core, options: &options)
            } catch {
                return refuse(error.description)
            }
        } else if stack.type(at: 3) != .nil && stack.type(at: 3) != .none {
            return refuse("on()'s third argument must be a table of options such as { name = \"next\" }, not a \(stack.type(at: 3).name)")
        }
        if let problem = Self.modifierWheelProblem(core.spec, options.modifiers) { return refuse(problem) }
        let definedAt = position(stack, level: 1)
        let cost = Self.ruleFootprint + definedAt.utf8.count + options.byteCount + (core.name?.utf8.count ?? 0)
            + (core.simultaneousWith + core.requiresFailureOf).reduce(0) { $0 + $1.utf8.count + 16 }
        guard lua.limits.charge(cost) else {
            return raise(stack, "on(): no Lua memory left for another rule (limit \(mebibytes(self.options.memoryLimit)))")
        }
        load.charged += cost
        lua_pushvalue(stack.L, 2)
        let ref = gm_ref(stack.L)
        core.cooldown = options.cooldown
        rules.append(ScriptRule(
            core: core, handler: ref, handlerIsTable: handlerType == .table,
            definedAt: definedAt, description: options.description, mode: options.mode,
            devicePattern: options.devicePattern, repeatDistance: options.repeatDistance,
            app: options.app, modifiers: options.modifiers))
        warnAboutContext(options, at: definedAt)
        rulesDidChange()
        pushBinding(stack, rules.count - 1)
        return 1
    }

    private func checkHandlerTable(_ stack: LuaView, at index: Int32) throws(HandlerTableError) {
        var bad: HandlerTableError?
        stack.forEachPair(index) { k, v in
            guard bad == nil else { return }
            let key = stack.string(at: k, limit: 64) ?? ""
            if GesturePhase(rawValue: key) == nil {
                bad = .unknownPhase(shown: stack.shown(at: k))
            } else if stack.type(at: v) != .function {
                bad = .notFunction(phase: key, stack.type(at: v))
            }
        }
        if let bad { throw bad }
    }

    static let optionKeys = ["name", "description", "mode", "cooldown", "device", "repeat",
                             "simultaneous_with", "requires_failure_of", "exclusive", "app", "modifiers", "claim"]
    /// Names, modes and device patterns longer than this are refused.
    static let maxNameBytes = 1024
    static let maxDescriptionBytes = 4096

    /// What `on()`'s options table sets besides the core's view.
    struct RuleOptions {
        var description: String?
        var mode: String?
        var cooldown = 0.0
        var devicePattern: String?
        var repeatDistance: Double?
        var app: AppPatterns?
        var modifiers: Modifiers?

        var byteCount: Int {
            (description?.utf8.count ?? 0) + (mode?.utf8.count ?? 0) + (devicePattern?.utf8.count ?? 0) + (app?.byteCount ?? 0)
        }
    }

    private func readOptions(_ stack: LuaView, at index: Int32, into core: inout GestureRule, options: inout RuleOptions) throws(RuleOptionError) {
        var problem: RuleOptionError?
        stack.forEachPair(index) { k, v in
            guard problem == nil else { return }
            guard let key = stack.string(at: k, limit: 64) else {
                problem = stack.type(at: k) == .string ? .unknownLong(shown: stack.shown(at: k)) : .keyNotString
                return
            }
            do throws(RuleOptionError) {
                try readOption(key, stack, at: v, into: &core, options: &options)
            } catch {
                problem = error
            }
        }
        if let problem { throw problem }
    }

    private func readOption(_ key: String, _ stack: LuaView, at v: Int32, into core: inout GestureRule, options: inout RuleOptions) throws(RuleOptionError) {
        func text(max: Int, orElse notText: RuleOptionError) throws(RuleOptionError) -> String {
            if let count = stack.bytes(at: v)?.count, count > max { throw .tooLong(option: key, bytes: count, most: max) }
            guard let s = stack.string(at: v, limit: max) else { throw notText }
            return s
        }
        switch key {
        case "name":
            core.name = try text(max: Self.maxNameBytes, orElse: .notString(option: key))
        case "description":
            options.description = try text(max: Self.maxDescriptionBytes, orElse: .notString(option: key))
        case "mode":
            let s = try text(max: Self.maxNameBytes, orElse: .notModeName)
            guard !s.isEmpty else { throw .notModeName }
            options.mode = s
        case "cooldown":
            guard let n = stack.number(at: v), n.isFinite, n >= 0 else { throw .cooldown }
            options.cooldown = n
        case "device":
            let s = try text(max: Self.maxNameBytes, orElse: .notDevicePattern)
            do {
                try Self.checkPattern(s)
            } catch {
                throw .malformedPattern(option: key, pattern: s, error)
            }
            options.devicePattern = s
        case "repeat":
            guard let n = stack.number(at: v), n.isFinite, n > 0 else { throw .repeatDistance }
            guard core.spec.kind == .pan || core.spec.kind == .longPress else { throw .repeatWithoutTravel(core.spec.phrase) }
            options.repeatDistance = n
            // The steps come from its changed phases, which a plain handler is not otherwise sent.
            core.allPhases = true
        case "simultaneous_with", "requires_failure_of":
            guard let names = stringList(stack, at: v) else { throw .notRuleNames(option: key) }
            if key == "simultaneous_with" { core.simultaneousWith = names } else { core.requiresFailureOf = names }
        case "exclusive":
            guard let b = stack.boolean(at: v) else { throw .exclusive }
            core.exclusive = b
        case "claim":
            guard let b = stack.boolean(at: v) else { throw .claim }
            core.claims = b
        case "app", "modifiers":
            try readContextOption(key, stack, at: v, into: &core, options: &options)
        default:
            throw .unknown(key)
        }
    }

    /// Throws why `pattern` is not a Lua pattern.
    static func checkPattern(_ pattern: String) throws(MalformedPattern) {
        var text = pattern
        var message = [CChar](repeating: 0, count: 200)
        let result = text.withUTF8 { p in
            p.withMemoryRebound(to: CChar.self) { p in
                gm_pattern_find("", 0, p.baseAddress, p.count, 1_000_000, &message, message.count)
            }
        }
        guard PatternFind(result) == .malformed else { return }
        throw MalformedPattern(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// A string, or a list of strings.
    private func stringList(_ stack: LuaView, at index: Int32) -> [String]? {
        if stack.type(at: index) == .string { return stack.string(at: index, limit: Self.maxNameBytes).map { [$0] } }
        guard stack.type(at: index) == .table else { return nil }
        let count = Int(lua_rawlen(stack.L, index))
        guard count <= Self.maxRules else { return nil }
        var names: [String] = []
        for i in 0..<count {
            lua_rawgeti(stack.L, index, lua_Integer(i + 1))
            let name = stack.string(at: -1, limit: Self.maxNameBytes)
            stack.pop()
            guard let name else { return nil }
            names.append(name)
        }
        return names
    }

    private func pushBinding(_ stack: LuaView, _ index: Int) {
        lua_createtable(stack.L, 0, 1)
        lua_pushinteger(stack.L, lua_Integer(index))
        lua_setfield(stack.L, -2, "id")
        luaL_setmetatable(stack.L, ScriptRuntime.bindingMetatable)
    }

    /// binding:enable(), :disable() and :remove(). A binding of a rule that
    /// failed to load does nothing.
    func bindingMethod(_ stack: LuaView, enabled: Bool? = nil, removed: Bool? = nil) -> Int32 {
        guard stack.type(at: 1) == .table, stack.rawField(1, "id") == .number, let id = stack.integer(at: -1) else {
            stack.pop()
            return 0
        }
        stack.pop()
        guard id >= 0 && id < rules.count else { return 0 }
        if let enabled { rules[id].enabled = enabled }
        if removed == true, !rules[id].removed {
            rules[id].removed = true
            gm_unref(lua.L, rules[id].handler)
        }
        rulesDidChange()
        return 0
    }
}
