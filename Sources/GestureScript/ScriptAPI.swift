import CLuaShim
import GestureCore

/// The host functions of the rule language, and how they are installed.
///
/// Each host function is a C-convention function that finds its runtime
/// through its upvalue and works on the Lua thread it was called from (the
/// main thread or a coroutine), through a `LuaView` of it. It returns a result
/// count, or `GM_RAISE` with a message for the C trampoline to raise. It never
/// raises itself and never calls Lua: see CLuaShim.h.
extension ScriptRuntime {
    static let bindingMetatable = "gesturemap.binding"

    /// Opens the sandbox and installs the API and the prelude, through the door.
    func installAPI() -> Bool {
        var prelude = Prelude.source
        return prelude.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { text in
                Prelude.chunkName.withCString { name in
                    ScriptRuntime.timerMetatable.withCString { timerMetatable in
                        ScriptRuntime.bindingMetatable.withCString { bindingMetatable in
                          ScriptRuntime.recognizerMetatable.withCString { recognizerMetatable in
                            var api = gm_api()
                            api.host = Unmanaged.passUnretained(self).toOpaque()
                            api.globals = UnsafePointer(APITable.globals.baseAddress)
                            api.global_count = Int32(APITable.globals.count)
                            api.timer_metatable = timerMetatable
                            api.timer_methods = UnsafePointer(APITable.timerMethods.baseAddress)
                            api.timer_method_count = Int32(APITable.timerMethods.count)
                            api.binding_metatable = bindingMetatable
                            api.binding_methods = UnsafePointer(APITable.bindingMethods.baseAddress)
                            api.binding_method_count = Int32(APITable.bindingMethods.count)
                            api.recognizer_metatable = recognizerMetatable
                            api.recognizer_methods = UnsafePointer(APITable.recognizerMethods.baseAddress)
                            api.recognizer_method_count = Int32(APITable.recognizerMethods.count)
                            api.prelude = text.baseAddress
                            api.prelude_length = text.count
                            api.prelude_name = name
                            api.prelude_args = UnsafePointer(APITable.preludeArguments.baseAddress)
                            api.prelude_arg_count = Int32(APITable.preludeArguments.count)
                            return withUnsafePointer(to: &api) { api in
                                var request = gm_request()
                                request.kind = GM_OPEN
                                request.api = api
                                guard case .success = enter(&request) else { return false }
                                return true
                            }
                          }
                        }
                    }
                }
            }
        }
    }

    static func from(_ L: OpaquePointer?) -> ScriptRuntime? {
        guard let L, let p = lua_touserdata(L, gm_host_upvalue_index(1)) else { return nil }
        return Unmanaged<ScriptRuntime>.fromOpaque(p).takeUnretainedValue()
    }

    /// "rules.lua:12" of the nearest Lua code `level` levels up the calling
    /// thread (1: the caller of a host function); the running rule's or
    /// timer's own line when no Lua code is there (a host function passed
    /// to pcall, or given as a handler).
    func position(_ stack: LuaView, level: Int32) -> String {
        gm_push_where(stack.L, level)
        var text = stack.string(at: -1) ?? ""
        stack.pop()
        while text.hasSuffix(" ") || text.hasSuffix(":") { text.removeLast() }
        if text.isEmpty { return now.origin ?? "" }
        return load.chunkNames.restore(text)
    }

    /// Raises `message` at the caller's line.
    func raise(_ stack: LuaView, _ message: String, level: Int32 = 1) -> Int32 {
        let at = position(stack, level: level)
        stack.push(truncated(at.isEmpty ? message : "\(at): \(message)", limit: Self.maxMessageBytes))
        return GM_RAISE
    }

    /// Records a load-time problem and carries on, so `check` sees every problem in one pass.
    func problem(_ stack: LuaView, _ message: String) {
        let at = position(stack, level: 1)
        addProblem(at.isEmpty ? message : "\(at): \(message)")
    }
}

/// The functions and methods installed in every state, as C arrays that live
/// as long as the process.
enum APITable {
    nonisolated(unsafe) static let globals = table([
        ("on", { L in call(L) { $0.on($1) } }),
        ("emit", { L in call(L) { $0.emit($1) } }),
        ("config", { L in call(L) { $0.config($1) } }),
        ("mode", { L in call(L) { $0.modeFunction($1) } }),
        ("after", { L in call(L) { $0.schedule($1, repeating: false) } }),
        ("every", { L in call(L) { $0.schedule($1, repeating: true) } }),
        ("exec", { L in call(L) { $0.execFunction($1, shell: false) } }),
        ("shell", { L in call(L) { $0.execFunction($1, shell: true) } }),
        ("key", { L in call(L) { $0.keyFunction($1) } }),
        ("recognizer", { L in call(L) { $0.recognizerFunction($1) } }),
        ("app", { L in call(L) { $0.appFunction($1) } }),
    ])
    nonisolated(unsafe) static let timerMethods = table([
        ("cancel", { L in call(L) { $0.cancelTimer($1) } }),
    ])
    nonisolated(unsafe) static let bindingMethods = table([
        ("enable", { L in call(L) { $0.bindingMethod($1, enabled: true) } }),
        ("disable", { L in call(L) { $0.bindingMethod($1, enabled: false) } }),
        ("remove", { L in call(L) { $0.bindingMethod($1, removed: true) } }),
    ])
    nonisolated(unsafe) static let recognizerMethods = table([
        ("began", { L in call(L) { $0.recognizerStep($1, .began) } }),
        ("changed", { L in call(L) { $0.recognizerStep($1, .changed) } }),
        ("ended", { L in call(L) { $0.recognizerStep($1, .ended) } }),
        ("fail", { L in call(L) { $0.recognizerFail($1) } }),
        ("deadline", { L in call(L) { $0.recognizerDeadline($1) } }),
    ])
    /// The prelude's private arguments, in order (the module loader follows them).
    nonisolated(unsafe) static let preludeArguments = table([
        ("log", { L in call(L) { $0.hostLog($1) } }),
        ("find_module", { L in call(L) { $0.findModule($1) } }),
        ("pointer_move", { L in call(L) { $0.pointerMove($1) } }),
        ("pointer_press", { L in call(L) { $0.pointerPress($1) } }),
        ("pointer_release", { L in call(L) { $0.pointerRelease($1) } }),
        ("pointer_click", { L in call(L) { $0.pointerClick($1) } }),
        ("pointer_scroll", { L in call(L) { $0.pointerScroll($1) } }),
        ("touchpad_begin", { L in call(L) { $0.touchpadBegin($1) } }),
        ("touchpad_move", { L in call(L) { $0.touchpadMove($1) } }),
        ("touchpad_finish", { L in call(L) { $0.touchpadFinish($1) } }),
    ])

    private static func call(_ L: OpaquePointer?, _ body: (ScriptRuntime, LuaView) -> Int32) -> Int32 {
        guard let L, let runtime = ScriptRuntime.from(L) else { return 0 }
        return body(runtime, LuaView(L))
    }

    private static func table(_ entries: [(String, gm_host_function)]) -> UnsafeMutableBufferPointer<gm_api_entry> {
        let buffer = UnsafeMutableBufferPointer<gm_api_entry>.allocate(capacity: entries.count)
        for (i, entry) in entries.enumerated() {
            buffer[i] = gm_api_entry(name: strdupOrEmpty(entry.0), fn: entry.1)
        }
        return buffer
    }

    private static func strdupOrEmpty(_ s: String) -> UnsafePointer<CChar> {
        let bytes = Array(s.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(copy)
    }
}
