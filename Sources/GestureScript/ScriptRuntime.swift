import Glibc
import CLuaShim
import GestureCore

/// The rules: one Lua state, the API it offers, and the handlers it calls.
///
/// Everything here runs on the engine's loop thread. The host enters Lua only
/// through `gm_door` (see `enter`); Lua errors never unwind through Swift:
/// host functions report them to a C trampoline that raises them.
public final class ScriptRuntime {
    public static let maxConsecutiveFailures = 10
    public static let defaultMode = "default"
    /// Rules one file may define (removed ones count): each is a recognizer on every frame.
    public static let maxRules = 1000
    /// Load problems listed before the rest are only counted.
    static let maxProblems = 100
    /// Log lines and error messages longer than this are cut.
    static let maxMessageBytes = 8192
    /// Steps a `device` pattern may take to match a device's name.
    static let maxDeviceMatchSteps = 100_000

    let lua: LuaState
    var options: ScriptOptions
    /// Weak: the host owns the runtime. Set after creation by a host that
    /// builds its runtime in its own initializer.
    public weak var host: ScriptHost?
    var rules: [ScriptRule] = []
    public internal(set) var thresholds = Thresholds()
    public internal(set) var mode = ScriptRuntime.defaultMode
    /// The focused application and the keys held (ContextRules.swift).
    public internal(set) var context = RuleContext()
    /// The `app` options' answers for the focused application (AppMatching.swift).
    var appState = AppMatchState()
    /// Recognizers the rules define, and the shapes they may bind (RecognizerAPI.swift).
    var userGestures = UserGestureState()
    /// What the handler or timer running now is for.
    var now = CurrentCall()
    /// `after` and `every` (ScriptTimers.swift).
    var timers = TimerState()
    /// What loading the rules files found and made.
    var load = LoadRecord()

    /// Doubtful but legal things (a rule shadowed by another): `check` fails on them, `run` only says them.
    public var warnings: [String] { load.warnings }
    /// Every file the rules came from (the rules file and required modules), for reload.
    public var sourceFiles: [String] { load.sourceFiles }
    /// Whether any timer waits: read by the engine every frame, before it asks
    /// for the earliest (a call), which without timers has nothing to say.
    public var timersPending: Bool { timers.pending }
    /// Device names for hosts that do not name devices themselves (tests).
    public var deviceNames: [String] {
        get { options.deviceNames }
        set { options.deviceNames = newValue }
    }

    /// A state with the rule API. With `sharingLimitsOf`, the new state counts
    /// against the same memory limit as that one (a reload's new rules and the
    /// old ones). Nil when even the API does not fit in the memory limit.
    public init?(host: ScriptHost?, options: ScriptOptions = ScriptOptions(), sharingLimitsOf other: ScriptRuntime? = nil) {
        let limits = other?.lua.limits
            ?? LuaLimits(memoryLimit: options.memoryLimit, instructionBudget: options.instructionBudget, timeLimit: options.timeLimit)
        guard let lua = LuaState(limits: limits) else { return nil }
        self.lua = lua
        self.options = options
        self.host = host
        guard installAPI() else { return nil }
    }

    deinit {
        cancelTimers()
        lua.limits.release(load.charged)
    }

    /// Lua memory in use by every state sharing this one's limit, in bytes.
    public var memoryUsed: Int { lua.limits.memoryUsed }
    public var memoryPeak: Int { lua.limits.memoryPeak }

    // MARK: The door

    /// Runs one request through the door; a failure's message is popped from the stack.
    func enter(_ request: inout gm_request) -> Result<Void, CallFailure> {
        let L = lua.L
        let top = lua_gettop(L)
        let status = gm_door(L, lua.limits.pointer, &request)
        if status == LUA_OK { return .success(()) }
        let message = status == GM_DOOR_REFUSED || lua_gettop(L) <= top ? "(no message)" : lua.main.errorMessage()
        lua_settop(L, top)
        if let stop = lua.limits.stop(origin: now.origin) {
            return .failure(CallFailure(kind: .stopped, message: load.chunkNames.restore(Self.withTraceback(stop.description, from: message))))
        }
        if status == LUA_ERRMEM {
            gm_collect(L)
            return .failure(CallFailure(kind: .memory, message: message))
        }
        return .failure(CallFailure(kind: status == LUA_ERRSYNTAX || status == LUA_ERRFILE ? .load : .error, message: load.chunkNames.restore(message)))
    }

    /// A stop's own words, then the traceback of whatever error ended the call.
    private static func withTraceback(_ stop: String, from message: String) -> String {
        guard let range = message.utf8.firstRange(of: "\nstack traceback:".utf8) else { return stop }
        return stop + String(message[range.lowerBound...])
    }

    // MARK: Rules

    /// The core's view of the rules, index for index, for one device: a rule is
    /// active when enabled, in the current mode, and matching the device's name.
    public func coreRules(forDevice name: String? = nil) -> [GestureRule] {
        rules.indices.map { i in
            var core = rules[i].core
            settleUserGesture(&core.spec)
            core.isActive = rules[i].enabled && !rules[i].removed && (rules[i].mode == nil || rules[i].mode == mode) && deviceMatches(i, name)
                && contextHolds(i)
            return core
        }
    }

    public var coreRules: [GestureRule] { coreRules(forDevice: nil) }

    /// Device patterns are matched without entering Lua, within a number of steps.
    func deviceMatches(_ index: Int, _ name: String?) -> Bool {
        guard let pattern = rules[index].devicePattern else { return true }
        guard let name else { return false }
        if let known = rules[index].deviceMatches[name] { return known }
        let result = boundedFind(pattern, in: name, rule: index, of: .device)
        if rules[index].deviceMatches.count < 64 { rules[index].deviceMatches[name] = result == .found }
        return result == .found
    }

    public var ruleCount: Int { rules.count }

    /// Loads a rules file. On failure every problem found is in the error, and
    /// the runtime must not be used.
    public func load(path: String) throws(RuleLoadError) {
        try prepareToLoad(path)
        let outcome = path.withCString { p in
            var request = gm_request()
            request.kind = GM_LOAD_FILE
            request.path = p
            request.name = p
            return run(loading: &request)
        }
        try finishLoading(outcome, name: path)
    }

    /// Loads a rules file from its bytes, read by the caller once (a reload
    /// judges what it read before a Lua state parses it: a file being
    /// rewritten may be empty at that moment), named as the file in messages.
    public func load(path: String, contents: [UInt8]) throws(RuleLoadError) {
        try prepareToLoad(path)
        let chunkName = "@" + path
        let outcome = contents.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { bytes in
                chunkName.withCString { name in
                    var request = gm_request()
                    request.kind = GM_LOAD_TEXT
                    request.text = bytes.baseAddress
                    request.length = bytes.count
                    request.name = name
                    return run(loading: &request)
                }
            }
        }
        try finishLoading(outcome, name: path)
    }

    /// The file's name for messages, its security, and where its modules are.
    private func prepareToLoad(_ path: String) throws(RuleLoadError) {
        load.chunkNames.add(path)
        do {
            try checkSecurity(of: path)
        } catch {
            throw RuleLoadError(problems: [error.description])
        }
        load.sourceFiles.append(path)
        if let slash = path.lastIndex(of: "/") {
            load.moduleDirectory = String(path[..<slash])
            if load.moduleDirectory.isEmpty { load.moduleDirectory = "/" }
        }
    }

    /// Loads rules from text, under `chunkName` in messages (Lua's "=name" or "@file").
    public func load(source: String, chunkName: String) throws(RuleLoadError) {
        var text = source
        let outcome = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { bytes in
                chunkName.withCString { name in
                    var request = gm_request()
                    request.kind = GM_LOAD_TEXT
                    request.text = bytes.baseAddress
                    request.length = bytes.count
                    request.name = name
                    return run(loading: &request)
                }
            }
        }
        try finishLoading(outcome, name: String(chunkName.dropFirst()))
    }

    public func loadDefaultRules() throws(RuleLoadError) {
        try load(source: Prelude.defaultRules, chunkName: "=" + Prelude.defaultRulesName)
    }

    private func run(loading request: inout gm_request) -> Result<Void, CallFailure> {
        load.loading = true
        defer { load.loading = false }
        return enter(&request)
    }

    /// `name`: the file, for messages with no line of their own.
    private func finishLoading(_ outcome: Result<Void, CallFailure>, name: String) throws(RuleLoadError) {
        if case .failure(let failure) = outcome {
            let message: String
            switch failure.kind {
            case .load: message = loadMessage(failure.message)
            case .memory: message = "\(name): the rules ran out of Lua memory while loading (limit \(mebibytes(options.memoryLimit))); raise it with --lua-memory MiB"
            case .stopped, .error: message = firstLine(failure.message)
            }
            throw RuleLoadError(problems: problemList + [message])
        }
        checkRuleReferences()
        findShadowedRules()
        if !load.problems.isEmpty { throw RuleLoadError(problems: problemList) }
        measureAppPatterns()
        rulesDidChange()
    }

    var problemList: [String] {
        load.problemsLeftOut == 0 ? load.problems : load.problems + ["... and \(load.problemsLeftOut) more problems"]
    }

    /// Lua's syntax errors read "file:line: message near 'x'"; the file part is already there.
    private func loadMessage(_ message: String) -> String {
        message.hasPrefix("cannot open") ? message + "; check the path given to --rules" : message
    }

    /// Rules, their activity, the mode or the thresholds changed: the host is
    /// told at once, and hands the cores the rules as they are now.
    func rulesDidChange() {
        // While loading, the rules are not whole yet: the end of the load tells.
        guard !load.loading else { return }
        host?.rulesChanged()
    }

    // MARK: Handlers

    /// Calls the handler of one delivery (several times for `repeat` steps).
    public func dispatch(_ delivery: Delivery) {
        guard rules.indices.contains(delivery.rule.index) else { return }
        let index = delivery.rule.index
        guard rules[index].enabled, !rules[index].removed else { return }
        let event = delivery.event
        advanceClock(to: event.time)
        let calls = admits(index, event)
        for step in calls {
            guard rules[index].enabled, !rules[index].removed else { return }
            // A failed `repeat` step ends the event's steps: each would cost a whole budget.
            guard call(index, event, step: step) else { return }
        }
    }

    /// Whether the handler ran without failing.
    @discardableResult
    private func call(_ index: Int, _ event: GestureEvent, step: Int) -> Bool {
        now.time = event.time
        now.origin = rules[index].definedAt
        let phase: String? = rules[index].handlerIsTable ? event.phase.rawValue : nil
        let outcome = withUnsafePointer(to: event) { event in
            now.event = event
            defer { now.event = nil }
            return withOptionalCString(phase) { phase in
                withGesture(event.pointee) { gesture in
                    var request = gm_request()
                    request.kind = GM_CALL_HANDLER
                    request.ref = rules[index].handler
                    request.phase = phase
                    request.gesture = gesture
                    request.step = lua_Integer(step)
                    return enter(&request)
                }
            }
        }
        now.origin = nil
        if case .failure(let failure) = outcome {
            reportFailure(of: index, failure)
            return false
        }
        rules[index].consecutiveFailures = 0
        return true
    }

    /// Cooldown and `repeat`: the calls this phase of the gesture makes, each
    /// with its step (0 for an ordinary call, ±1 for a `repeat` step).
    private func admits(_ index: Int, _ event: GestureEvent) -> [Int] {
        // The arena holds a rule in its cooldown back from a gesture; the same
        // test here keeps a direct dispatch (and another device's arena that
        // had not heard yet) to it.
        if event.isFirstOfGesture {
            if rules[index].core.cooldownLeft(at: event.time) != nil {
                rules[index].skippingGesture = !event.endsGesture
                return []
            }
            rules[index].skippingGesture = false
            rules[index].core.lastFired = event.time
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
            // one call per `step` mm, each told which way; a jump of more than
            // `maxRepeatSteps` steps in one event runs that many and moves on.
            let along = Self.travel(of: event)
            let moved = ((along - rules[index].repeatAnchor) / step).rounded(.towardZero)
            guard moved.isFinite else { return [] }
            let count = Int(min(abs(moved), Double(Self.maxRepeatSteps)))
            rules[index].repeatAnchor += moved * step
            if rules[index].handlerIsTable && count == 0 { return [] }
            return Array(repeating: moved < 0 ? -1 : 1, count: count)
        }
        return [0]
    }

    /// `repeat` steps one event may make; a jump further than this skips the rest.
    static let maxRepeatSteps = 100

    /// How far a gesture has moved along the direction it began in, mm.
    static func travel(of event: GestureEvent) -> Double {
        guard let angle = event.direction?.screenAngle else { return event.delta.length }
        return event.delta.dot(Vector(cosDegrees(angle), sinDegrees(angle)))
    }

    func reportFailure(of index: Int, _ failure: CallFailure) {
        let rule = rules[index]
        switch failure.kind {
        case .memory:
            log("\(rule.definedAt): the handler for \"\(rule.label)\" ran out of Lua memory (limit \(mebibytes(options.memoryLimit))) and was stopped; raise the limit with --lua-memory MiB")
        case .stopped, .error, .load:
            log(failure.message)
        }
        rules[index].consecutiveFailures += 1
        if rules[index].consecutiveFailures >= ScriptRuntime.maxConsecutiveFailures {
            rules[index].enabled = false
            rulesDidChange()
            log("\(rule.definedAt): warning: the rule \"\(rule.label)\" failed \(ScriptRuntime.maxConsecutiveFailures) times in a row and is now disabled; fix it and reload")
        }
    }

    /// The gesture as the C side pushes it, valid inside `body`.
    private func withGesture<R>(_ e: GestureEvent, _ body: (UnsafePointer<gm_gesture>) -> R) -> R {
        let deviceName: String? = host?.deviceName(e.device)
            ?? (e.device >= 0 && e.device < deviceNames.count ? deviceNames[e.device] : nil)
        return withOptionalCString(e.direction?.rawValue) { direction in
            withOptionalCString(e.edge?.rawValue) { edge in
                withOptionalCString(deviceName) { device in
                    e.kindName.withCString { kind in
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
                            g.resting = lua_Integer(e.resting)
                            return withUserGestureFields(e, &g) { filled in
                                var gesture = filled.pointee
                                return withContext(&gesture, body)
                            }
                        }
                    }
                }
            }
        }
    }

    func log(_ message: String) {
        host?.log(truncated(message, limit: Self.maxMessageBytes))
    }

    // MARK: Checks after loading

    /// `simultaneous_with` and `requires_failure_of` name rules that must exist.
    private func checkRuleReferences() {
        let names = Set(rules.compactMap(\.core.name))
        for rule in rules {
            for (option, refs) in [("simultaneous_with", rule.core.simultaneousWith), ("requires_failure_of", rule.core.requiresFailureOf)] {
                for name in refs where !names.contains(name) {
                    let known = names.isEmpty ? "no rule has a name; give one with { name = \"...\" }" : "named rules: \(names.sorted().joined(separator: ", "))"
                    addProblem("\(rule.definedAt): \(option) names \"\(name)\", but no rule has that name; \(known)")
                }
            }
        }
    }

    /// Two rules for the same gesture in the same mode and on the same devices:
    /// only the later one ever runs.
    private func findShadowedRules() {
        for (i, earlier) in rules.enumerated() where !earlier.removed {
            for later in rules[(i + 1)...] where !later.removed
                && later.core.spec == earlier.core.spec && later.mode == earlier.mode && later.devicePattern == earlier.devicePattern
                && later.app == earlier.app && later.modifiers == earlier.modifiers {
                load.warnings.append("\(earlier.definedAt): warning: this rule for \"\(earlier.core.spec.phrase)\" never runs: the rule at \(later.definedAt) is for the same gesture\(earlier.mode.map { " in mode \"\($0)\"" } ?? "") and, defined later, wins; remove one or give them different modes")
                break
            }
        }
    }

    func addProblem(_ message: String) {
        if load.problems.count < Self.maxProblems { load.problems.append(truncated(message, limit: Self.maxMessageBytes)) } else { load.problemsLeftOut += 1 }
    }
}

/// Why a call into Lua failed.
struct CallFailure: Error {
    enum Kind {
        /// The chunk did not load (syntax, unreadable file).
        case load
        /// `error()` or a runtime error.
        case error
        /// Out of Lua memory.
        case memory
        /// The instruction budget or the clock stopped it.
        case stopped
    }

    var kind: Kind
    var message: String
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
