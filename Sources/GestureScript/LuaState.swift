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

/// One Lua state with its accounting. Only the engine's loop thread touches it.
final class LuaState {
    let L: OpaquePointer
    let limits: UnsafeMutablePointer<gm_lua_limits>

    init?(memoryLimit: Int, instructionBudget: Int) {
        limits = UnsafeMutablePointer<gm_lua_limits>.allocate(capacity: 1)
        limits.initialize(to: gm_lua_limits())
        limits.pointee.memory_limit = memoryLimit
        limits.pointee.instruction_budget = Int64(instructionBudget)
        guard let state = gm_newstate(limits) else {
            limits.deallocate()
            return nil
        }
        L = state
        gm_open_sandbox(L)
    }

    deinit {
        gm_close(L)
        limits.deinitialize(count: 1)
        limits.deallocate()
    }

    var top: Int32 {
        get { lua_gettop(L) }
        set { lua_settop(L, newValue) }
    }

    func type(at index: Int32) -> LuaType { LuaType(rawValue: lua_type(L, index)) ?? .none }

    /// The string at `index` without converting numbers in place (which would
    /// confuse `lua_next`).
    func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = gm_tostring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
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
    func rawField(_ table: Int32, _ key: String) -> LuaType {
        let t = lua_absindex(L, table)
        key.withCString { _ = lua_pushstring(L, $0) }
        return LuaType(rawValue: lua_rawget(L, t)) ?? .none
    }

    func pop(_ n: Int32 = 1) { gm_pop(L, n) }

    func push(_ string: String) {
        var s = string
        s.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gm_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// The message of the error value on top of the stack.
    func errorMessage(at index: Int32 = -1) -> String {
        string(at: index) ?? "(error object is a \(type(at: index).name) value)"
    }

    /// Keys of the table at `index` (strings only; other keys reported as such).
    func forEachPair(_ table: Int32, _ body: (_ key: Int32, _ value: Int32) -> Void) {
        let t = lua_absindex(L, table)
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            body(-2, -1)
            pop()
        }
    }
}
