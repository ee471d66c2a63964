-- luacheck's standard for gesturemap rules: `luacheck --std gesturemap rules.lua`
-- in this directory (luacheck reads .luacheckrc from the current directory and
-- its parents), or `--config /usr/share/gesturemap/editor/.luacheckrc` from
-- anywhere. docs/editor.md says more.
--
-- It is the whole sandbox, not Lua's standard library plus gesturemap's API:
-- io, debug, package, dofile, loadfile and os.execute are absent from the rules'
-- Lua, so using them is an "undefined variable" or "undefined field" warning
-- here rather than an error on the device. A test compares it with the
-- globals a running gesturemap has.

local function fields(...) return { fields = { ... } } end

stds.gesturemap = {
  read_globals = {
    -- gesturemap's own (docs/lua-api.md).
    "on", "emit", "config", "mode", "after", "every", "exec", "shell", "key",
    "recognizer", "app", "print", "require",
    log = fields("info", "warn", "error"),
    pointer = fields("move", "press", "release", "click", "scroll"),
    touchpad = fields("begin", "move", "finish"),
    -- state is the rules' own table, carried over reloads: its fields are theirs to set.
    state = { other_fields = true, read_only = false },

    -- Lua 5.4's base library, less dofile and loadfile.
    "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs",
    "load", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen", "rawset",
    "select", "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall",
    string = fields("byte", "char", "dump", "find", "format", "gmatch", "gsub", "len",
      "lower", "match", "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper"),
    table = fields("concat", "insert", "move", "pack", "remove", "sort", "unpack"),
    math = fields("abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "deg",
      "exp", "floor", "fmod", "frexp", "huge", "ldexp", "log", "log10", "max",
      "maxinteger", "min", "mininteger", "modf", "pi", "pow", "rad", "random",
      "randomseed", "sin", "sinh", "sqrt", "tan", "tanh", "tointeger", "type", "ult"),
    utf8 = fields("char", "charpattern", "codepoint", "codes", "len", "offset"),
    coroutine = fields("close", "create", "isyieldable", "resume", "running", "status",
      "wrap", "yield"),
    -- Only these four of os.
    os = fields("clock", "date", "getenv", "time"),
  },
}

std = "gesturemap"
-- A handler is given the gesture whether it needs it or not, a recognizer's
-- functions their r, f and t: leaving them unused is no mistake.
ignore = { "212/g", "212/r", "212/f", "212/t" }
