import CLuaShim
import Foundation

/// The editor files of examples/editor, read as their tools read them, and
/// the globals a running gesturemap has, described the same way.
enum EditorFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = root.appendingPathComponent("examples/editor")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Lua that describes a table of globals as lines "name kind" and
    /// "name.field kind". A function that string.dump can dump is written in
    /// Lua ("lua function"), so one that replaces a C function of Lua's own
    /// shows as different.
    static let describer = """
        local function describe(globals)
          local function kind(v)
            if type(v) == "function" and pcall(string.dump, v) then return "lua function" end
            return type(v)
          end
          local lines = {}
          for name, value in pairs(globals) do
            if type(name) == "string" then
              lines[#lines + 1] = name .. " " .. kind(value)
              if type(value) == "table" and value ~= globals then
                for field, v in pairs(value) do
                  if type(field) == "string" then lines[#lines + 1] = name .. "." .. field .. " " .. kind(v) end
                end
              end
            end
          end
          table.sort(lines)
          return table.concat(lines, "\\n")
        end
        """

    /// What a file defines when run as Lua with an empty table for its
    /// globals (the meta file's declarations, a .luacheckrc's settings):
    /// described, or the error that stopped it.
    static func definitions(of source: String, chunkName: String, environment: String = "{}", describing expression: String = "env") -> Result<Globals, LuaFailure> {
        let program = describer + """

            local source, name = ...
            local env = \(environment)
            local chunk, problem = load(source, "=" .. name, "t", env)
            if not chunk then error(problem, 0) end
            chunk()
            return describe(\(expression))
            """
        return runPlainLua(program, arguments: [source, chunkName]).map(Globals.init)
    }

    /// The globals of a plain Lua 5.4 state with every standard library open.
    static func standardLua() throws -> Globals {
        try runPlainLua(describer + "\nreturn describe(_G)", arguments: []).map(Globals.init).get()
    }

    /// Runs `source` in a fresh state with Lua's libraries, given `arguments`;
    /// its one result as text.
    static func runPlainLua(_ source: String, arguments: [String]) -> Result<String, LuaFailure> {
        guard let L = luaL_newstate() else { return .failure(LuaFailure(message: "no Lua state")) }
        defer { lua_close(L) }
        luaL_openlibs(L)
        guard luaL_loadstring(L, source) == LUA_OK else {
            return .failure(LuaFailure(message: String(cString: lua_tolstring(L, -1, nil))))
        }
        for argument in arguments { lua_pushstring(L, argument) }
        guard lua_pcallk(L, Int32(arguments.count), 1, 0, 0, nil) == LUA_OK else {
            return .failure(LuaFailure(message: String(cString: lua_tolstring(L, -1, nil))))
        }
        return .success(lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "")
    }
}

struct LuaFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Globals as `describe` gives them: each name and each field of a table,
/// with its kind.
struct Globals {
    let kinds: [String: String]

    init(_ description: String) {
        var kinds: [String: String] = [:]
        for line in description.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            kinds[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        self.kinds = kinds
    }

    /// The top-level names.
    var names: Set<String> { Set(kinds.keys.filter { !$0.contains(".") }) }

    /// The fields of the table `name`.
    func fields(of name: String) -> Set<String> {
        Set(kinds.keys.compactMap { key in
            key.hasPrefix(name + ".") ? String(key.dropFirst(name.count + 1)) : nil
        })
    }
}

/// The classes of a lua-language-server definition file: each `---@class`'s
/// `---@field` names, and the methods defined on the local that follows it
/// (`local Binding = {}` ... `function Binding:enable() end`).
struct DeclaredClasses {
    private(set) var members: [String: Set<String>] = [:]
    /// Each field's line, for what its comment says.
    private(set) var fieldLines: [String: [String: String]] = [:]

    init(_ source: String) {
        var current: String?
        var localNames: [String: String] = [:]
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("---@class ") {
                let name = line.dropFirst("---@class ".count).split(separator: " ").first.map(String.init) ?? ""
                current = name
                members[name, default: []].formUnion([])
            } else if let className = current, line.hasPrefix("---@field ") {
                let words = line.dropFirst("---@field ".count).split(separator: " ")
                guard var field = words.first.map(String.init), !field.hasPrefix("[") else { continue }
                if field.hasSuffix("?") { field.removeLast() }
                members[className, default: []].insert(field)
                fieldLines[className, default: [:]][field] = line
            } else if let className = current, line.hasPrefix("local "), line.hasSuffix("= {}") {
                let variable = line.dropFirst("local ".count).split(separator: " ").first.map(String.init) ?? ""
                localNames[variable] = className
                current = nil
            } else if line.hasPrefix("function "), let colon = line.firstIndex(of: ":"), let paren = line.firstIndex(of: "(") {
                let variable = String(line[line.index(line.startIndex, offsetBy: "function ".count)..<colon])
                if let className = localNames[variable] {
                    members[className, default: []].insert(String(line[line.index(after: colon)..<paren]))
                }
            } else if !line.hasPrefix("---") {
                current = nil
            }
        }
    }

    subscript(_ name: String) -> Set<String> { members[name] ?? [] }
}
