import CLuaShim

/// Lua's type tags, by name.
enum LuaType: Int32 {
    case none = -1, `nil` = 0, boolean, lightUserdata, number, string, table, function, userdata, thread

    var name: String {
        switch self {
        case .none, .nil: return "nil"
        case .boolean: return "boolean"
        case .lightUserdata, .userdata: return "userdata"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .function: return "function"
        case .thread: return "thread"
        }
    }
}

/// The limits and accounting every Lua state of one engine shares: during a
/// reload the new rules' state counts together with the old one, so the two
/// never hold more than `--lua-memory` between them.
final class LuaLimits {
    let pointer: UnsafeMutablePointer<gm_lua_limits>

    init(memoryLimit: Int, instructionBudget: Int, timeLimit: Double) {
        pointer = UnsafeMutablePointer<gm_lua_limits>.allocate(capacity: 1)
        pointer.initialize(to: gm_lua_limits())
        pointer.pointee.memory_limit = max(0, memoryLimit)
        pointer.pointee.instruction_budget = Int64(max(0, instructionBudget))
        pointer.pointee.time_limit_ns = timeLimit > 0 && timeLimit < 1e9 ? Int64(timeLimit * 1e9) : 0
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    var memoryUsed: Int { pointer.pointee.memory_used }
    var memoryPeak: Int { pointer.pointee.memory_peak }

    /// Which limit stopped the last call, and where; nil when none did.
    /// `origin` stands in when the stop came where no line is known (an allocation).
    func stop(origin: String?) -> LimitStop? {
        guard pointer.pointee.stopped != Int32(GM_RUNNING) else { return nil }
        let limit: LimitStop.Limit = stoppedByClock ? .time : .instructions
        // The C side wrote "file:line: " and the limit's words when Lua code was running.
        let written = withUnsafeBytes(of: &pointer.pointee.stopped_at) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !written.isEmpty else { return LimitStop(limit: limit, place: origin) }
        return LimitStop(limit: limit, written: written) ?? LimitStop(limit: limit, place: nil)
    }

    var stoppedByClock: Bool { pointer.pointee.stopped == Int32(GM_STOPPED_TIME) }

    /// Host structures that rules make grow count against the memory limit too.
    func charge(_ bytes: Int) -> Bool { gm_charge(pointer, bytes) != 0 }
    func release(_ bytes: Int) { gm_release(pointer, bytes) }
}

/// One Lua state. Only the engine's loop thread touches it, and only through
/// `gm_door` from the host's side.
final class LuaState {
    let L: OpaquePointer
    let limits: LuaLimits

    init?(limits: LuaLimits) {
        guard let state = gm_newstate(limits.pointer) else { return nil }
        L = state
        self.limits = limits
    }

    deinit {
        gm_close(L)
    }

    /// The main thread's view, for the host's own work between calls.
    var main: LuaView { LuaView(L) }
}

/// A Lua thread's stack as the host sees it: the main thread, or the coroutine
/// a host function was called from. Reads never run rule code (raw access, no
/// conversions in place) and never raise.
struct LuaView {
    let L: OpaquePointer

    init(_ L: OpaquePointer) {
        self.L = L
    }

    var top: Int32 {
        get { lua_gettop(L) }
        nonmutating set { lua_settop(L, newValue) }
    }

    func type(at index: Int32) -> LuaType { LuaType(rawValue: lua_type(L, index)) ?? .none }

    /// The string at `index` (invalid UTF-8 repaired); numbers are not strings
    /// here, nor are strings longer than `limit` bytes: the host never copies a
    /// rule's string of megabytes to look at it.
    func string(at index: Int32, limit: Int = 4096) -> String? {
        guard let bytes = bytes(at: index), bytes.count <= limit else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value at `index` for a message: a string cut to `limit` bytes, or its type.
    func shown(at index: Int32, limit: Int = 64) -> String {
        guard let bytes = bytes(at: index) else { return "(a \(type(at: index).name))" }
        return "\"" + truncated(bytes, limit: limit) + "\""
    }

    /// The string at `index`, exactly as Lua holds it. Valid while the value is
    /// reachable from the stack.
    func bytes(at index: Int32) -> UnsafeRawBufferPointer? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = gm_tostring(L, index, &length) else { return nil }
        return UnsafeRawBufferPointer(start: p, count: length)
    }

    func number(at index: Int32) -> Double? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var isNumber: Int32 = 0
        let v = gm_tonumber(L, index, &isNumber)
        return isNumber != 0 ? v : nil
    }

    func integer(at index: Int32) -> Int? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var isInteger: Int32 = 0
        let v = gm_tointeger(L, index, &isInteger)
        return isInteger != 0 ? Int(v) : nil
    }

    func boolean(at index: Int32) -> Bool? {
        guard lua_type(L, index) == LUA_TBOOLEAN else { return nil }
        return lua_toboolean(L, index) != 0
    }

    /// Pushes `table[key]` without metamethods, so reading a rule's table can
    /// never run rule code or raise.
    @discardableResult
    func rawField(_ table: Int32, _ key: String) -> LuaType {
        let t = lua_absindex(L, table)
        push(key)
        return LuaType(rawValue: lua_rawget(L, t)) ?? .none
    }

    func pop(_ n: Int32 = 1) { gm_pop(L, n) }

    func push(_ string: String) {
        var s = string
        s.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gm_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Room for `n` more values; false when the stack cannot grow (never raises).
    func reserve(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }

    /// The message of the error value at `index`, at most `limit` bytes of it.
    func errorMessage(at index: Int32 = -1, limit: Int = ScriptRuntime.maxMessageBytes) -> String {
        guard let bytes = bytes(at: index) else { return "(error object is a \(type(at: index).name) value)" }
        return truncated(bytes, limit: limit)
    }

    /// Every key and value of the table at `index`, raw.
    func forEachPair(_ table: Int32, _ body: (_ key: Int32, _ value: Int32) -> Void) {
        let t = lua_absindex(L, table)
        guard reserve(3) else { return }
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            body(-2, -1)
            pop()
        }
    }
}

/// Text for a message, cut at `limit` bytes with a note of how much more there was.
func truncated(_ bytes: UnsafeRawBufferPointer, limit: Int) -> String {
    guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes.prefix(limit), as: UTF8.self) + "... (\(bytes.count - limit) more bytes)"
}

func truncated(_ text: String, limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    var copy = text
    return copy.withUTF8 { truncated(UnsafeRawBufferPointer($0), limit: limit) }
}
