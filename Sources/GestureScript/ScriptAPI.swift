#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLuaShim
import GestureCore

/// The host functions of the rule language. Each is a C-convention function that
/// finds its runtime through upvalue 1 and returns a result count, or
/// `GM_RAISE_HERE` with a message for the trampoline to raise.
extension ScriptRuntime {
    static let bindingMetatable = "gesturemap.binding"

    func installAPI() {
        let L = lua.L
        register("on", luaOn)
        register("emit", luaEmit)
        register("config", luaConfig)
        register("mode", luaMode)
        register("after", luaAfter)
        register("every", luaEvery)
        register("exec", luaExec)
        register("shell", luaShell)
        register("key", luaKey)
        gm_newtable(L)
        lua_setglobal(L, "state")

        // timer:cancel()
        luaL_newmetatable(L, ScriptRuntime.timerMetatable)
        gm_newtable(L)
        pushHostFunction(luaTimerCancel)
        lua_setfield(L, -2, "cancel")
        lua_setfield(L, -2, "__index")
        lua.pop()

        // binding:enable() / :disable() / :remove()
        luaL_newmetatable(L, ScriptRuntime.bindingMetatable)
        gm_newtable(L)
        pushHostFunction(luaBindingEnable)
        lua_setfield(L, -2, "enable")
        pushHostFunction(luaBindingDisable)
        lua_setfield(L, -2, "disable")
        pushHostFunction(luaBindingRemove)
        lua_setfield(L, -2, "remove")
        lua_setfield(L, -2, "__index")
        lua.pop()

        var prelude = Prelude.source
        let status = prelude.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gm_load_buffer(L, $0.baseAddress, $0.count, Prelude.chunkName) }
        }
        if status == LUA_OK {
            pushHostFunction(luaLog)
            pushHostFunction(luaLoadModule)
            if gm_pcall_limited(L, 2, 0, lua.limits) != LUA_OK {
                log("gesturemap: internal error in the Lua prelude: \(lua.errorMessage())")
                lua.pop()
            }
        } else {
            log("gesturemap: internal error in the Lua prelude: \(lua.errorMessage())")
            lua.pop()
        }
    }

    private func register(_ name: String, _ fn: gm_host_function) {
        pushHostFunction(fn)
        lua_setglobal(lua.L, name)
    }

    func pushHostFunction(_ fn: gm_host_function) {
        lua_pushlightuserdata(lua.L, Unmanaged.passUnretained(self).toOpaque())
        gm_push_host_function(lua.L, fn, 1)
    }

    static func from(_ L: OpaquePointer?) -> ScriptRuntime? {
        guard let L, let p = lua_touserdata(L, gm_host_upvalue_index(1)) else { return nil }
        return Unmanaged<ScriptRuntime>.fromOpaque(p).takeUnretainedValue()
    }

    /// "rules.lua:12" of the Lua code `level` levels up (1: the caller of a host function).
    func position(level: Int32) -> String {
        gm_push_where(lua.L, level)
        var text = lua.string(at: -1) ?? ""
        lua.pop()
        while text.hasSuffix(" ") || text.hasSuffix(":") { text.removeLast() }
        return chunkNames.restore(text)
    }

    /// Raises `message` at the caller's line.
    func raise(_ message: String) -> Int32 {
        lua.push(message)
        return GM_RAISE_HERE
    }

    /// Records a load-time problem and carries on, so `check` sees every problem in one pass.
    func problem(_ message: String) {
        let at = position(level: 1)
        problems.append(at.isEmpty ? message : "\(at): \(message)")
    }

    // MARK: on(spec, handler [, options])

    func on() -> Int32 {
        let L = lua.L
        let spec: GestureSpec
        switch SpecReader.read(lua, at: 1) {
        case .success(let s): spec = s
        case .failure(let failure):
            if loading { problem(failure.message); pushBinding(-1); return 1 }
            return raise(failure.message)
        }
        let handlerType = lua.type(at: 2)
        guard handlerType == .function || handlerType == .table else {
            let message = "on(\"\(spec.phrase)\", ...) needs a handler function or a table of phase handlers { began = f, changed = f, ended = f, cancelled = f }, not a \(handlerType.name)"
            if loading { problem(message); pushBinding(-1); return 1 }
            return raise(message)
        }
        if handlerType == .table, let message = checkHandlerTable(at: 2) {
            if loading { problem(message); pushBinding(-1); return 1 }
            return raise(message)
        }
        var core = GestureRule(spec: spec, allPhases: handlerType == .table)
        var options = RuleOptions()
        if lua.type(at: 3) == .table {
            switch readOptions(at: 3, into: &core, options: &options) {
            case .some(let message):
                if loading { problem(message); pushBinding(-1); return 1 }
                return raise(message)
            case .none: break
            }
        } else if lua.type(at: 3) != .nil && lua.type(at: 3) != .none {
            let message = "on()'s third argument must be a table of options such as { name = \"next\" }, not a \(lua.type(at: 3).name)"
            if loading { problem(message); pushBinding(-1); return 1 }
            return raise(message)
        }
        lua_pushvalue(L, 2)
        let ref = gm_ref(L)
        rules.append(ScriptRule(
            core: core, handler: ref, handlerIsTable: handlerType == .table,
            definedAt: position(level: 1), description: options.description, mode: options.mode,
            cooldown: options.cooldown, devicePattern: options.devicePattern, repeatDistance: options.repeatDistance))
        generation += 1
        pushBinding(rules.count - 1)
        return 1
    }

    private func checkHandlerTable(at index: Int32) -> String? {
        var bad: String?
        lua.forEachPair(index) { k, v in
            guard bad == nil else { return }
            let key = lua.string(at: k) ?? "(a \(lua.type(at: k).name) key)"
            if GesturePhase(rawValue: key) == nil {
                bad = "unknown phase \"\(key)\" in handler table; use began, changed, ended or cancelled"
            } else if lua.type(at: v) != .function {
                bad = "handler table field \"\(key)\" must be a function, not a \(lua.type(at: v).name)"
            }
        }
        return bad
    }

    static let optionKeys = ["name", "description", "mode", "cooldown", "device", "repeat",
                             "simultaneous_with", "requires_failure_of", "exclusive"]

    /// What `on()`'s options table sets besides the core's view.
    struct RuleOptions {
        var description: String?
        var mode: String?
        var cooldown = 0.0
        var devicePattern: String?
        var repeatDistance: Double?
    }

    private func readOptions(at index: Int32, into core: inout GestureRule, options: inout RuleOptions) -> String? {
        var problem: String?
        lua.forEachPair(index) { k, v in
            guard problem == nil else { return }
            guard let key = lua.string(at: k) else {
                problem = "on() options must have string keys"
                return
            }
            switch key {
            case "name":
                guard let s = lua.string(at: v) else { problem = "option \"name\" must be a string"; return }
                core.name = s
            case "description":
                guard let s = lua.string(at: v) else { problem = "option \"description\" must be a string"; return }
                options.description = s
            case "mode":
                guard let s = lua.string(at: v), !s.isEmpty else { problem = "option \"mode\" must be a mode's name, such as \"admin\""; return }
                options.mode = s
            case "cooldown":
                guard let n = lua.number(at: v), n.isFinite, n >= 0 else { problem = "option \"cooldown\" must be a number of seconds, 0 or more"; return }
                options.cooldown = n
            case "device":
                guard let s = lua.string(at: v) else { problem = "option \"device\" must be a Lua pattern for the device's name, such as \"Touchscreen\""; return }
                if gm_pattern_matches(lua.L, "", s) < 0 { problem = "option \"device\" is not a valid Lua pattern: \"\(s)\""; return }
                options.devicePattern = s
            case "repeat":
                guard let n = lua.number(at: v), n.isFinite, n > 0 else { problem = "option \"repeat\" must be a distance in millimetres, more than 0"; return }
                guard core.spec.kind == .pan || core.spec.kind == .longPress else {
                    problem = "option \"repeat\" belongs to pans and long presses, which travel, not \"\(core.spec.phrase)\""
                    return
                }
                options.repeatDistance = n
                // The steps come from its changed phases, which a plain handler is not otherwise sent.
                core.allPhases = true
            case "simultaneous_with", "requires_failure_of":
                guard let names = stringList(at: v) else {
                    problem = "option \"\(key)\" must be a rule name or a list of rule names, such as { \"next\", \"prev\" }"
                    return
                }
                if key == "simultaneous_with" { core.simultaneousWith = names } else { core.requiresFailureOf = names }
            case "exclusive":
                guard let b = lua.boolean(at: v) else { problem = "option \"exclusive\" must be true or false"; return }
                core.exclusive = b
            default:
                problem = "unknown option \"\(key)\"; known options: \(ScriptRuntime.optionKeys.joined(separator: ", "))"
            }
        }
        return problem
    }

    /// A string, or a list of strings.
    private func stringList(at index: Int32) -> [String]? {
        if let s = lua.string(at: index) { return [s] }
        guard lua.type(at: index) == .table else { return nil }
        var names: [String] = []
        let count = Int(lua_rawlen(lua.L, index))
        for i in 0..<count {
            lua_rawgeti(lua.L, index, lua_Integer(i + 1))
            let name = lua.string(at: -1)
            lua.pop()
            guard let name else { return nil }
            names.append(name)
        }
        return names
    }

    private func pushBinding(_ index: Int) {
        let L = lua.L
        lua_createtable(L, 0, 1)
        lua_pushinteger(L, lua_Integer(index))
        lua_setfield(L, -2, "id")
        luaL_setmetatable(L, ScriptRuntime.bindingMetatable)
    }

    /// The rule behind `binding` (argument 1), or nil for a binding of a rule that failed to load.
    func bindingRule() -> Int? {
        guard lua.type(at: 1) == .table, lua.rawField(1, "id") == .number, let id = lua.integer(at: -1) else {
            lua.pop()
            return nil
        }
        lua.pop()
        return id >= 0 && id < rules.count ? id : nil
    }

    func setRule(_ index: Int, enabled: Bool? = nil, removed: Bool? = nil) {
        if let enabled { rules[index].enabled = enabled }
        if let removed, removed, !rules[index].removed {
            rules[index].removed = true
            gm_unref(lua.L, rules[index].handler)
        }
        generation += 1
    }

    // MARK: emit(name [, fields])

    func emit() -> Int32 {
        guard let name = lua.string(at: 1) else {
            return raise("emit() needs an action name first, such as emit(\"next_page\", { page = 2 }), not a \(lua.type(at: 1).name)")
        }
        var json = JSONWriter()
        json.raw("{\"action\":")
        json.string(name)
        json.raw(",\"t\":")
        json.time(currentTime)
        switch lua.type(at: 2) {
        case .nil, .none:
            break
        case .table:
            if lua.rawField(2, "action") != .nil || lua.rawField(2, "t") != .nil {
                lua.pop(2)
                return raise("emit(\"\(name)\", ...): the fields \"action\" and \"t\" are written by emit itself; rename yours")
            }
            lua.pop(2)
            var fields = JSONWriter()
            if let message = LuaJSON.write(lua, 2, into: &fields, path: "field") {
                return raise("emit(\"\(name)\", ...): \(message)")
            }
            // Splice the fields' object into the line: drop its braces.
            let body = fields.bytes
            if body.count > 2, body.first == 0x7B {
                json.byte(0x2C)
                for b in body[1..<(body.count - 1)] { json.byte(b) }
            } else if body.first == 0x5B {
                return raise("emit(\"\(name)\", ...): fields must be a table of names to values, not a list")
            }
        default:
            return raise("emit(\"\(name)\", ...): fields must be a table such as { page = 2 }, not a \(lua.type(at: 2).name)")
        }
        json.byte(0x7D)
        host?.emit(line: json.text)
        return 0
    }

    // MARK: config{ ... }

    func config() -> Int32 {
        guard lua.type(at: 1) == .table else {
            return raise("config needs a table of thresholds, such as config{ swipe_min_distance = 12 }")
        }
        var messages: [String] = []
        var changes: [(String, Double)] = []
        lua.forEachPair(1) { k, v in
            guard let key = lua.string(at: k) else {
                messages.append("config keys must be threshold names")
                return
            }
            guard let value = lua.number(at: v) else {
                messages.append("config key \"\(key)\" must be a number")
                return
            }
            changes.append((key, value))
        }
        for (key, value) in changes.sorted(by: { $0.0 < $1.0 }) {
            if let message = thresholds.set(name: key, value: value) { messages.append(message) }
        }
        if !messages.isEmpty {
            if loading {
                for m in messages { problem(m) }
                return 0
            }
            return raise(messages.joined(separator: "; "))
        }
        generation += 1
        return 0
    }

    // MARK: log

    func hostLog() -> Int32 {
        let level = lua.string(at: 1) ?? "info"
        let text = lua.string(at: 2) ?? ""
        let at = position(level: 2)
        let prefix = at.isEmpty ? "" : at + ": "
        log(level == "info" ? prefix + text : prefix + level + ": " + text)
        return 0
    }
}

extension ScriptRuntime {
    // MARK: mode([name])

    func modeFunction() -> Int32 {
        switch lua.type(at: 1) {
        case .nil, .none:
            break
        case .string:
            let name = lua.string(at: 1) ?? ScriptRuntime.defaultMode
            if name != mode {
                mode = name
                generation += 1
            }
        default:
            return raise("mode() takes a mode's name, such as mode(\"admin\"), or nothing to read the current one")
        }
        lua.push(mode)
        return 1
    }

    // MARK: exec(argv [, options]) and shell(cmdline)

    func execFunction(shell: Bool) -> Int32 {
        var argv: [String] = []
        if shell {
            guard let line = lua.string(at: 1) else {
                return raise("shell() takes a command line, as in shell(\"notify-send page\")")
            }
            argv = ["/bin/sh", "-c", line]
        } else {
            guard lua.type(at: 1) == .table else {
                let hint = lua.type(at: 1) == .string ? "; exec never uses a shell: give exec{\"program\", \"arg\"} or use shell(\"...\")" : ""
                return raise("exec() takes a list of program and arguments, as in exec{\"xdotool\", \"key\", \"Next\"}\(hint)")
            }
            let count = Int(lua_rawlen(lua.L, 1))
            for i in 0..<count {
                lua_rawgeti(lua.L, 1, lua_Integer(i + 1))
                defer { lua.pop() }
                if let s = lua.string(at: -1) {
                    argv.append(s)
                } else if let n = lua.number(at: -1) {
                    argv.append(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n))
                } else {
                    return raise("exec(): argument \(i + 1) is a \(lua.type(at: -1).name); arguments must be strings or numbers")
                }
            }
            guard !argv.isEmpty else { return raise("exec() needs at least the program to run") }
        }
        let origin = position(level: 1)
        var request = ExecRequest(argv: argv, gesture: currentEvent, origin: origin)
        if let e = currentEvent { request.deviceName = host?.deviceName(e.device) }
        let optionsIndex: Int32 = shell ? 2 : 2
        if lua.type(at: optionsIndex) == .table {
            if lua.rawField(optionsIndex, "timeout") != .nil {
                guard let t = lua.number(at: -1), t.isFinite, t > 0 else { lua.pop(); return raise("exec option \"timeout\" must be a number of seconds above 0") }
                request.timeout = t
            }
            lua.pop()
            if lua.rawField(optionsIndex, "cwd") != .nil {
                guard let d = lua.string(at: -1) else { lua.pop(); return raise("exec option \"cwd\" must be a directory's path") }
                request.directory = d
            }
            lua.pop()
            if lua.rawField(optionsIndex, "env") == .table {
                var bad: String?
                lua.forEachPair(-1) { k, v in
                    guard let key = lua.string(at: k), let value = lua.string(at: v) ?? lua.number(at: v).map({ String($0) }) else {
                        bad = "exec option \"env\" must map names to strings"
                        return
                    }
                    request.environment[key] = value
                }
                if let bad { lua.pop(); return raise(bad) }
            }
            lua.pop()
        }
        let outcome: String? = host.map { $0.exec(request) } ?? "exec is not available here"
        if let problem = outcome {
            log("\(origin): \(problem)")
            lua_pushboolean(lua.L, 0)
            lua.push(problem)
            return 2
        }
        lua_pushboolean(lua.L, 1)
        return 1
    }

    // MARK: key(combo)

    func keyFunction() -> Int32 {
        guard let combo = lua.string(at: 1) else {
            return raise("key() takes a key or combination, as in key(\"ctrl+alt+Right\") or key(\"PageDown\")")
        }
        let outcome: String? = host.map { $0.key(combo, origin: position(level: 1)) } ?? "key is not available here"
        if let problem = outcome {
            return raise(problem)
        }
        return 0
    }

    // MARK: require(name), through the prelude

    /// Loads a module from the rules file's directory and returns its chunk.
    /// Called by the prelude's `require`, so errors name the line that required.
    func loadModule() -> Int32 {
        func fail(_ message: String) -> Int32 {
            let at = position(level: 2)
            lua.push(at.isEmpty ? message : "\(at): \(message)")
            return GM_RAISE_PLAIN
        }
        guard let name = lua.string(at: 1), !name.isEmpty,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }),
              !name.contains(".."), !name.hasPrefix(".") else {
            return fail("require() takes a module name such as \"helpers\" or \"lib.paging\" (a file next to the rules file)")
        }
        let path = moduleDirectory + "/" + name.replacingDots() + ".lua"
        guard fileExists(path) else {
            return fail("module \"\(name)\" not found: no file \(path); require only loads Lua files next to the rules file")
        }
        if let insecure = insecurity(of: path) { return fail(insecure) }
        chunkNames.add(path)
        if !sourceFiles.contains(path) { sourceFiles.append(path) }
        let status = gm_load_file(lua.L, path, path)
        guard status == LUA_OK else {
            let message = chunkNames.restore(lua.errorMessage())
            lua.pop()
            lua.push(message)
            return GM_RAISE_PLAIN
        }
        return 1
    }
}

extension String {
    func replacingDots() -> String { String(map { $0 == "." ? "/" : $0 }) }
}

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

private let luaMode: gm_host_function = { L in ScriptRuntime.from(L)?.modeFunction() ?? 0 }
private let luaAfter: gm_host_function = { L in ScriptRuntime.from(L)?.schedule(repeating: false) ?? 0 }
private let luaEvery: gm_host_function = { L in ScriptRuntime.from(L)?.schedule(repeating: true) ?? 0 }
private let luaTimerCancel: gm_host_function = { L in ScriptRuntime.from(L)?.cancelTimer() ?? 0 }
private let luaExec: gm_host_function = { L in ScriptRuntime.from(L)?.execFunction(shell: false) ?? 0 }
private let luaShell: gm_host_function = { L in ScriptRuntime.from(L)?.execFunction(shell: true) ?? 0 }
private let luaKey: gm_host_function = { L in ScriptRuntime.from(L)?.keyFunction() ?? 0 }
private let luaLoadModule: gm_host_function = { L in ScriptRuntime.from(L)?.loadModule() ?? 0 }
private let luaOn: gm_host_function = { L in ScriptRuntime.from(L)?.on() ?? 0 }
private let luaEmit: gm_host_function = { L in ScriptRuntime.from(L)?.emit() ?? 0 }
private let luaConfig: gm_host_function = { L in ScriptRuntime.from(L)?.config() ?? 0 }
private let luaLog: gm_host_function = { L in ScriptRuntime.from(L)?.hostLog() ?? 0 }
private let luaBindingEnable: gm_host_function = { L in
    guard let runtime = ScriptRuntime.from(L) else { return 0 }
    if let rule = runtime.bindingRule() { runtime.setRule(rule, enabled: true) }
    return 0
}
private let luaBindingDisable: gm_host_function = { L in
    guard let runtime = ScriptRuntime.from(L) else { return 0 }
    if let rule = runtime.bindingRule() { runtime.setRule(rule, enabled: false) }
    return 0
}
private let luaBindingRemove: gm_host_function = { L in
    guard let runtime = ScriptRuntime.from(L) else { return 0 }
    if let rule = runtime.bindingRule() { runtime.setRule(rule, removed: true) }
    return 0
}
