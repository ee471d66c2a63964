import CLuaShim

/// Lua that runs before the rules: the parts of the API simplest to express in
/// Lua itself. It receives the host's primitives as arguments and keeps them in
/// locals, out of the rules' reach.
enum Prelude {
    static let chunkName = GM_PRELUDE_CHUNK

    static let source = """
    local host_log, host_find_module,
      pointer_move, pointer_press, pointer_release, pointer_click, pointer_scroll,
      touchpad_begin, touchpad_move, touchpad_finish, load_module = ...
    local select, tostring, concat, pack, setmetatable, type = select, tostring, table.concat, table.pack, setmetatable, type

    local function format(...)
      local parts = pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      return concat(parts, " ")
    end

    local function logger(level)
      return function(...) host_log(level, format(...)) end
    end

    log = setmetatable({
      info = logger("info"),
      warn = logger("warning"),
      error = logger("error"),
    }, { __call = function(_, ...) host_log("info", format(...)) end, __metatable = "gesturemap.log" })
    print = log.info

    -- The virtual pointer and touchpad: plain tables of the host's functions.
    pointer = { move = pointer_move, press = pointer_press, release = pointer_release,
                click = pointer_click, scroll = pointer_scroll }
    touchpad = { begin = touchpad_begin, move = touchpad_move, finish = touchpad_finish }

    -- Plain Lua modules from the rules file's directory, loaded once each.
    local loaded = {}
    function require(name)
      if type(name) ~= "string" then error("require() takes a module name", 2) end
      local value = loaded[name]
      if value ~= nil then return value end
      local chunk = load_module(host_find_module(name))
      value = chunk(name)
      if value == nil then value = true end
      loaded[name] = value
      return value
    end
    """

    /// Used when `run` has no `--rules`: the contract's defaults.
    static let defaultRulesName = "(default rules)"
    static let defaultRules = """
    on({ kind = "swipe", fingers = 1, direction = "left" }, function(g) emit("next_page", { fingers = g.fingers }) end)
    on({ kind = "swipe", fingers = 2, direction = "left" }, function(g) emit("next_page", { fingers = g.fingers }) end)
    on({ kind = "swipe", fingers = 1, direction = "right" }, function(g) emit("prev_page", { fingers = g.fingers }) end)
    on({ kind = "swipe", fingers = 2, direction = "right" }, function(g) emit("prev_page", { fingers = g.fingers }) end)
    """
}
