import CLuaShim
import GestureCore

/// `emit`, `exec`, `shell`, `key`, `mode`, `config` and logging.
extension ScriptRuntime {
    /// Everything one exec() hands to the program (arguments, environment,
    /// directory): up to 64 queued programs wait with theirs.
    public static let maxExecBytes = 64 * 1024
    /// A mode's name.
    static let maxModeBytes = 1024
    /// Programs one input instant may ask for: the launcher queues 64 and
    /// starts more as fast as they exit, which a loop would turn into
    /// hundreds of processes per gesture.
    public static let maxExecsPerInstant = 64

    // MARK: emit(name [, fields])

    func emit(_ stack: LuaView) -> Int32 {
        guard let name = stack.bytes(at: 1) else {
            return raise(stack, "emit() needs an action name first, such as emit(\"next_page\", { page = 2 }), not a \(stack.type(at: 1).name)")
        }
        // Made only for a message: every emit of every handler passes here.
        var shownName: String { truncated(name, limit: 64) }
        guard name.count <= LuaJSON.maxLineBytes else {
            return raise(stack, "emit(\"\(shownName)\", ...): the name is longer than \(LuaJSON.maxLineBytes >> 20) MiB")
        }
        // The runtime's writer, swapped out and back: no allocation a line.
        var json = JSONWriter(capacity: 0)
        swap(&json, &now.emitWriter)
        defer {
            json.reset()
            swap(&json, &now.emitWriter)
        }
        json.raw("{\"action\":")
        json.string(utf8: name.bindMemory(to: UInt8.self))
        json.raw(",\"t\":")
        json.time(now.time)
        switch stack.type(at: 2) {
        case .nil, .none:
            break
        case .table:
            do {
                try LuaJSON.writeFields(stack, 2, into: &json, reserved: ["action", "t"])
            } catch {
                return raise(stack, "emit(\"\(shownName)\", ...): \(error.text(root: error.path.isEmpty ? "the fields table" : "field"))")
            }
        default:
            return raise(stack, "emit(\"\(shownName)\", ...): fields must be a table such as { page = 2 }, not a \(stack.type(at: 2).name)")
        }
        json.byte(0x7D)
        if let host { json.bytes.withUnsafeBufferPointer { host.emit(utf8: $0) } }
        return 0
    }

    // MARK: config{ ... }

    func config(_ stack: LuaView) -> Int32 {
        guard stack.type(at: 1) == .table else {
            return raise(stack, "config needs a table of thresholds, such as config{ swipe_min_distance = 12 }")
        }
        var messages: [String] = []
        var changes: [(String, Double)] = []
        var choices: [(String, String)] = []
        stack.forEachPair(1) { k, v in
            guard messages.count < 10 else { return }
            guard let key = stack.string(at: k, limit: 64) else {
                messages.append(stack.type(at: k) == .string ? "unknown threshold \(stack.shown(at: k))" : "config keys must be threshold names")
                return
            }
            if stack.type(at: v) == .boolean, let on = stack.boolean(at: v), Threshold(rawValue: key)?.isSwitch == true {
                changes.append((key, on ? 1 : 0))
                return
            }
            if stack.type(at: v) == .string, Threshold(rawValue: key)?.choices != nil {
                choices.append((key, stack.string(at: v, limit: 256) ?? ""))
                return
            }
            guard let value = stack.number(at: v) else {
                if let named = Threshold(rawValue: key), let choices = named.choices {
                    messages.append(ConfigKeyError.notAChoice(named, choices).description)
                } else {
                    messages.append("config key \"\(key)\" must be a number")
                }
                return
            }
            changes.append((key, value))
        }
        for (key, value) in changes.sorted(by: { $0.0 < $1.0 }) where messages.count < 10 {
            do {
                try thresholds.set(name: key, value: value)
            } catch {
                messages.append(error.description)
            }
        }
        for (key, choice) in choices.sorted(by: { $0.0 < $1.0 }) where messages.count < 10 {
            do {
                try thresholds.set(name: key, choice: choice)
            } catch {
                messages.append(error.description)
            }
        }
        if !messages.isEmpty {
            if load.loading {
                for m in messages { problem(stack, m) }
                return 0
            }
            return raise(stack, messages.joined(separator: "; "))
        }
        rulesDidChange()
        return 0
    }

    // MARK: log

    func hostLog(_ stack: LuaView) -> Int32 {
        let level = stack.string(at: 1) ?? "info"
        let text = stack.bytes(at: 2).map { truncated($0, limit: Self.maxMessageBytes) } ?? ""
        let at = position(stack, level: 2)
        let prefix = at.isEmpty ? "" : at + ": "
        // Cut already: the position in front is not cut.
        host?.log(level == "info" ? prefix + text : prefix + level + ": " + text)
        return 0
    }

    // MARK: mode([name])

    func modeFunction(_ stack: LuaView) -> Int32 {
        switch stack.type(at: 1) {
        case .nil, .none:
            break
        case .string:
            guard let name = stack.string(at: 1, limit: Self.maxModeBytes) else {
                return raise(stack, "mode(): a mode's name is at most \(Self.maxModeBytes) bytes, not \(stack.bytes(at: 1)?.count ?? 0)")
            }
            if name != mode {
                mode = name
                rulesDidChange()
            }
        default:
            return raise(stack, "mode() takes a mode's name, such as mode(\"admin\"), or nothing to read the current one")
        }
        stack.push(mode)
        return 1
    }

    // MARK: exec(argv [, options]) and shell(cmdline)

    /// Text for a program, exactly as the rule wrote it: a NUL byte would cut
    /// it short, and invalid UTF-8 could not be passed on unchanged, so both
    /// are errors rather than silently different arguments.
    private func programText(_ stack: LuaView, at index: Int32, _ what: ExecText) -> Result<String, ExecTextError> {
        if let bytes = stack.bytes(at: index) {
            if bytes.count > Self.maxExecBytes { return .failure(.tooLong(what, bytes: bytes.count)) }
            if bytes.contains(0) { return .failure(.nul(what)) }
            guard let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) else {
                return .failure(.notUTF8(what))
            }
            return .success(text)
        }
        if let n = stack.integer(at: index) { return .success(String(n)) }
        if let n = stack.number(at: index) { return .success(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)) }
        return .failure(.notText(what, stack.type(at: index)))
    }

    func execFunction(_ stack: LuaView, shell: Bool) -> Int32 {
        let name = shell ? "shell()" : "exec()"
        var argv: [String] = []
        var size = 0
        func add(_ text: String) -> Bool {
            size += text.utf8.count + 1
            return size <= Self.maxExecBytes
        }
        if shell {
            guard stack.type(at: 1) == .string else {
                return raise(stack, "shell() takes a command line, as in shell(\"notify-send page\")")
            }
            switch programText(stack, at: 1, .commandLine) {
            case .success(let line): argv = ["/bin/sh", "-c", line]
            case .failure(let problem): return raise(stack, "shell(): \(problem)")
            }
        } else {
            guard stack.type(at: 1) == .table else {
                let hint = stack.type(at: 1) == .string ? "; exec never uses a shell: give exec{\"program\", \"arg\"} or use shell(\"...\")" : ""
                return raise(stack, "exec() takes a list of program and arguments, as in exec{\"xdotool\", \"key\", \"Next\"}\(hint)")
            }
            let count = Int(lua_rawlen(stack.L, 1))
            guard count <= Self.maxExecBytes / 2 else {
                return raise(stack, "exec(): \(count) arguments is more than a program can be given here")
            }
            for i in 0..<count {
                lua_rawgeti(stack.L, 1, lua_Integer(i + 1))
                let text = programText(stack, at: -1, .argument(i + 1))
                stack.pop()
                switch text {
                case .success(let arg): argv.append(arg)
                case .failure(let problem): return raise(stack, "exec(): \(problem)")
                }
            }
            guard !argv.isEmpty else { return raise(stack, "exec() needs at least the program to run") }
        }
        for arg in argv where !add(arg) {
            return raise(stack, "\(name): the program's arguments come to more than \(Self.maxExecBytes) bytes, the most one exec may pass")
        }
        let origin = position(stack, level: 1)
        timers.instant.execs += 1
        if timers.instant.execs > Self.maxExecsPerInstant {
            let problem = "\(name): \(Self.maxExecsPerInstant) programs were asked for at this input instant already, the most there may be; \"\(truncated(argv[shell ? 2 : 0], limit: 64))\" is dropped"
            if timers.instant.execs == Self.maxExecsPerInstant + 1 { log("\(origin): \(problem)") }
            lua_pushboolean(stack.L, 0)
            stack.push(problem)
            return 2
        }
        var request = ExecRequest(argv: argv, gesture: now.event?.pointee, origin: origin)
        if let e = now.event?.pointee { request.deviceName = host?.deviceName(e.device) }
        if stack.type(at: 2) == .table {
            do {
                try readExecOptions(stack, at: 2, into: &request, add: add)
            } catch {
                return raise(stack, error.description)
            }
        }
        do throws(HostActionError) {
            guard let host else { throw .unavailable(.exec) }
            try host.exec(request)
        } catch {
            // Not raised: a program that cannot run is the rule's to handle, as io.open's nil, message is.
            let problem = error.description
            log("\(origin): \(problem)")
            lua_pushboolean(stack.L, 0)
            stack.push(problem)
            return 2
        }
        lua_pushboolean(stack.L, 1)
        return 1
    }

    private func readExecOptions(_ stack: LuaView, at index: Int32, into request: inout ExecRequest, add: (String) -> Bool) throws(ExecOptionError) {
        if stack.rawField(index, "timeout") != .nil {
            guard let t = stack.number(at: -1), t.isFinite, t > 0 else { stack.pop(); throw .timeout }
            request.timeout = t
        }
        stack.pop()
        if stack.rawField(index, "cwd") != .nil {
            guard stack.type(at: -1) == .string else { stack.pop(); throw .directoryNotPath }
            switch programText(stack, at: -1, .directory) {
            case .success(let d): request.directory = d
            case .failure(let problem): stack.pop(); throw .directory(problem)
            }
        }
        stack.pop()
        var bad: ExecOptionError?
        if stack.rawField(index, "env") == .table {
            stack.forEachPair(-1) { k, v in
                guard bad == nil else { return }
                guard stack.type(at: k) == .string, stack.type(at: v) == .string || stack.type(at: v) == .number else {
                    bad = .environmentNotStrings
                    return
                }
                let key: String
                switch programText(stack, at: k, .variableName) {
                case .success(let text): key = text
                case .failure(let problem): bad = .environment(problem); return
                }
                if key.isEmpty || key.contains("=") {
                    bad = .variableName(key)
                    return
                }
                switch programText(stack, at: v, .value(of: key)) {
                case .success(let value):
                    if !add(key) || !add(value) { bad = .environmentTooLarge }
                    request.environment[key] = value
                case .failure(let problem): bad = .environment(problem)
                }
            }
        }
        stack.pop()
        if let bad { throw bad }
    }

    // MARK: key(combo)

    func keyFunction(_ stack: LuaView) -> Int32 {
        if let refused = refusedWhileLoading(stack, "key()") { return refused }
        guard let combo = stack.string(at: 1, limit: 256) else {
            return raise(stack, "key() takes a key or combination, as in key(\"ctrl+alt+Right\") or key(\"PageDown\")")
        }
        do throws(HostActionError) {
            guard let host else { throw .unavailable(.key) }
            try host.key(combo, origin: position(stack, level: 1))
        } catch {
            return raise(stack, error.description)
        }
        return 0
    }

    /// key(), pointer.* and touchpad.* act on the desktop. While the rules
    /// load no gesture is there to end what they hold down (a press made then
    /// stayed down through every later gesture), and every reload would do
    /// them again; `run` and `check` refuse them alike.
    func refusedWhileLoading(_ stack: LuaView, _ call: String) -> Int32? {
        guard load.loading else { return nil }
        return raise(stack, "\(call) while the rules load: it would act at every start and every reload, with no gesture to end what it holds down; call it from a handler (on(...)), or from a timer (after(0, function() ... end)) to act once the run has begun")
    }
}

