import CLuaShim
import GestureCore

/// Lua values to JSON, for `emit`'s fields. Tables with keys 1..n become arrays,
/// other tables objects with sorted keys, so output is the same every run.
///
/// Keys are text: strings as they are (escaped, invalid UTF-8 as U+FFFD, as
/// values are), numbers in decimal. Two keys that come out the same (1 and
/// "1", or two strings that differ only in invalid bytes) are an error rather
/// than a line with a duplicate key. A line longer than `maxLineBytes` is
/// refused before it is built.
enum LuaJSON {
    static let maxDepth = 32
    static let maxLineBytes = 1 << 20

    /// Why a value cannot be written, and where in it.
    struct Problem: Error, Equatable {
        enum Reason: Equatable, CustomStringConvertible {
            /// A fields table with keys 1..n.
            case list
            /// A field emit writes itself, such as `t`.
            case reserved(String)
            case tooDeep
            case notJSON(LuaType)
            case tooLong
            case badKey(LuaType)
            /// Two keys whose JSON text is the same, as Lua code would write them.
            case sameKey(text: String, first: String, second: String)

            var description: String {
                switch self {
                case .list: return "is a list; fields must be names with values, such as { page = 2 }"
                case .reserved(let word): return "has a field \"\(word)\", which emit writes itself; rename yours"
                case .tooDeep: return "is nested more than \(maxDepth) tables deep (does a table contain itself?)"
                case .notJSON(let type): return "is a \(type.name); only strings, numbers, booleans and tables become JSON"
                case .tooLong: return "makes the line longer than \(maxLineBytes >> 20) MiB, the most one emit may write"
                case .badKey(let type): return "has a \(type.name) key; JSON keys must be strings or numbers"
                case let .sameKey(text, first, second): return "has two keys that both become \"\(text)\" in JSON (\(first) and \(second)); keep one"
                }
            }
        }

        /// Innermost last: ".a", "[2]".
        var path: [String] = []
        var reason: Reason

        init(_ reason: Reason) {
            self.reason = reason
        }

        func text(root: String) -> String { root + path.reversed().joined() + " " + reason.description }

        /// The same problem, one level further out.
        func within(_ segment: String) -> Problem {
            var outer = self
            outer.path.append(segment)
            return outer
        }
    }

    /// Appends `,"key":value` for every field of the table at `index`, keys sorted.
    static func writeFields(_ stack: LuaView, _ index: Int32, into json: inout JSONWriter, reserved: [String]) throws(Problem) {
        let t = lua_absindex(stack.L, index)
        if writeFlatFields(stack, t, into: &json, reserved: reserved) { return }
        try writeFieldsInGeneral(stack, t, into: &json, reserved: reserved)
    }

    /// `writeFields` for any table; the flat path's tests compare the two.
    static func writeFieldsInGeneral(_ stack: LuaView, _ index: Int32, into json: inout JSONWriter, reserved: [String]) throws(Problem) {
        let t = lua_absindex(stack.L, index)
        let length = Int(lua_rawlen(stack.L, t))
        if length > 0, pairCount(stack, t) == length { throw Problem(.list) }
        let fields = try collectFields(stack, t, budget: maxLineBytes - json.bytes.count).get()
        for field in fields {
            if let word = reserved.first(where: { field.text.elementsEqual($0.utf8) }) { throw Problem(.reserved(word)) }
            json.byte(0x2C)
            try writeField(stack, t, field, into: &json, depth: 1)
        }
    }

    /// Appends the value at `index`.
    static func write(_ stack: LuaView, _ index: Int32, into json: inout JSONWriter, depth: Int) throws(Problem) {
        let L = stack.L
        let i = lua_absindex(L, index)
        switch stack.type(at: i) {
        case .nil, .none:
            json.raw("null")
        case .boolean:
            if lua_toboolean(L, i) != 0 { json.raw("true") } else { json.raw("false") }
        case .number:
            if let n = stack.integer(at: i) { json.integer(Int64(n)) } else { json.number(stack.number(at: i) ?? 0) }
        case .string:
            if let bytes = stack.bytes(at: i) {
                guard json.bytes.count + bytes.count <= maxLineBytes else { throw Problem(.tooLong) }
                json.string(utf8: bytes.bindMemory(to: UInt8.self))
            }
        case .table:
            guard depth < maxDepth, stack.reserve(4) else { throw Problem(.tooDeep) }
            try writeTable(stack, i, into: &json, depth: depth)
            return
        case .function, .userdata, .lightUserdata, .thread:
            throw Problem(.notJSON(stack.type(at: i)))
        }
        if json.bytes.count > maxLineBytes { throw Problem(.tooLong) }
    }

    private static func writeTable(_ stack: LuaView, _ t: Int32, into json: inout JSONWriter, depth: Int) throws(Problem) {
        let L = stack.L
        let length = Int(lua_rawlen(L, t))
        if length > 0, pairCount(stack, t) == length {
            json.byte(0x5B)
            for n in 1...length {
                if n > 1 { json.byte(0x2C) }
                lua_rawgeti(L, t, lua_Integer(n))
                do {
                    try write(stack, -1, into: &json, depth: depth + 1)
                } catch {
                    stack.pop()
                    throw error.within("[\(n)]")
                }
                stack.pop()
            }
            json.byte(0x5D)
            return
        }
        let fields = try collectFields(stack, t, budget: maxLineBytes - json.bytes.count).get()
        json.byte(0x7B)
        for (n, field) in fields.enumerated() {
            if n > 0 { json.byte(0x2C) }
            try writeField(stack, t, field, into: &json, depth: depth + 1)
        }
        json.byte(0x7D)
    }

    private static func writeField(_ stack: LuaView, _ t: Int32, _ field: Field, into json: inout JSONWriter, depth: Int) throws(Problem) {
        field.text.withUnsafeBufferPointer { json.string(utf8: $0) }
        json.byte(0x3A)
        field.pushKey(stack)
        lua_rawget(stack.L, t)
        do {
            try write(stack, -1, into: &json, depth: depth)
        } catch {
            stack.pop()
            throw error.within(field.pathSegment)
        }
        stack.pop()
    }

    private static func pairCount(_ stack: LuaView, _ t: Int32) -> Int {
        var count = 0
        stack.forEachPair(t) { _, _ in count += 1 }
        return count
    }

    /// A table's keys as JSON keys, sorted; an error for a key that cannot be
    /// one, two that come out the same, or more than `budget` bytes could hold.
    private static func collectFields(_ stack: LuaView, _ t: Int32, budget: Int) -> Result<[Field], Problem> {
        var fields: [Field] = []
        var problem: Problem?
        // Each field takes at least `"":0,` on the line.
        var spent = 0
        stack.forEachPair(t) { k, _ in
            guard problem == nil else { return }
            if let key = stack.bytes(at: k), spent + key.count + 5 > budget {
                problem = Problem(.tooLong)
                return
            }
            guard let field = Field(stack, k) else {
                problem = Problem(.badKey(stack.type(at: k)))
                return
            }
            spent += field.text.count + 5
            if spent > budget {
                problem = Problem(.tooLong)
                return
            }
            fields.append(field)
        }
        if let problem { return .failure(problem) }
        fields.sort(by: Field.precedes)
        for i in fields.indices.dropFirst() where fields[i].text == fields[i - 1].text {
            return .failure(Problem(.sameKey(text: String(decoding: fields[i].text, as: UTF8.self), first: fields[i - 1].description, second: fields[i].description)))
        }
        return .success(fields)
    }

    /// One key of a table: how to find its value again, and its JSON text.
    struct Field {
        enum Key {
            case string([UInt8])
            case integer(lua_Integer)
            case float(Double)
        }

        var key: Key
        /// The key as JSON key text, before escaping: invalid UTF-8 repaired.
        var text: [UInt8]

        init?(_ stack: LuaView, _ index: Int32) {
            switch stack.type(at: index) {
            case .string:
                guard let raw = stack.bytes(at: index) else { return nil }
                let bytes = Array(raw.bindMemory(to: UInt8.self))
                key = .string(bytes)
                let valid = bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
                text = valid ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8)
            case .number:
                if let n = stack.integer(at: index) {
                    key = .integer(lua_Integer(n))
                    text = Array(String(n).utf8)
                } else {
                    let v = stack.number(at: index) ?? 0
                    key = .float(v)
                    text = Array(String(v).utf8)
                }
            default:
                return nil
            }
        }

        /// By JSON text; keys that come out the same by kind (numbers first),
        /// then by their bytes, so messages about them are the same every run.
        static func precedes(_ a: Field, _ b: Field) -> Bool {
            let common = min(a.text.count, b.text.count)
            for i in 0..<common where a.text[i] != b.text[i] { return a.text[i] < b.text[i] }
            if a.text.count != b.text.count { return a.text.count < b.text.count }
            switch (a.key, b.key) {
            case (.string(let x), .string(let y)): return x.lexicographicallyPrecedes(y)
            case (.string, _): return false
            case (_, .string): return true
            case (.integer, .float): return true
            default: return false
            }
        }

        func pushKey(_ stack: LuaView) {
            switch key {
            case .string(let bytes): bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { gm_pushlstring(stack.L, $0.baseAddress, $0.count) } }
            case .integer(let n): lua_pushinteger(stack.L, n)
            case .float(let v): lua_pushnumber(stack.L, v)
            }
        }

        var pathSegment: String {
            switch key {
            case .string: return "." + String(decoding: text, as: UTF8.self)
            case .integer(let n): return "[\(n)]"
            case .float(let v): return "[\(v)]"
            }
        }

        /// The key as Lua code would write it.
        var description: String {
            switch key {
            case .string(let bytes):
                var escaped = ""
                for b in bytes {
                    if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C { escaped.unicodeScalars.append(Unicode.Scalar(b)) } else { escaped += "\\\(b)" }
                }
                return "\"\(escaped)\""
            case .integer(let n): return String(n)
            case .float(let v): return String(v)
            }
        }
    }
}
