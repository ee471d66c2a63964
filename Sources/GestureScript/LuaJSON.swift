import CLuaShim
import GestureCore

/// Lua values to JSON, for `emit`'s fields. Tables with keys 1..n become arrays,
/// other tables objects with sorted keys, so output is the same every run.
enum LuaJSON {
    static let maxDepth = 32

    /// Appends the value at `index`; returns a message for people if it cannot.
    static func write(_ lua: LuaState, _ index: Int32, into json: inout JSONWriter, path: String, depth: Int = 0) -> String? {
        let L = lua.L
        let i = lua_absindex(L, index)
        switch lua.type(at: i) {
        case .nil, .none:
            json.raw("null")
        case .boolean:
            if lua_toboolean(L, i) != 0 { json.raw("true") } else { json.raw("false") }
        case .number:
            if let n = lua.integer(at: i) { json.integer(Int64(n)) } else { json.number(lua.number(at: i) ?? 0) }
        case .string:
            var length = 0
            if let p = gm_tostring(L, i, &length) {
                p.withMemoryRebound(to: UInt8.self, capacity: length) {
                    json.string(utf8: UnsafeBufferPointer(start: $0, count: length))
                }
            }
        case .table:
            guard depth < maxDepth else {
                return "\(path) is nested more than \(maxDepth) tables deep (does a table contain itself?)"
            }
            return writeTable(lua, i, into: &json, path: path, depth: depth)
        case .function, .userdata, .lightUserdata, .thread:
            return "\(path) is a \(lua.type(at: i).name); only strings, numbers, booleans and tables become JSON"
        }
        return nil
    }

    private static func writeTable(_ lua: LuaState, _ t: Int32, into json: inout JSONWriter, path: String, depth: Int) -> String? {
        let L = lua.L
        let length = Int(lua_rawlen(L, t))
        var pairs = 0
        var keys: [(text: String, isString: Bool, number: Double)] = []
        var badKey: String?
        lua.forEachPair(t) { k, _ in
            pairs += 1
            switch lua.type(at: k) {
            case .string: keys.append((lua.string(at: k) ?? "", true, 0))
            case .number:
                if let n = lua.integer(at: k) {
                    keys.append((String(n), false, Double(n)))
                } else {
                    let v = lua.number(at: k) ?? 0
                    keys.append((String(v), false, v))
                }
            default: badKey = badKey ?? lua.type(at: k).name
            }
        }
        if let badKey { return "\(path) has a \(badKey) key; JSON keys must be strings or numbers" }
        if length > 0 && pairs == length {
            json.byte(0x5B)
            for n in 1...length {
                if n > 1 { json.byte(0x2C) }
                lua_rawgeti(L, t, lua_Integer(n))
                let problem = write(lua, -1, into: &json, path: "\(path)[\(n)]", depth: depth + 1)
                lua.pop()
                if let problem { return problem }
            }
            json.byte(0x5D)
            return nil
        }
        keys.sort { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
        json.byte(0x7B)
        for (n, key) in keys.enumerated() {
            if n > 0 { json.byte(0x2C) }
            json.string(key.text)
            json.byte(0x3A)
            if key.isString {
                _ = lua.rawField(t, key.text)
            } else {
                if key.number == key.number.rounded() { lua_pushinteger(L, lua_Integer(key.number)) } else { lua_pushnumber(L, key.number) }
                lua_rawget(L, t)
            }
            let problem = write(lua, -1, into: &json, path: "\(path).\(key.text)", depth: depth + 1)
            lua.pop()
            if let problem { return problem }
        }
        json.byte(0x7D)
        return nil
    }
}
