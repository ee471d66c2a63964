import CLuaShim
import GestureCore

/// emit's usual fields table, a few names with plain values, written without
/// the general path's arrays: that path makes a Swift array for every key and
/// looks each value up again, some 6,000 instructions for two fields, on every
/// handler call that emits.
///
/// Only tables whose line is certain to come out byte for byte as the general
/// path writes it are taken: keys of ASCII text (never repaired, so never two
/// the same, and sorted by their bytes), none of them reserved, values that are strings, numbers or booleans, and a line that
/// cannot reach `maxLineBytes`. Anything else, errors included, is the general
/// path's.
extension LuaJSON {
    /// Keys the flat path takes; its buffer is on the stack.
    static let maxFlatFields = 8

    private struct FlatField {
        var key: UnsafeRawBufferPointer
        var type: Int32
        var isInteger: Bool
        var integer: lua_Integer
        var number: Double
        var string: UnsafeRawBufferPointer

        /// As `Field.precedes` orders keys that are valid UTF-8 and distinct.
        func precedes(_ other: FlatField) -> Bool {
            let common = min(key.count, other.key.count)
            for i in 0..<common where key[i] != other.key[i] { return key[i] < other.key[i] }
            return key.count < other.key.count
        }
    }

    /// What `writeFields` writes for the table at `t`, when it is flat; false,
    /// with nothing written and the stack as it was, when it is not.
    static func writeFlatFields(_ stack: LuaView, _ t: Int32, into json: inout JSONWriter, reserved: [String]) -> Bool {
        let L = stack.L
        let table = lua_absindex(L, t)
        let top = lua_gettop(L)
        guard stack.reserve(3) else { return false }
        return withUnsafeTemporaryAllocation(of: FlatField.self, capacity: maxFlatFields) { buffer in
            var count = 0
            // The longest line these fields could make: every string byte escaped as \u00XX.
            var longest = json.bytes.count
            lua_pushnil(L)
            while lua_next(L, table) != 0 {
                guard count < maxFlatFields, let key = stack.bytes(at: -2), isASCII(key), !isReserved(key, reserved) else {
                    lua_settop(L, top)
                    return false
                }
                var field = FlatField(key: key, type: lua_type(L, -1), isInteger: false, integer: 0, number: 0, string: UnsafeRawBufferPointer(start: nil, count: 0))
                switch field.type {
                case LUA_TNUMBER:
                    var isInteger: Int32 = 0
                    field.integer = gm_tointeger(L, -1, &isInteger)
                    field.isInteger = isInteger != 0
                    if !field.isInteger { field.number = stack.number(at: -1) ?? 0 }
                    longest += 32
                case LUA_TSTRING:
                    guard let bytes = stack.bytes(at: -1) else { lua_settop(L, top); return false }
                    field.string = bytes
                    longest += 6 * bytes.count + 2
                case LUA_TBOOLEAN:
                    field.integer = lua_toboolean(L, -1) != 0 ? 1 : 0
                    longest += 5
                default:
                    lua_settop(L, top)
                    return false
                }
                // `"key":` and the comma; the general path budgets 5 a key.
                longest += key.count + 5
                buffer.initializeElement(at: count, to: field)
                count += 1
                stack.pop()
            }
            guard longest <= maxLineBytes else { return false }
            // Insertion sort: at most eight keys.
            for i in 1..<max(count, 1) {
                let moving = buffer[i]
                var j = i
                while j > 0, moving.precedes(buffer[j - 1]) {
                    buffer[j] = buffer[j - 1]
                    j -= 1
                }
                buffer[j] = moving
            }
            for i in 0..<count {
                let field = buffer[i]
                json.byte(0x2C)
                json.string(utf8: field.key.bindMemory(to: UInt8.self))
                json.byte(0x3A)
                switch field.type {
                case LUA_TNUMBER:
                    if field.isInteger { json.integer(Int64(field.integer)) } else { json.number(field.number) }
                case LUA_TSTRING:
                    json.string(utf8: field.string.bindMemory(to: UInt8.self))
                default:
                    if field.integer != 0 { json.raw("true") } else { json.raw("false") }
                }
            }
            return true
        }
    }

    private static func isReserved(_ key: UnsafeRawBufferPointer, _ reserved: [String]) -> Bool {
        for word in reserved where word.utf8.count == key.count && word.utf8.elementsEqual(key) { return true }
        return false
    }

    /// ASCII text is never repaired, so two such keys never come out the
    /// same, and the general path orders them by their bytes.
    private static func isASCII(_ key: UnsafeRawBufferPointer) -> Bool {
        guard let base = key.baseAddress, !key.isEmpty else { return false }
        var any: UInt8 = 0
        for i in 0..<key.count { any |= base.load(fromByteOffset: i, as: UInt8.self) }
        return any < 0x80
    }
}
