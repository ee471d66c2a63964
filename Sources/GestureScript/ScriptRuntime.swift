import CLuaShim
import GestureCore

/// The rules: one Lua state, the API it offers, and the handlers it calls.
///
/// Everything here runs on the engine's loop thread. Lua errors never unwind
/// through Swift: host functions report them to a C trampoline that raises them.
public final class ScriptRuntime {
    public static let maxConsecutiveFailures = 10

    let lua: LuaState
    let options: ScriptOptions
    weak var host: ScriptHost?
    var rules: [ScriptRule] = []
    /// Problems found while loading, each `file:line: message`.
    var problems: [String] = []
    public internal(set) var thresholds = Thresholds()
    /// Increments whenever rules, their activity or thresholds change, so the
    /// engine knows to reconfigure the core.
    public internal(set) var generation = 0
    /// The input time of the gesture being handled, for `emit`'s `t`.
    var currentTime = 0.0
    /// Device names for hosts that do not name devices themselves (tests).
    public var deviceNames: [String] = []
    /// Whether the state is still loading the rules file.
    var loading = false
    var chunkNames = ChunkNames()

    public init?(host: ScriptHost, options: ScriptOptions = ScriptOptions()) {
        guard let lua = LuaState(memoryLimit: options.memoryLimit, instructionBudget: options.instructionBudget) else { return nil }
        self.lua = lua
        self.options = options
        self.host = host
        installAPI()
    }

    /// The core's view of the rules, index for index.
    public var coreRules: [GestureRule] {
        rules.map { rule in
            var core = rule.core
            core.isActive = rule.enabled && !rule.removed
            return core
        }
    }

    public var ruleCount: Int { rules.count }

    /// Loads a rules file. On failure every problem found is in the error, and
    /// the runtime must not be used.
    public func load(path: String) throws(RuleLoadError) {
        chunkNames.add(path)
        let status = gm_load_file(lua.L, path, path)
        try finishLoading(status: status)
    }

    /// Loads rules from text, under `chunkName` in messages (Lua's "=name" or "@file").
    public func load(source: String, chunkName: String) throws(RuleLoadError) {
        var text = source
        let status = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gm_load_buffer(lua.L, $0.baseAddress, $0.count, chunkName) }
        }
        try finishLoading(status: status)
    }

    public func loadDefaultRules() throws(RuleLoadError) {
        try load(source: Prelude.defaultRules, chunkName: "=" + Prelude.defaultRulesName)
    }

    private func finishLoading(status: Int32) throws(RuleLoadError) {
        guard status == LUA_OK else {
            let message = lua.errorMessage()
            lua.pop()
            throw RuleLoadError(problems: problems + [chunkNames.restore(loadMessage(message))])
        }
        loading = true
        let callStatus = gm_pcall_limited(lua.L, 0, 0, lua.limits)
        loading = false
        if callStatus != LUA_OK {
            let message = callStatus == LUA_ERRMEM ? "the rules ran out of Lua memory while loading (limit \(mebibytes(options.memoryLimit)))" : firstLine(lua.errorMessage())
            lua.pop()
            throw RuleLoadError(problems: problems + [chunkNames.restore(message)])
        }
        checkRuleReferences()
        if !problems.isEmpty { throw RuleLoadError(problems: problems) }
        generation += 1
    }

    /// `simultaneous_with` and `requires_failure_of` name rules that must exist.
    private func checkRuleReferences() {
        let names = Set(rules.compactMap(\.core.name))
        for rule in rules {
            for (option, refs) in [("simultaneous_with", rule.core.simultaneousWith), ("requires_failure_of", rule.core.requiresFailureOf)] {
                for name in refs where !names.contains(name) {
                    let known = names.isEmpty ? "no rule has a name; give one with { name = \"...\" }" : "named rules: \(names.sorted().joined(separator: ", "))"
                    problems.append("\(rule.definedAt): \(option) names \"\(name)\", but no rule has that name; \(known)")
                }
            }
        }
    }

    /// Lua's syntax errors read "file:line: message near 'x'"; the file part is already there.
    private func loadMessage(_ message: String) -> String {
        message.hasPrefix("cannot open") ? message + "; check the path given to --rules" : message
    }

    /// Calls the handler of one delivery.
    public func dispatch(_ delivery: Delivery) {
        guard delivery.rule >= 0, delivery.rule < rules.count else { return }
        let rule = rules[delivery.rule]
        guard rule.enabled, !rule.removed else { return }
        let L = lua.L
        let base = lua.top
        gm_getref(L, rule.handler)
        if rule.handlerIsTable {
            let t = lua.top
            guard lua.rawField(t, delivery.event.phase.rawValue) == .function else {
                lua.top = base
                return
            }
            gm_remove(L, t)
        }
        pushGesture(delivery.event)
        currentTime = delivery.event.time
        let status = gm_pcall_limited(L, 1, 0, lua.limits)
        if status == LUA_OK {
            rules[delivery.rule].consecutiveFailures = 0
        } else {
            reportHandlerFailure(rule: delivery.rule, status: status)
        }
        lua.top = base
    }

    private func reportHandlerFailure(rule index: Int, status: Int32) {
        let rule = rules[index]
        if status == LUA_ERRMEM {
            gm_collect(lua.L)
            log("\(rule.definedAt): the handler for \"\(rule.label)\" ran out of Lua memory (limit \(mebibytes(options.memoryLimit))) and was stopped; raise the limit with --lua-memory MiB")
        } else {
            log(chunkNames.restore(lua.errorMessage()))
        }
        rules[index].consecutiveFailures += 1
        if rules[index].consecutiveFailures >= ScriptRuntime.maxConsecutiveFailures {
            rules[index].enabled = false
            generation += 1
            log("\(rule.definedAt): warning: the rule \"\(rule.label)\" failed \(ScriptRuntime.maxConsecutiveFailures) times in a row and is now disabled; fix it and reload")
        }
    }

    private func pushGesture(_ e: GestureEvent) {
        let deviceName: String? = host?.deviceName(e.device)
            ?? (e.device >= 0 && e.device < deviceNames.count ? deviceNames[e.device] : nil)
        withOptionalCString(e.direction?.rawValue) { direction in
            withOptionalCString(e.edge?.rawValue) { edge in
                withOptionalCString(deviceName) { device in
                    e.kind.rawValue.withCString { kind in
                        e.phase.rawValue.withCString { phase in
                            var g = gm_gesture()
                            g.kind = kind
                            g.phase = phase
                            g.direction = direction
                            g.edge = edge
                            g.device = device
                            g.fingers = lua_Integer(e.fingers)
                            g.taps = lua_Integer(e.taps)
                            g.t = e.time
                            g.duration = e.duration
                            g.dx = e.delta.x
                            g.dy = e.delta.y
                            g.distance = e.delta.length
                            g.velocity = e.velocity
                            g.x = e.position.x
                            g.y = e.position.y
                            if let n = e.normalized {
                                g.has_normalized = 1
                                g.nx = n.x
                                g.ny = n.y
                            }
                            g.scale = e.scale
                            g.rotation = e.rotation
                            gm_push_gesture(lua.L, &g)
                        }
                    }
                }
            }
        }
    }

    func log(_ message: String) {
        host?.log(message)
    }
}

func mebibytes(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
}

func firstLine(_ text: String) -> String {
    text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
}

@inline(__always)
func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
