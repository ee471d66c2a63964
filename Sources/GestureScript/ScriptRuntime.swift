#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLuaShim
import GestureCore

/// The rules: one Lua state, the API it offers, and the handlers it calls.
///
/// Everything here runs on the engine's loop thread. Lua errors never unwind
/// through Swift: host functions report them to a C trampoline that raises them.
public final class ScriptRuntime {
    public static let maxConsecutiveFailures = 10
    public static let defaultMode = "default"

    let lua: LuaState
    let options: ScriptOptions
    weak var host: ScriptHost?
    var rules: [ScriptRule] = []
    /// Problems found while loading, each `file:line: message`; any of them fails the load.
    var problems: [String] = []
    /// Doubtful but legal things (a rule shadowed by another): `check` fails on them, `run` only says them.
    public internal(set) var warnings: [String] = []
    public internal(set) var thresholds = Thresholds()
    /// Increments whenever rules, their activity, the mode or thresholds change,
    /// so the engine knows to reconfigure the core.
    public internal(set) var generation = 0
    /// The input time of what is being handled, for `emit`'s `t` and timers.
    var currentTime = 0.0
    var currentEvent: GestureEvent?
    var currentRule: Int?
    /// Device names for hosts that do not name devices themselves (tests).
    public var deviceNames: [String] = []
    /// Whether the state is still loading the rules file.
    var loading = false
    var chunkNames = ChunkNames()
    public internal(set) var mode = ScriptRuntime.defaultMode
    var timers: [LuaTimer] = []
    var nextTimerID = 1
    /// The input's clock has given a time; timers made before it count from it.
    var clockStarted = false
    /// The rules file's directory, where `require` looks.
    var moduleDirectory = "."
    /// Every file the rules came from (the rules file and required modules), for reload.
    public internal(set) var sourceFiles: [String] = []

    public init?(host: ScriptHost, options: ScriptOptions = ScriptOptions()) {
        guard let lua = LuaState(memoryLimit: options.memoryLimit, instructionBudget: options.instructionBudget) else { return nil }
        self.lua = lua
        self.options = options
        self.host = host
        installAPI()
    }

    /// The core's view of the rules, index for index, for one device: a rule is
    /// active when enabled, in the current mode, and matching the device's name.
    public func coreRules(forDevice name: String? = nil) -> [GestureRule] {
        rules.map { rule in
            var core = rule.core
            core.isActive = rule.enabled && !rule.removed && (rule.mode == nil || rule.mode == mode) && deviceMatches(rule, name)
            return core
        }
    }

    public var coreRules: [GestureRule] { coreRules(forDevice: nil) }

    private func deviceMatches(_ rule: ScriptRule, _ name: String?) -> Bool {
        guard let pattern = rule.devicePattern else { return true }
        guard let name else { return false }
        return gm_pattern_matches(lua.L, name, pattern) == 1
    }

    public var ruleCount: Int { rules.count }

    /// Loads a rules file. On failure every problem found is in the error, and
    /// the runtime must not be used.
    public func load(path: String) throws(RuleLoadError) {
        chunkNames.add(path)
        if let insecure = insecurity(of: path) { throw RuleLoadError(problems: [insecure]) }
        sourceFiles.append(path)
        if let slash = path.lastIndex(of: "/") {
            moduleDirectory = String(path[..<slash])
            if moduleDirectory.isEmpty { moduleDirectory = "/" }
        }
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
        findShadowedRules()
        if !problems.isEmpty { throw RuleLoadError(problems: problems) }
        generation += 1
    }

    /// Lua's syntax errors read "file:line: message near 'x'"; the file part is already there.
    private func loadMessage(_ message: String) -> String {
        message.hasPrefix("cannot open") ? message + "; check the path given to --rules" : message
    }

    /// Running as root, a rules file others could change would run their code as root.
    func insecurity(of path: String) -> String? {
        guard geteuid() == 0, !options.allowInsecureRules else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
        return "\(path): refusing to run rules that group or others can write while running as root; chmod go-w \(path), or pass --allow-insecure-rules"
    }

    // MARK: Handlers

    /// Calls the handler of one delivery (several times for `repeat` steps).
    public func dispatch(_ delivery: Delivery) {
        guard delivery.rule >= 0, delivery.rule < rules.count else { return }
        let index = delivery.rule
        guard rules[index].enabled, !rules[index].removed else { return }
        let event = delivery.event
        advanceClock(to: event.time)
        let calls = admits(index, event)
        for step in calls {
            guard rules[index].enabled, !rules[index].removed else { return }
            call(index, event, step: step)
        }
    }

    private func call(_ index: Int, _ event: GestureEvent, step: Int) {
        let L = lua.L
        let base = lua.top
        gm_getref(L, rules[index].handler)
        if rules[index].handlerIsTable {
            let t = lua.top
            guard lua.rawField(t, event.phase.rawValue) == .function else {
                lua.top = base
                return
            }
            gm_remove(L, t)
        }
        pushGesture(event)
        if step != 0 {
            lua_pushinteger(L, lua_Integer(step))
            lua_setfield(L, -2, "step")
        }
        currentTime = event.time
        currentEvent = event
        currentRule = index
        let status = gm_pcall_limited(L, 1, 0, lua.limits)
        currentEvent = nil
        currentRule = nil
        if status == LUA_OK {
            rules[index].consecutiveFailures = 0
        } else {
            reportFailure(of: index, status: status)
        }
        lua.top = base
    }

    /// Cooldown and `repeat`: the calls this phase of the gesture makes, each
    /// with its step (0 for an ordinary call, ±1 for a `repeat` step).
    private func admits(_ index: Int, _ event: GestureEvent) -> [Int] {
        let first = event.phase == .began || !event.kind.isContinuous || rules[index].core.spec.isDiscrete
        if first {
            if rules[index].cooldown > 0, let last = rules[index].lastFired, event.time - last < rules[index].cooldown {
                rules[index].skippingGesture = event.kind.isContinuous && !rules[index].core.spec.isDiscrete
                return []
            }
            rules[index].skippingGesture = false
            rules[index].lastFired = event.time
            rules[index].repeatAnchor = 0
            return [0]
        }
        if rules[index].skippingGesture {
            if event.phase == .ended || event.phase == .cancelled { rules[index].skippingGesture = false }
            return []
        }
        if rules[index].repeatDistance != nil, !rules[index].handlerIsTable, event.phase != .changed {
            return []
        }
        if let step = rules[index].repeatDistance, event.phase == .changed {
            // Steps along the direction the gesture began in, forward or back:
            // one call per `step` mm, each told which way.
            let along = Self.travel(of: event)
            var steps: [Int] = []
            while along - rules[index].repeatAnchor >= step {
                rules[index].repeatAnchor += step
                steps.append(1)
            }
            while along - rules[index].repeatAnchor <= -step {
                rules[index].repeatAnchor -= step
                steps.append(-1)
            }
            if rules[index].handlerIsTable && steps.isEmpty { return [] }
            return steps
        }
        return [0]
    }

    /// How far a gesture has moved along the direction it began in, mm.
    static func travel(of event: GestureEvent) -> Double {
        guard let angle = event.direction?.screenAngle else { return event.delta.length }
        return event.delta.dot(Vector(cosDegrees(angle), sinDegrees(angle)))
    }

    func reportFailure(of index: Int, status: Int32) {
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
                            lua_pushinteger(lua.L, lua_Integer(e.resting))
                            lua_setfield(lua.L, -2, "resting")
                        }
                    }
                }
            }
        }
    }

    func log(_ message: String) {
        host?.log(message)
    }

    // MARK: Checks after loading

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

    /// Two rules for the same gesture in the same mode and on the same devices:
    /// only the later one ever runs.
    private func findShadowedRules() {
        for (i, earlier) in rules.enumerated() where !earlier.removed {
            for later in rules[(i + 1)...] where !later.removed
                && later.core.spec == earlier.core.spec && later.mode == earlier.mode && later.devicePattern == earlier.devicePattern {
                warnings.append("\(earlier.definedAt): warning: this rule for \"\(earlier.core.spec.phrase)\" never runs: the rule at \(later.definedAt) is for the same gesture\(earlier.mode.map { " in mode \"\($0)\"" } ?? "") and, defined later, wins; remove one or give them different modes")
                break
            }
        }
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
