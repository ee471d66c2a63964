import CLuaShim
import GestureCore

/// A kind the rules define with `recognizer(name, { frame = f, timeout = f, reset = f })`.
struct RecognizerDefinition {
    var name: String
    /// Registry references to its functions.
    var frame: Int32
    var timeout: Int32?
    var reset: Int32?
    /// "rules.lua:3", where `recognizer()` was called.
    var definedAt: String
    /// An error, a stop or running out of memory disabled it until the rules are reloaded.
    var disabled = false
}

/// One recognizer on one device: its object (the `r` its functions get) and
/// the fields its current gesture carries.
struct RecognizerInstance {
    var object: Int32
    var fields: [GestureField]?
}

/// The call into a recognizer's function under way: what it decides, checked
/// step by step against the core's state machine as it calls `r:began()` and the rest.
struct RecognizerCall {
    var definition: Int
    var object: Int32
    var state: RecognizerState
    var time: Double
    var fields: [GestureField]?
    var steps: [ExternalReply.Step] = []
    var deadline = ExternalReply.DeadlineChange.keep
}

/// The script layer's side of user-defined gestures, kept by the runtime.
struct UserGestureState {
    var definitions: [RecognizerDefinition] = []
    var instances: [InstanceKey: RecognizerInstance] = [:]
    var call: RecognizerCall?
    /// The reused frame table's holder, in the registry.
    var frameRef = LUA_NOREF
    /// Reused for every frame's touches.
    var touches: [gm_touch] = []
    var driver: LuaRecognizerDriver?
    /// Shape names rules may bind (the built-in shapes and a shapes file's).
    var shapeNames = BuiltinShapes.names

    struct InstanceKey: Hashable {
        var definition: Int
        var device: Int
    }

    func definition(named name: String) -> Int? {
        definitions.firstIndex { $0.name == name }
    }
}

/// Answers the core's questions by running the rules' recognizer functions.
/// Only the engine's loop thread uses it, between other calls into Lua.
// Invariant: only the engine's loop thread uses it, between other calls into Lua.
final class LuaRecognizerDriver: ExternalRecognizerDriver, @unchecked Sendable {
    weak var runtime: ScriptRuntime?

    init(runtime: ScriptRuntime) {
        self.runtime = runtime
    }

    func recognizer(named name: String) -> Int? {
        runtime?.userGestures.definition(named: name)
    }

    func call(_ request: ExternalRequest, tracker: TouchTracker, into reply: inout ExternalReply) {
        guard let runtime else {
            reply.disabled = true
            return
        }
        runtime.runRecognizer(request, tracker: tracker, into: &reply)
    }
}

extension ScriptRuntime {
    static let recognizerMetatable = "gesturemap.recognizer"
    public static let maxRecognizers = 64
    static let maxRecognizerNameBytes = 64
    static let recognizerKeys = ["frame", "timeout", "reset", "description"]
    /// Fields one gesture may carry, and the longest string among them.
    static let maxFields = 32
    static let maxFieldBytes = 1024
    /// What one recognizer costs the host, charged to the memory limit.
    static let recognizerFootprint = 512

    /// The core's interface to the recognizers these rules define; nil when they define none.
    public var recognizerDriver: (any ExternalRecognizerDriver)? {
        guard !userGestures.definitions.isEmpty else { return nil }
        if let driver = userGestures.driver { return driver }
        let driver = LuaRecognizerDriver(runtime: self)
        userGestures.driver = driver
        return driver
    }

    /// The names of the recognizers these rules define, in order.
    public var recognizerNames: [String] { userGestures.definitions.map(\.name) }

    /// Shape names `on("shape NAME")` may use; set before loading (the built-in shapes by default).
    public var shapeNames: [String] {
        get { userGestures.shapeNames }
        set { userGestures.shapeNames = newValue }
    }

    // MARK: recognizer(name, definition)

    func recognizerFunction(_ stack: LuaView) -> Int32 {
        func refuse(_ message: String) -> Int32 {
            guard load.loading else { return raise(stack, message) }
            problem(stack, message)
            return 0
        }
        guard load.loading else {
            return raise(stack, "recognizer() defines a kind while the rules load, not from a handler or a timer")
        }
        guard let name = stack.string(at: 1, limit: Self.maxRecognizerNameBytes) else {
            return refuse("recognizer() needs a name first, a word such as \"zigzag\" or \"tap-tap-hold\" (at most \(Self.maxRecognizerNameBytes) bytes), not \(stack.type(at: 1) == .string ? "a longer string" : "a \(stack.type(at: 1).name)")")
        }
        do {
            try Self.checkRecognizerName(name)
        } catch {
            return refuse(error.description)
        }
        if let earlier = userGestures.definitions.first(where: { $0.name == name }) {
            return refuse("recognizer \"\(name)\" is already defined at \(earlier.definedAt); give this one another name")
        }
        guard userGestures.definitions.count < Self.maxRecognizers else {
            return refuse("recognizer(): these rules define \(Self.maxRecognizers) recognizers already, the most they may")
        }
        guard stack.type(at: 2) == .table else {
            return refuse("recognizer(\"\(name)\", ...) needs a table of functions, as in { frame = function(r, f) ... end }, not a \(stack.type(at: 2).name)")
        }
        var bad: String?
        stack.forEachPair(2) { k, v in
            guard bad == nil else { return }
            guard let key = stack.string(at: k, limit: 64), Self.recognizerKeys.contains(key) else {
                bad = "unknown key \(stack.shown(at: k)) in recognizer \"\(name)\"; known keys: \(Self.recognizerKeys.joined(separator: ", "))"
                return
            }
            if key == "description" {
                if stack.type(at: v) != .string { bad = "recognizer \"\(name)\": \"description\" must be a string" }
            } else if stack.type(at: v) != .function {
                bad = "recognizer \"\(name)\": \"\(key)\" must be a function, not a \(stack.type(at: v).name)"
            }
        }
        if let bad { return refuse(bad) }
        guard stack.rawField(2, "frame") == .function else {
            stack.pop()
            return refuse("recognizer \"\(name)\" needs a frame function: { frame = function(r, f) ... end }")
        }
        stack.pop()
        let definedAt = position(stack, level: 1)
        let cost = Self.recognizerFootprint + name.utf8.count + definedAt.utf8.count
        guard lua.limits.charge(cost) else {
            return raise(stack, "recognizer(): no Lua memory left for another recognizer (limit \(mebibytes(options.memoryLimit)))")
        }
        load.charged += cost
        func reference(_ key: String) -> Int32? {
            guard stack.rawField(2, key) == .function else {
                stack.pop()
                return nil
            }
            return gm_ref(stack.L)
        }
        guard let frame = reference("frame") else { return 0 }
        userGestures.definitions.append(RecognizerDefinition(
            name: name, frame: frame, timeout: reference("timeout"), reset: reference("reset"), definedAt: definedAt))
        rulesDidChange()
        return 0
    }

    static func checkRecognizerName(_ name: String) throws(RecognizerNameError) {
        let bytes = Array(name.utf8)
        let wordLike = !bytes.isEmpty && bytes[0] >= 0x61 && bytes[0] <= 0x7A
            && bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
        guard wordLike else { throw .notAWord(name) }
        if GestureKind(rawValue: name) != nil || name == "long-press" || name == "edge-swipe" { throw .builtInKind(name) }
        if case .success = PhraseParser.parse(name) { throw .phrase(name) }
    }

    // MARK: The recognizer's methods

    /// `r:began(fields)`, `r:changed(fields)`, `r:ended(fields)`.
    func recognizerStep(_ stack: LuaView, _ step: GesturePhase) -> Int32 {
        guard var call = checkedCall(stack, method: step.rawValue) else { return GM_RAISE }
        let method = step.rawValue + "()"
        switch (step, call.state) {
        case (.began, .possible): call.state = .began
        case (.changed, .began), (.changed, .changed): call.state = .changed
        case (.ended, .possible), (.ended, .began), (.ended, .changed): call.state = .ended
        case (_, .ended), (_, .failed), (_, .cancelled):
            return raise(stack, "\(method): the recognizer has already \(call.state == .ended ? "ended" : "failed"); it is done until its reset, when the touch sequence is over")
        case (.began, _):
            return raise(stack, "began(): the recognizer has already begun; call changed() or ended()")
        default:
            return raise(stack, "changed(): the recognizer has not begun; call began() first, or ended() for a gesture recognized at once")
        }
        if stack.type(at: 2) != .none && stack.type(at: 2) != .nil {
            guard stack.type(at: 2) == .table else {
                return raise(stack, "\(method) takes a table of fields for the handlers' g, such as { count = 3 }, not a \(stack.type(at: 2).name)")
            }
            do {
                try readFields(stack, at: 2, into: &call.fields)
            } catch {
                return raise(stack, "\(method): \(error)")
            }
        }
        switch step {
        case .began: call.steps.append(.began(call.fields))
        case .changed: call.steps.append(.changed(call.fields))
        default: call.steps.append(.ended(call.fields))
        }
        userGestures.call = call
        return 0
    }

    /// `r:fail([reason])`: before it began, it fails; after, it is cancelled.
    func recognizerFail(_ stack: LuaView) -> Int32 {
        guard var call = checkedCall(stack, method: "fail") else { return GM_RAISE }
        guard call.state == .possible || call.state.isRunning else {
            return raise(stack, "fail(): the recognizer has already \(call.state == .ended ? "ended" : "failed"); it is done until its reset, when the touch sequence is over")
        }
        var reason: String?
        switch stack.type(at: 2) {
        case .none, .nil: break
        case .string: reason = stack.string(at: 2, limit: 256) ?? truncated(stack.bytes(at: 2) ?? UnsafeRawBufferPointer(start: nil, count: 0), limit: 256)
        default: return raise(stack, "fail() takes a reason for --trace, a string, or nothing; not a \(stack.type(at: 2).name)")
        }
        call.state = call.state == .possible ? .failed : .cancelled
        call.steps.append(.failed(.failedInLua(reason)))
        userGestures.call = call
        return 0
    }

    /// `r:deadline(t)`: be called back (`timeout`) when the input's clock passes `t`; nil clears it.
    func recognizerDeadline(_ stack: LuaView) -> Int32 {
        guard var call = checkedCall(stack, method: "deadline") else { return GM_RAISE }
        switch stack.type(at: 2) {
        case .nil, .none:
            call.deadline = .clear
        case .number:
            guard let t = stack.number(at: 2), t.isFinite, t > call.time else {
                return raise(stack, "deadline(t) takes an input time later than now (\(number(call.time)) s), such as f.t + 0.3, or nil to clear it")
            }
            call.deadline = .set(t)
        default:
            return raise(stack, "deadline(t) takes an input time in seconds, such as f.t + 0.3, or nil; not a \(stack.type(at: 2).name)")
        }
        userGestures.call = call
        return 0
    }

    /// The call under way, when `r` (argument 1) is its recognizer's object.
    private func checkedCall(_ stack: LuaView, method: String) -> RecognizerCall? {
        guard let call = userGestures.call, stack.reserve(2) else {
            _ = raise(stack, "\(method)() belongs to a recognizer, called from its frame or timeout function, as in r:\(method)()")
            return nil
        }
        lua_rawgeti(stack.L, gm_registryindex(), lua_Integer(call.object))
        let same = lua_rawequal(stack.L, 1, -1) != 0
        stack.pop()
        guard same else {
            _ = raise(stack, "\(method)() belongs to the recognizer being run, called on its own object, as in r:\(method)()")
            return nil
        }
        return call
    }

    /// Reads `{ name = value, ... }` into `fields`, merged with earlier ones.
    private func readFields(_ stack: LuaView, at index: Int32, into fields: inout [GestureField]?) throws(GestureFieldError) {
        var merged = fields ?? []
        var problem: GestureFieldError?
        stack.forEachPair(index) { k, v in
            guard problem == nil else { return }
            guard let key = stack.string(at: k, limit: 64), Self.isIdentifier(key) else {
                problem = .badName(shown: stack.shown(at: k))
                return
            }
            if GestureField.reserved.contains(key) {
                problem = .reserved(key)
                return
            }
            let value: GestureField.Value
            switch stack.type(at: v) {
            case .number:
                if let i = stack.integer(at: v) { value = .integer(i) } else { value = .number(stack.number(at: v) ?? 0) }
            case .boolean:
                value = .boolean(stack.boolean(at: v) ?? false)
            case .string:
                guard let s = stack.string(at: v, limit: Self.maxFieldBytes) else {
                    problem = .tooLong(key)
                    return
                }
                value = .string(s)
            default:
                problem = .badType(key, stack.type(at: v))
                return
            }
            merged.set(GestureField(name: key, value: value))
            if merged.count > Self.maxFields { problem = .tooMany }
        }
        if let problem { throw problem }
        fields = merged
    }

    static func isIdentifier(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard let first = bytes.first, first == 0x5F || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else { return false }
        return bytes.allSatisfy { $0 == 0x5F || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    // MARK: Running a recognizer

    /// One question from the core: run the recognizer's function through the
    /// door and hand back what it decided.
    func runRecognizer(_ request: ExternalRequest, tracker: TouchTracker, into reply: inout ExternalReply) {
        let index = request.recognizer
        guard index >= 0, index < userGestures.definitions.count, !userGestures.definitions[index].disabled else {
            reply.disabled = true
            return
        }
        let definition = userGestures.definitions[index]
        let key = UserGestureState.InstanceKey(definition: index, device: request.device)
        let function: Int32
        var time = 0.0
        switch request.event {
        case .frame(let frame):
            function = definition.frame
            time = frame.time
        case .timeout(let t):
            guard let timeout = definition.timeout else {
                reply.steps.append(.failed(.deadlineInLua))
                return
            }
            function = timeout
            time = t
        case .reset:
            userGestures.instances[key]?.fields = nil
            guard let reset = definition.reset, userGestures.instances[key] != nil else { return }
            function = reset
        }
        guard let object = object(for: key, name: definition.name) else {
            disable(index, because: CallFailure(kind: .memory, message: ""))
            reply.disabled = true
            return
        }
        let fields = request.state == .possible ? nil : userGestures.instances[key]?.fields
        userGestures.call = RecognizerCall(definition: index, object: object, state: request.state, time: time, fields: fields)
        now.origin = definition.definedAt
        let stateName = Self.stateNames[request.state] ?? "possible"
        let outcome = stateName.withCString { state in
            callRecognizer(function, object: object, state: state, event: request.event, tracker: tracker)
        }
        now.origin = nil
        let call = userGestures.call
        userGestures.call = nil
        if case .failure(let failure) = outcome {
            disable(index, because: failure)
            reply.disabled = true
            return
        }
        guard let call else { return }
        userGestures.instances[key]?.fields = call.fields
        reply.steps.append(contentsOf: call.steps)
        reply.deadline = call.deadline
    }

    /// The recognizer's object on one device, made the first time it is needed.
    private func object(for key: UserGestureState.InstanceKey, name: String) -> Int32? {
        if let existing = userGestures.instances[key] { return existing.object }
        let outcome = Self.recognizerMetatable.withCString { metatable in
            name.withCString { name in
                var request = gm_request()
                request.kind = GM_NEW_OBJECT
                request.metatable = metatable
                request.name = name
                request.ref = LUA_NOREF
                let outcome = enter(&request)
                if case .success = outcome { userGestures.instances[key] = RecognizerInstance(object: request.ref) }
                return outcome
            }
        }
        guard case .success = outcome else { return nil }
        return userGestures.instances[key]?.object
    }

    /// `r.state` as the recognizer's function sees it: where the gesture stands.
    static let stateNames: [RecognizerState: String] = [.possible: "possible", .began: "began", .changed: "changed"]

    private func callRecognizer(_ function: Int32, object: Int32, state: UnsafePointer<CChar>?, event: ExternalRequest.Event,
                                tracker: TouchTracker) -> Result<Void, CallFailure> {
        var request = gm_request()
        request.kind = GM_CALL_RECOGNIZER
        request.state = state
        request.ref = function
        request.self_ref = object
        request.frame_ref = userGestures.frameRef
        defer { userGestures.frameRef = request.frame_ref }
        switch event {
        case .frame(let frame):
            let fingers = fillTouches(frame, tracker: tracker)
            var f = gm_frame()
            f.t = frame.time
            f.fingers = lua_Integer(fingers)
            if let surface = frame.surface ?? tracker.surface {
                f.has_size = 1
                f.width = surface.width
                f.height = surface.height
            }
            // A copy of the buffer's reference: the rules' calls to r:began() and
            // the rest change `userGestures` while Lua reads the touches.
            let buffer = userGestures.touches
            return buffer.withUnsafeBufferPointer { touches in
                f.touches = touches.baseAddress
                f.touch_count = Int32(touches.count)
                return withUnsafePointer(to: &f) { pointer in
                    request.frame = pointer
                    return enter(&request)
                }
            }
        case .timeout(let t):
            request.time = t
            request.has_time = 1
            return enter(&request)
        case .reset:
            return enter(&request)
        }
    }

    /// The frame's touches (every contact down and those lifting, as the core
    /// composed them), into the reused buffer; the count of those not resting,
    /// which is `f.fingers`.
    private func fillTouches(_ frame: TouchFrame, tracker: TouchTracker) -> Int {
        var fingers = 0
        userGestures.touches.removeAll(keepingCapacity: true)
        for touch in frame.touches {
            var t = gm_touch()
            t.id = lua_Integer(touch.id)
            t.x = touch.position.x
            t.y = touch.position.y
            t.phase = Int32(touch.phase.rawValue)
            for i in tracker.touches.indices where tracker.touches[i].id == touch.id {
                let v = tracker.touches[i].velocity
                t.vx = v.x
                t.vy = v.y
            }
            for r in tracker.restingTouches where r.id == touch.id {
                t.resting = 1
                let v = r.velocity
                t.vx = v.x
                t.vy = v.y
            }
            if t.resting == 0 { fingers += 1 }
            userGestures.touches.append(t)
        }
        return fingers
    }

    /// An error, a stop or running out of memory: the recognizer decides nothing
    /// more until the rules are loaded again.
    private func disable(_ index: Int, because failure: CallFailure) {
        let definition = userGestures.definitions[index]
        userGestures.definitions[index].disabled = true
        switch failure.kind {
        case .memory:
            log("\(definition.definedAt): the recognizer \"\(definition.name)\" ran out of Lua memory (limit \(mebibytes(options.memoryLimit))); raise the limit with --lua-memory MiB")
        case .stopped, .error, .load:
            log(failure.message)
        }
        log("\(definition.definedAt): warning: the recognizer \"\(definition.name)\" is disabled after that error; the rest of the rules go on; fix it and reload")
    }
}

extension ScriptRuntime {
    /// What `on()` may name besides the built-in kinds.
    var userKinds: SpecReader.UserKinds {
        SpecReader.UserKinds(recognizers: recognizerNames, shapes: shapeNames)
    }
}

extension ScriptRuntime {
    /// A shape rule without `min_score` takes `shape_min_score` as it is now.
    func settleUserGesture(_ spec: inout GestureSpec) {
        if spec.kind == .shape && spec.minScore == nil { spec.minScore = thresholds[.shapeMinScore] }
    }

    /// Adds `g.shape`, `g.score` and a Lua recognizer's fields to `g`, valid inside `body`.
    func withUserGestureFields<R>(_ e: GestureEvent, _ g: inout gm_gesture, _ body: (UnsafePointer<gm_gesture>) -> R) -> R {
        guard e.kind == .shape || e.fields != nil else { return withUnsafePointer(to: &g) { body($0) } }
        var gesture = g
        if e.kind == .shape {
            gesture.has_score = 1
            gesture.score = e.score
        }
        // Every name and string, NUL-terminated, in one buffer the fields point into.
        let fields = e.fields ?? []
        var text: [CChar] = []
        var offsets: [(name: Int, string: Int, length: Int)] = []
        func append(_ s: String) -> Int {
            let start = text.count
            text.append(contentsOf: s.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
            return start
        }
        for field in fields {
            let name = append(field.name)
            if case .string(let s) = field.value {
                offsets.append((name, append(s), s.utf8.count))
            } else {
                offsets.append((name, -1, 0))
            }
        }
        let shapeOffset = e.kind == .shape ? append(e.name ?? "") : -1
        return text.withUnsafeBufferPointer { chars in
            guard let base = chars.baseAddress else { return withUnsafePointer(to: &gesture) { body($0) } }
            var entries: [gm_field] = []
            for (field, offset) in zip(fields, offsets) {
                var f = gm_field()
                f.name = base + offset.name
                switch field.value {
                case .integer(let i): f.type = LUA_TNUMBER; f.is_integer = 1; f.integer = lua_Integer(i)
                case .number(let n): f.type = LUA_TNUMBER; f.number = n
                case .boolean(let b): f.type = LUA_TBOOLEAN; f.boolean = b ? 1 : 0
                case .string: f.type = LUA_TSTRING; f.string = base + offset.string; f.length = offset.length
                }
                entries.append(f)
            }
            if shapeOffset >= 0 { gesture.shape = base + shapeOffset }
            return entries.withUnsafeBufferPointer { list in
                gesture.fields = list.baseAddress
                gesture.field_count = Int32(list.count)
                return withUnsafePointer(to: &gesture) { body($0) }
            }
        }
    }
}

extension GestureEvent {
    /// `g.kind`: a Lua recognizer's gestures go by its name.
    var kindName: String { kind == .custom ? (name ?? "custom") : kind.rawValue }
}
