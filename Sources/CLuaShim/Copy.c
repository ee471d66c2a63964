/* `state` carried over a reload: a deep copy between two states that share
 * nothing, run inside the new state's door so running out of its memory is a
 * refused reload, not an abort. */
#include "Internal.h"

#include <string.h>

#define MAX_DEPTH 100

static int is_copyable(int type) {
    return type == LUA_TNIL || type == LUA_TBOOLEAN || type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TTABLE;
}

/* Pushes the copy of `from`'s value at `index` onto `to`. `seen` (on `to`'s
 * stack) maps source tables, by address, to their copies, so shared and
 * cyclic tables stay shared. Returns how many values could not cross. */
static int copy_value(lua_State *from, int index, lua_State *to, int seen, int depth) {
    index = lua_absindex(from, index);
    int type = lua_type(from, index);
    switch (type) {
    case LUA_TBOOLEAN: lua_pushboolean(to, lua_toboolean(from, index)); return 0;
    case LUA_TNUMBER:
        if (lua_isinteger(from, index)) lua_pushinteger(to, lua_tointeger(from, index));
        else lua_pushnumber(to, lua_tonumber(from, index));
        return 0;
    case LUA_TSTRING: {
        size_t length = 0;
        const char *s = lua_tolstring(from, index, &length);
        lua_pushlstring(to, s, length);
        return 0;
    }
    case LUA_TTABLE: break;
    default:
        lua_pushnil(to);
        return type == LUA_TNIL ? 0 : 1;
    }
    const void *address = lua_topointer(from, index);
    lua_pushlightuserdata(to, (void *)address);
    if (lua_rawget(to, seen) == LUA_TTABLE) return 0;
    lua_pop(to, 1);
    if (depth >= MAX_DEPTH || !lua_checkstack(to, 6) || !lua_checkstack(from, 4)) {
        lua_pushnil(to);
        return 1;
    }
    lua_newtable(to);
    lua_pushlightuserdata(to, (void *)address);
    lua_pushvalue(to, -2);
    lua_rawset(to, seen);
    int dropped = 0;
    lua_pushnil(from);
    while (lua_next(from, index) != 0) {
        if (!is_copyable(lua_type(from, -2)) || !is_copyable(lua_type(from, -1))) {
            dropped++;
            lua_pop(from, 1);
            continue;
        }
        dropped += copy_value(from, -2, to, seen, depth + 1);
        dropped += copy_value(from, -1, to, seen, depth + 1);
        if (lua_isnil(to, -2) || lua_isnil(to, -1)) lua_pop(to, 2);
        else lua_rawset(to, -3);
        lua_pop(from, 1);
    }
    return dropped;
}

/* Pushes `from`'s global `state` by walking the globals: asking for the key
 * could allocate in `from`, which runs outside any protected call here. */
static int push_old_state(lua_State *from) {
    gm_push_globals(from);
    lua_pushnil(from);
    while (lua_next(from, -2) != 0) {
        size_t length = 0;
        if (lua_type(from, -2) == LUA_TSTRING && lua_type(from, -1) == LUA_TTABLE) {
            const char *key = lua_tolstring(from, -2, &length);
            if (length == 5 && memcmp(key, "state", 5) == 0) return 1;
        }
        lua_pop(from, 1);
    }
    return 0;
}

int gm_copy_state(lua_State *from, lua_State *to) {
    int from_top = lua_gettop(from);
    if (!lua_checkstack(from, 6) || !push_old_state(from)) {
        lua_settop(from, from_top);
        return 0;
    }
    lua_newtable(to);
    int seen = lua_gettop(to);
    /* If `to` runs out of memory, the error unwinds from here and `from` keeps
     * what this pushed: the host sets its top back. */
    int dropped = copy_value(from, -1, to, seen, 0);
    lua_remove(to, seen);
    gm_push_globals(to);
    lua_pushliteral(to, "state");
    lua_pushvalue(to, -3);
    lua_rawset(to, -3);
    lua_pop(to, 2);
    lua_settop(from, from_top);
    return dropped;
}
