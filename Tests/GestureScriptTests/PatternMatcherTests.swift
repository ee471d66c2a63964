import CLuaShim
import GestureScript
import Testing

/// The sandbox's own pattern matcher against Lua's, on thousands of generated
/// patterns and subjects: the same results, the same failures, except that a
/// malformed pattern is an error even where Lua would not reach its bad part.
@Suite("Patterns")
struct PatternMatcherTests {
    /// Runs `source` in a plain Lua state with every library, given the
    /// matcher's functions as a table; returns what it returns, or its error.
    static func runInPlainLua(_ source: String) -> String {
        guard let L = luaL_newstate() else { return "no state" }
        defer { lua_close(L) }
        luaL_openlibs(L)
        guard luaL_loadstring(L, source) == LUA_OK else { return String(cString: lua_tolstring(L, -1, nil)) }
        lua_createtable(L, 0, 4)
        gm_install_patterns(L, -1)
        guard lua_pcallk(L, 1, 1, 0, 0, nil) == LUA_OK else { return "error: " + String(cString: lua_tolstring(L, -1, nil)) }
        return lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "(no result)"
    }

    static let differential = #"""
    local mine = ...
    math.randomseed(20240611)
    local random = math.random
    local atoms = { "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%p", "%x", "%l", "%u", "%A", "%S", "%D",
      "[ab]", "[^a]", "[a-c]", "[%d_]", "[]a]", "[^]]", "[a-]", "[%a%d]", "%.", "%%", "%(", "%]",
      "%bab", "%b()", "%f[%w]", "%f[%W]", "%f[a]", "()", "(", ")", "%1", "%2", "^", "$", "\0" }
    local quantified = { "", "", "", "*", "+", "-", "?" }
    local letters = { "a", "b", "c", "(", ")", "1", "2", " ", "_", "]", "^", "$", "%", ".", "\0", "\255", "A", "-" }

    local function pattern()
      local parts = {}
      if random() < 0.2 then parts[#parts + 1] = "^" end
      for _ = 1, random(0, 5) do
        local atom = atoms[random(#atoms)]
        local single = #atom == 1 and atom ~= "(" and atom ~= ")" or atom:sub(1, 1) == "[" or atom:match("^%%[%a%.%%%(%]]$")
        parts[#parts + 1] = atom .. (single and quantified[random(#quantified)] or "")
      end
      if random() < 0.2 then parts[#parts + 1] = "$" end
      return table.concat(parts)
    end

    local function garbage()
      local parts = {}
      for _ = 1, random(0, 6) do parts[#parts + 1] = letters[random(#letters)] end
      return table.concat(parts)
    end

    local function subject()
      local parts = {}
      for _ = 1, random(0, 14) do parts[#parts + 1] = letters[random(#letters)] end
      return table.concat(parts)
    end

    local function show(v)
      if type(v) == "string" then return string.format("%q", v) end
      return tostring(v)
    end

    local function results(ok, ...)
      local out = { ok = ok, n = select("#", ...), ... }
      return out
    end

    local function gmatch_all(lib, s, p, init)
      local got = {}
      for a, b in lib.gmatch(s, p, init) do got[#got + 1] = show(a) .. "," .. show(b) end
      return table.concat(got, ";")
    end

    local calls = {
      function(lib, s, p) return lib.find(s, p) end,
      function(lib, s, p, i) return lib.find(s, p, i) end,
      function(lib, s, p) return lib.find(s, p, 1, true) end,
      function(lib, s, p) return lib.match(s, p) end,
      function(lib, s, p, i) return lib.match(s, p, i) end,
      function(lib, s, p) return lib.gsub(s, p, "<%0>") end,
      function(lib, s, p) return lib.gsub(s, p, "%1") end,
      function(lib, s, p) return lib.gsub(s, p, function(a) return a and "[" .. tostring(a) .. "]" end, 2) end,
      function(lib, s, p) return lib.gsub(s, p, { a = "A", [""] = "E" }) end,
      function(lib, s, p, i) return gmatch_all(lib, s, p, i) end,
    }
    local stock = { find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub }

    -- What the matcher says, before matching, of a pattern that is malformed.
    local function malformed(message)
      return message:find("malformed pattern", 1, true) or message:find("unfinished capture", 1, true)
        or message:find("invalid capture index %%%d in pattern") or message:find("missing '[' after '%f'", 1, true)
    end

    local cases, stricter, found, mismatches = 0, 0, 0, {}
    for n = 1, 6000 do
      local p = random() < 0.8 and pattern() or garbage()
      local s = subject()
      local init = random(-5, 8)
      for k, call in ipairs(calls) do
        cases = cases + 1
        local a = results(pcall(call, stock, s, p, init))
        local b = results(pcall(call, mine, s, p, init))
        local same = a.ok == b.ok and (not a.ok or a.n == b.n)
        if same and a.ok then
          for i = 1, a.n do if a[i] ~= b[i] then same = false end end
          if a[1] ~= nil and a[1] ~= "" then found = found + 1 end
        end
        if not same then
          if a.ok and not b.ok and malformed(tostring(b[1])) then
            stricter = stricter + 1
          elseif #mismatches < 5 then
            local function line(r) local t = {} for i = 1, r.n do t[#t + 1] = show(r[i]) end return tostring(r.ok) .. " " .. table.concat(t, ", ") end
            mismatches[#mismatches + 1] = "call " .. k .. " s=" .. show(s) .. " p=" .. show(p) .. " init=" .. init ..
              "\n  lua:  " .. line(a) .. "\n  ours: " .. line(b)
          else
            mismatches[#mismatches + 1] = true
          end
        end
      end
    end
    local listed = {}
    for _, m in ipairs(mismatches) do if m ~= true then listed[#listed + 1] = m end end
    return string.format("%d cases, %d with a match, %d stricter, %d different", cases, found, stricter, #mismatches) ..
      (#listed > 0 and "\n" .. table.concat(listed, "\n") or "")
    """#

    @Test("find, match, gmatch and gsub agree with Lua's on generated patterns")
    func agreesWithLua() {
        let outcome = Self.runInPlainLua(Self.differential)
        #expect(outcome.hasSuffix(", 0 different"), "\(outcome)")
        // Not a vacuous comparison: most calls find something.
        let found = outcome.split(separator: " ").dropFirst(2).first.flatMap { Int($0) } ?? 0
        #expect(found > 20_000, "\(outcome)")
    }
}
