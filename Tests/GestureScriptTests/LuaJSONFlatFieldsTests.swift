import CLuaShim
import GestureCore
@testable import GestureScript
import Testing

/// emit's flat path against the general one, on thousands of generated fields
/// tables: where the flat path writes, it writes the general path's bytes;
/// where it declines, it has written nothing and left the stack as it was.
@Suite("emit's flat fields")
struct LuaJSONFlatFieldsTests {
    static let reserved = ["action", "t"]

    /// Tables of every kind of key and value emit meets, from a fixed seed.
    static let generator = #"""
    math.randomseed(20261203)
    local random = math.random
    local keys = { "a", "b", "z", "A", "Z", "_", "page", "fingers", "direction", "x1", "x10", "x2", "ab", "abc",
      "a_b", "aa", "t", "action", "T", "Action", "actions", "a b", "1", "01", "key\n", "q\"uote", "back\\slash",
      "\0nul", "\127", "tab\t", "é", "\xff", "\xe2\x82", "caf\xc3\xa9", "", 1, 2, 3, 1.5, -0.5, 2^53, 0.1, true }
    local values = { 0, 1, -1, 42, math.maxinteger, math.mininteger, 0.5, -0.0, 0.0, 3.0, -7.0, 1e300, -1e-300,
      2^53, 2^53 + 2, 2^63, -2^63, 1e15, 1e16, 1e21, 123456.789, 0.1 + 0.2, 1 / 3, 1e-7, 5e-324,
      1 / 0, -1 / 0, 0 / 0, "", "left", "a\"b", "line\nbreak", "\0", "\127", "\31", "é", "\xff\xfe", "\xe2\x82",
      "\xed\xa0\x80", "\xf4\x90\x80\x80", "tab\t", "back\\", ("x"):rep(300), true, false }
    local rare = { { 1, 2 }, { a = 1 }, {}, print, coroutine.create(print) }

    local tables = {}
    for n = 1, 4000 do
      local t = {}
      for _ = 1, random(0, n % 7 == 0 and 11 or 6) do
        local v = values[random(#values)]
        if random() < 0.03 then v = rare[random(#rare)] end
        local k = keys[random(#keys)]
        if random() < 0.6 then k = keys[random(9)] end
        t[k] = v
      end
      tables[#tables + 1] = t
    end
    return tables
    """#

    struct Outcome {
        var flat: Bool
        var flatBytes: [UInt8]
        var generalBytes: [UInt8]
        var problem: String?
        var topKept: Bool
    }

    /// Both paths on the table at the top of the stack, each after `prefix`.
    static func compare(_ L: OpaquePointer, prefix: Int = 0) -> Outcome {
        let stack = LuaView(L)
        var start = JSONWriter()
        start.raw("{\"action\":")
        start.string(String(repeating: "n", count: prefix))
        let top = lua_gettop(L)
        var flat = start
        let taken = LuaJSON.writeFlatFields(stack, -1, into: &flat, reserved: reserved)
        let topKept = lua_gettop(L) == top
        var general = start
        var problem: String?
        do {
            try LuaJSON.writeFieldsInGeneral(stack, -1, into: &general, reserved: reserved)
        } catch {
            problem = error.text(root: "the fields table")
        }
        return Outcome(flat: taken, flatBytes: taken ? flat.bytes : flat.bytes == start.bytes ? [] : flat.bytes,
                       generalBytes: general.bytes, problem: problem, topKept: topKept)
    }

    static func withTables(_ source: String, _ body: (OpaquePointer, Int) -> Void) throws {
        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        luaL_openlibs(L)
        try #require(luaL_loadstring(L, source) == LUA_OK)
        try #require(lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK)
        let count = Int(lua_rawlen(L, -1))
        for i in 1...count {
            lua_rawgeti(L, -1, lua_Integer(i))
            body(L, i)
            lua_settop(L, -2)
        }
    }

    @Test("the flat path writes what the general path writes, or nothing")
    func sameAsGeneral() throws {
        var taken = 0, declined = 0
        try Self.withTables(Self.generator) { L, i in
            let outcome = Self.compare(L)
            #expect(outcome.topKept, "table \(i)")
            if outcome.flat {
                taken += 1
                #expect(outcome.problem == nil, "table \(i)")
                #expect(outcome.flatBytes == outcome.generalBytes, "table \(i): \(String(decoding: outcome.flatBytes, as: UTF8.self)) against \(String(decoding: outcome.generalBytes, as: UTF8.self))")
            } else {
                declined += 1
                #expect(outcome.flatBytes.isEmpty, "table \(i) was declined after writing")
            }
        }
        // Both paths are exercised, and often.
        #expect(taken > 1000)
        #expect(declined > 1000)
    }

    @Test("tables the flat path must leave to the general one", arguments: [
        "{ action = 1 }", "{ t = 2, a = 1 }", "{ ['\\xff'] = 1 }", "{ ['é'] = 1 }",
        "{ [1] = 'a' }", "{ 'a', 'b' }", "{ [1.5] = true }", "{ [true] = 1 }", "{ a = {} }", "{ a = { 1 } }",
        "{ a = print }", "{ [''] = 1 }", "{ a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, i=9 }",
    ])
    func declined(_ table: String) throws {
        try Self.withTables("return { \(table) }") { L, _ in
            let outcome = Self.compare(L)
            #expect(!outcome.flat)
            #expect(outcome.flatBytes.isEmpty)
            #expect(outcome.topKept)
        }
    }

    @Test("tables the flat path takes", arguments: [
        ("{}", ""),
        ("{ fingers = 3, direction = 'left' }", #","direction":"left","fingers":3"#),
        ("{ b = true, a = false, ab = -0.0, A = 2^53, _ = 0.1 }", #","A":9007199254740992,"_":0.1,"a":false,"ab":0,"b":true"#),
        ("{ nan = 0/0, inf = 1/0, big = 2^63, float = 3.0 }", #","big":9.223372036854776e+18,"float":3,"inf":null,"nan":null"#),
        ("{ s = 'a\"b\\n\\0\\xff' }", #","s":"a\"b\n\u0000\#u{FFFD}""#),
        ("{ a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8 }", #","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8"#),
        ("{ ['key\\n'] = 1, ['q\"'] = 2 }", #","key\n":1,"q\"":2"#),
        ("{ ['a b'] = 1, b = 2 }", #","a b":1,"b":2"#),
    ])
    func taken(_ table: String, _ fields: String) throws {
        try Self.withTables("return { \(table) }") { L, _ in
            let outcome = Self.compare(L)
            #expect(outcome.flat)
            #expect(outcome.flatBytes == outcome.generalBytes)
            #expect(String(decoding: outcome.flatBytes, as: UTF8.self) == #"{"action":"""# + fields)
        }
    }

    @Test("a line that could pass the most one emit writes is the general path's")
    func nearTheLimit() throws {
        let prefix = LuaJSON.maxLineBytes - 64
        try Self.withTables("return { { a = 1 }, { s = ('x'):rep(40) }, { s = ('x'):rep(100) }, { ['k'] = ('\\0'):rep(30) } }") { L, i in
            let outcome = Self.compare(L, prefix: prefix)
            #expect(outcome.topKept)
            if outcome.flat {
                #expect(outcome.flatBytes == outcome.generalBytes, "table \(i)")
            } else {
                #expect(outcome.flatBytes.isEmpty, "table \(i)")
            }
            if i == 1 { #expect(outcome.flat) }
            if i >= 3 { #expect(!outcome.flat && outcome.problem != nil, "table \(i)") }
        }
    }
}
